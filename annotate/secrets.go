package annotate

import (
	"fmt"
	"strings"
	"unicode"
)

// MCP 2026-07-28 client/elicitation, "Form mode": servers MUST NOT request
// sensitive information (passwords, API keys, access tokens, payment
// credentials) through form mode. The words below are how a field says it
// asks for one; `notsecret` in the tag overrides them all (docs/tags.md).

// secretStems are matched inside a field's Go or JSON name with letter case,
// '_', '-' and spaces ignored (user_pass_word, APIKey, clientSecret): long
// enough that no ordinary word holds them.
var secretStems = []string{
	"password", "passwd", "passphrase", "passcode", "secret", "token", "apikey", "accesskey", "privatekey",
	"secretkey", "signingkey", "credential", "cardnumber", "creditcard", "securitycode", "verificationcode", "pincode",
}

// secretWords are abbreviations matched only as a whole word of a name (Go
// names split at case changes, JSON names also at '_', '-', spaces and
// dots), in any letter case, plural or with a trailing number (PINs, CVV2),
// so that Spin, Pinned, Option, Topping, Shipping and businessName do not
// match.
var secretWords = map[string]bool{
	"pwd": true, "pw": true, "pswd": true, "pin": true, "otp": true, "totp": true, "hotp": true, "mfa": true,
	"cvv": true, "cvc": true, "ssn": true, "iban": true, "jwt": true,
}

// secretAcronyms are matched in a title or description only as a whole word
// in capitals, since the lower-case word is ordinary prose ("pin the post").
var secretAcronyms = map[string]bool{
	"PIN": true, "OTP": true, "TOTP": true, "HOTP": true, "MFA": true, "CVV": true, "CVC": true,
	"SSN": true, "IBAN": true, "JWT": true,
}

// secretProseWords are matched in a title or description as a whole word
// in any letter case (plural too).
var secretProseWords = map[string]bool{
	"password": true, "passwd": true, "pwd": true, "passphrase": true, "passcode": true, "secret": true,
	"credential": true,
}

// secretPhrases are matched in a title or description as consecutive whole
// words in any letter case ("one-time" is two words): a key or a token named
// as a credential, never "key" or "token" alone ("sort key", "max tokens").
var secretPhrases = [][]string{
	{"api", "key"}, {"access", "key"}, {"secret", "key"}, {"private", "key"}, {"signing", "key"},
	{"encryption", "key"}, {"license", "key"}, {"ssh", "key"}, {"pgp", "key"}, {"gpg", "key"},
	{"api", "token"}, {"access", "token"}, {"auth", "token"}, {"bearer", "token"}, {"refresh", "token"},
	{"session", "token"}, {"personal", "access", "token"},
	{"card", "number"}, {"credit", "card"}, {"debit", "card"}, {"security", "code"}, {"verification", "code"},
	{"one", "time", "code"}, {"pin", "code"}, {"pin", "number"},
}

// secretLooks returns what makes field f look like a secret, or "": the
// word in its Go or JSON name (where is ""), else the word or phrase in its
// title or its description (where says which: ` in its title "…"`), so that
// a field named Bank but titled "Your bank password" is one.
func secretLooks(f *Field) (word, where string) {
	if w := secretWord(f.GoName, f.JSONName); w != "" {
		return w, ""
	}
	if w := secretProse(f.Title); w != "" {
		return w, fmt.Sprintf(" in its title %q", f.Title)
	}
	if w := secretProse(f.Description); w != "" {
		d := []rune(f.Description)
		if len(d) > 60 {
			d = append(d[:59], '…')
		}
		return w, fmt.Sprintf(" in its description %q", string(d))
	}
	return "", ""
}

// secretWord returns the secret-looking word in a field's names, or "".
func secretWord(goName, jsonName string) string {
	norm := func(s string) string {
		s = strings.ToLower(s)
		return strings.NewReplacer("_", "", "-", "", " ", "", ".", "").Replace(s)
	}
	for _, n := range []string{norm(goName), norm(jsonName)} {
		for _, w := range secretStems {
			if strings.Contains(n, w) {
				return w
			}
		}
	}
	for _, name := range []string{goName, jsonName} {
		for _, w := range nameWords(name) {
			if w = strings.ToLower(w); secretWords[wordStem(w)] {
				return wordStem(w)
			}
		}
	}
	return ""
}

// secretProse returns the secret-looking word or phrase in a field's title
// or description, as written there, or "".
func secretProse(text string) string {
	words := strings.FieldsFunc(text, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
	lower := make([]string, len(words))
	for i, w := range words {
		lower[i] = strings.ToLower(w)
	}
	for i, w := range words {
		if secretAcronyms[wordStem(w)] || secretProseWords[wordStem(lower[i])] {
			return w
		}
		for _, p := range secretPhrases {
			if i+len(p) > len(words) {
				continue
			}
			match := true
			for j, pw := range p {
				if wordStem(lower[i+j]) != pw {
					match = false
					break
				}
			}
			if match {
				return strings.Join(words[i:i+len(p)], " ")
			}
		}
	}
	return ""
}

// nameWords splits a Go or JSON name into its words: at '_', '-', spaces
// and dots, then as a Go name's words (splitWords: APIKey → API, Key).
func nameWords(name string) []string {
	var out []string
	for _, part := range strings.FieldsFunc(name, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
		out = append(out, splitWords(part)...)
	}
	return out
}

// wordStem is w without a trailing number (CVV2 → CVV) and a plural s
// (PINs → PIN; passwords → password, but access stays), when two letters
// or more are left.
func wordStem(w string) string {
	w = strings.TrimRightFunc(w, unicode.IsDigit)
	if strings.HasSuffix(w, "ss") || strings.HasSuffix(w, "SS") {
		return w
	}
	for _, suffix := range []string{"s", "S"} {
		if s, ok := strings.CutSuffix(w, suffix); ok && len(s) >= 2 {
			return s
		}
	}
	return w
}
