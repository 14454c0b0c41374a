package annotate

import (
	"strings"
)

// secretWord returns the secret-looking word in a field's names, or "".
// MCP 2026-07-28 client/elicitation: servers MUST NOT request sensitive
// information (passwords, API keys, access tokens, payment credentials)
// through form mode.
func secretWord(goName, jsonName string) string {
	norm := func(s string) string {
		s = strings.ToLower(s)
		return strings.NewReplacer("_", "", "-", "", " ", "").Replace(s)
	}
	for _, n := range []string{norm(goName), norm(jsonName)} {
		for _, w := range []string{"password", "passwd", "passphrase", "secret", "token", "apikey", "accesskey", "privatekey",
			"cardnumber", "creditcard", "cvv", "cvc", "iban", "ssn", "pincode"} {
			if strings.Contains(n, w) {
				return w
			}
		}
	}
	return ""
}
