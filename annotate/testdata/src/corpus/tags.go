// Package corpus holds wrong annotations, one per field, each with the
// diagnostic mcpgen must report (analysistest expectations after each offending line; the
// exact text with line and column is in ../../corpus.golden).
package corpus

// Keys are elicit tag options that mcpgen does not know.
type Keys struct {
	Unknown   string `json:"unknown" elicit:"colour=red"`                // want `^elicit tag on Unknown: unknown option "colour"; known options: required, optional, title, description, format, minLength, maxLength, minimum, maximum, minItems, maxItems, enum, default, ask, -, notsecret, secret, choices$`
	MinLen    string `json:"minLen" elicit:"minLenght=3"`                // want `^elicit tag on MinLen: unknown option "minLenght"; did you mean "minLength"\?$`
	Required  string `json:"required2" elicit:"requird"`                 // want `^elicit tag on Required: unknown option "requird"; did you mean "required"\?$`
	MaxLen    string `json:"maxLen" elicit:"maxlength=3"`                // want `^elicit tag on MaxLen: unknown option "maxlength"; did you mean "maxLength"\?$`
	Flag      string `json:"flag" elicit:"optional=true"`                // want `^elicit tag on Flag: "optional" is a flag and takes no value; write optional alone$`
	NeedsVal  int    `json:"needsVal" elicit:"optional,minimum"`         // want `^elicit tag on NeedsVal: "minimum" needs a value: minimum=…$`
	Twice     string `json:"twice" elicit:"optional,title=A,title=B"`    // want `^elicit tag on Twice: option "title" is given twice; keep one$`
	Both      string `json:"both" elicit:"required,optional"`            // want `^elicit tag on Both: both required and optional; keep one \(required is the default\)$`
	Ask       string `json:"ask" elicit:"ask=sometimes"`                 // want `^elicit tag on Ask: ask=sometimes: want ask=missing \(the default\) or ask=always$`
	Dash      string `json:"dash" elicit:"-,optional"`                   // want `^elicit tag on Dash: "-" \(never elicit\) cannot be combined with other options; write elicit:"-" alone, or remove the "-"$`
	Empty     string `json:"empty" elicit:"optional,,title=X"`           // want `^elicit tag on Empty: empty option \(two commas in a row, or a trailing comma\); remove the extra comma$`
	NoName    string `json:"noName" elicit:"=x"`                         // want `^elicit tag on NoName: option with a value but no name \(=x\); write key=x with a key such as title or default$`
	Unclosed  string `json:"unclosed" elicit:"title='Your name, please"` // want `^elicit tag on Unclosed: quote opened here is never closed; end the value with ' \(and write '' for a quote inside it\)$`
	QuotedKey string `json:"quotedKey" elicit:"'title'=x"`               // want `^elicit tag on QuotedKey: quote in an option name; quotes go around values: key='a,b'$`
}

// Unlikely are unknown options too short or too far from every known one to
// be a credible misspelling, or whose nearest option would change what the
// tag means or be an error itself: no "did you mean", so no fix.
type Unlikely struct {
	X      string `json:"x" elicit:"x"`                     // want `^elicit tag on X: unknown option "x"; known options: required, optional, title, description, format, minLength, maxLength, minimum, maximum, minItems, maxItems, enum, default, ask, -, notsecret, secret, choices$`
	No     string `json:"no" elicit:"no"`                   // want `^elicit tag on No: unknown option "no"; known options: required, optional, title, description, format, minLength, maxLength, minimum, maximum, minItems, maxItems, enum, default, ask, -, notsecret, secret, choices$`
	Zeros  string `json:"zeros" elicit:"00"`                // want `^elicit tag on Zeros: unknown option "00"; known options: required, optional, title, description, format, minLength, maxLength, minimum, maximum, minItems, maxItems, enum, default, ask, -, notsecret, secret, choices$`
	Under  string `json:"under" elicit:"_"`                 // want `^elicit tag on Under: unknown option "_"; did you mean "-" \(never elicit\)\?$`
	Dashes string `json:"dashes" elicit:"--"`               // want `^elicit tag on Dashes: unknown option "--"; did you mean "-" \(never elicit\)\?$`
	OK     string `json:"ok" elicit:"optional,ok"`          // want `^elicit tag on OK: unknown option "ok"; known options: required, optional, title, description, format, minLength, maxLength, minimum, maximum, minItems, maxItems, enum, default, ask, -, notsecret, secret, choices$`
	As     string `json:"as" elicit:"optional,as"`          // want `^elicit tag on As: unknown option "as"; known options: required, optional, title, description, format, minLength, maxLength, minimum, maximum, minItems, maxItems, enum, default, ask, -, notsecret, secret, choices$`
	Valued string `json:"valued" elicit:"requird=1"`        // want `^elicit tag on Valued: unknown option "requird"; known options: required, optional, title, description, format, minLength, maxLength, minimum, maximum, minItems, maxItems, enum, default, ask, -, notsecret, secret, choices$`
	Aks    string `json:"aks" elicit:"optional,aks=always"` // want `^elicit tag on Aks: unknown option "aks"; did you mean "ask"\?$`
}

// Values are options whose values are wrong.
type Values struct {
	Age       *int     `json:"age" elicit:"minimum=abc"`                        // want `^elicit tag on Age: minimum=abc is not a number; write a finite decimal number, e\.g\. minimum=1 or minimum=0\.5$`
	Phone     string   `json:"phone" elicit:"format=phone"`                     // want `^elicit tag on Phone: format=phone is not a format of the form grammar, which knows only email, uri, date and date-time; remove it and check the value in your handler$`
	Short     string   `json:"short" elicit:"maxLength=-1"`                     // want `^elicit tag on Short: maxLength=-1 is not a whole number ≥ 0; write a length in characters, e\.g\. maxLength=100$`
	Range     *int     `json:"range" elicit:"minimum=10,maximum=5"`             // want `^elicit tag on Range: minimum=10 is above maximum=5, so no value can satisfy both; swap them or fix one$`
	Lengths   string   `json:"lengths" elicit:"minLength=5,maxLength=2"`        // want `^elicit tag on Lengths: minLength=5 is above maxLength=2, so no value can satisfy both; swap them or fix one$`
	Items     []string `json:"items" elicit:"enum=a|b|c,minItems=3,maxItems=1"` // want `^elicit tag on Items: minItems=3 is above maxItems=1, so no answer can satisfy both; swap them or fix one$`
	Half      *int     `json:"half" elicit:"minimum=1.5"`                       // want `^elicit tag on Half: minimum=1\.5 is not a whole number, but Half is an integer \(int\); write e\.g\. minimum=2$`
	Tiny      *int8    `json:"tiny" elicit:"maximum=300"`                       // want `^elicit tag on Tiny: maximum=300 is outside what int8 can hold \(-128 to 127\); write a bound in that range, or use a wider type$`
	TooMany   []string `json:"tooMany" elicit:"enum=a|b,minItems=3,maxItems=3"` // want `^elicit tag on TooMany: minItems=3 is more than the 2 choices, so no answer can satisfy it; lower it to at most 2$`
	FormatSel string   `json:"formatSel" elicit:"format=email,enum=a|b"`        // want `^elicit tag on FormatSel: format cannot be combined with enum: the choices already fix the values; remove format$`
	LenSel    string   `json:"lenSel" elicit:"enum=a|b,maxLength=3"`            // want `^elicit tag on LenSel: maxLength cannot be combined with enum: the choices already fix the values; remove maxLength$`
	SpacedFmt string   `json:"spacedFmt" elicit:"optional, format = mail "`     // want `^elicit tag on SpacedFmt: format=mail is not a format of the form grammar, which knows only email, uri, date and date-time; did you mean format=email\?$`
	SpacedOK  *int     `json:"spacedOK" elicit:"optional , minimum = 1 , default = 5 "`
	Emial     string   `json:"emial" elicit:"format=emial"`                   // want `^elicit tag on Emial: format=emial is not a format of the form grammar, which knows only email, uri, date and date-time; did you mean format=email\?$`
	URL       string   `json:"url" elicit:"optional,format=url"`              // want `^elicit tag on URL: format=url is not a format of the form grammar, which knows only email, uri, date and date-time; did you mean format=uri\?$`
	Upper     string   `json:"upper" elicit:"optional,format=Email"`          // want `^elicit tag on Upper: format=Email is not a format of the form grammar, which knows only email, uri, date and date-time; did you mean format=email\?$`
	Greeting  string   `json:"greeting" elicit:"optional,title=Hello, world"` // want `^elicit tag on Greeting: title=Hello, world: a value holding "," goes in single quotes; write title='Hello, world'$`
	NoText    string   `json:"noText" elicit:"optional,title="`               // want `^elicit tag on NoText: title= is empty; write the text the user sees, e\.g\. title=Departure date, or remove it$`
	NoDesc    string   `json:"noDesc" elicit:"description=,optional"`         // want `^elicit tag on NoDesc: description= is empty; write the text the user sees, e\.g\. description='The day the flight leaves, YYYY-MM-DD', or remove it$`
}

// Enums are broken choice lists.
type Enums struct {
	Empty      string   `json:"empty" elicit:"enum="`                                          // want `^elicit tag on Empty: enum= is empty; list the choices, e\.g\. enum=a\|b\|c$`
	Dup        string   `json:"dup" elicit:"enum=a|b|a"`                                       // want `^elicit tag on Dup: enum lists "a" twice; list each choice once$`
	Mixed      string   `json:"mixed" elicit:"enum=m:Morning|a"`                               // want `^elicit tag on Mixed: enum mixes titled \(value:Title\) and untitled choices; title all of them or none$`
	Hole       string   `json:"hole" elicit:"enum=a||b"`                                       // want `^elicit tag on Hole: enum=a\|\|b has an empty choice; remove the extra '\|' \(or quote an empty value: ''\)$`
	NoTitle    string   `json:"noTitle" elicit:"enum=a:|b:B"`                                  // want `^elicit tag on NoTitle: enum choice "a" has an empty title after ':'; write a:Title, or drop the ':'$`
	NoChoice   []string `json:"noChoice" elicit:"optional"`                                    // want `^NoChoice is a multi select \(\[\]string\) and needs its choices: add enum=a\|b\|c, or use a slice of a named string type with constants$`
	Currency   string   `json:"currency" elicit:"enum=EUR,USD,GBP"`                            // want `^elicit tag on Currency: enum=EUR,USD,GBP: list items are separated by "\|", not ","; write enum=EUR\|USD\|GBP$`
	SpacedList *string  `json:"spacedList" elicit:"optional, enum = EUR , USD,title=Currency"` // want `^elicit tag on SpacedList: enum = EUR , USD: list items are separated by "\|", not ","; write enum=EUR\|USD$`
	TitledList string   `json:"titledList" elicit:"enum=m:Morning,a:Afternoon"`                // want `^elicit tag on TitledList: enum=m:Morning,a:Afternoon: list items are separated by "\|", not ","; write enum=m:Morning\|a:Afternoon$`
	Quoted     []string `json:"quoted" elicit:"enum='a,b'|c,d"`                                // want `^elicit tag on Quoted: enum='a,b'\|c,d: list items are separated by "\|", not ","; write enum='a,b'\|c\|d$`
	TypoAfter  string   `json:"typoAfter" elicit:"enum=a|b,requird"`                           // want `^elicit tag on TypoAfter: unknown option "requird"; did you mean "required"\?$`
}

// Defaults are pre-filled values that break the field's own rules.
type Defaults struct {
	NotChoice  string   `json:"notChoice" elicit:"enum=s|m|l,default=xl"`                             // want `^elicit tag on NotChoice: default=xl: "xl" is not one of the choices \(s, m, l\)$`
	Below      int      `json:"below" elicit:"optional,minimum=1,maximum=9,default=0"`                // want `^elicit tag on Below: default=0: below minimum=1; pick a default within the bounds$`
	Above      float64  `json:"above" elicit:"optional,maximum=2.5,default=3"`                        // want `^elicit tag on Above: default=3: above maximum=2\.5; pick a default within the bounds$`
	Word       int      `json:"word" elicit:"optional,default=many"`                                  // want `^elicit tag on Word: default=many: Word is an integer \(int\); write a whole number, e\.g\. default=1$`
	YesNo      bool     `json:"yesNo" elicit:"optional,default=yes"`                                  // want `^elicit tag on YesNo: default=yes: YesNo is a bool; write default=true or default=false$`
	Date       string   `json:"date" elicit:"optional,format=date,default=tomorrow"`                  // want `^elicit tag on Date: default=tomorrow: not a valid date; write YYYY-MM-DD \(RFC 3339 full-date\), e\.g\. 2026-07-28$`
	Long       string   `json:"long" elicit:"optional,maxLength=3,default=abcd"`                      // want `^elicit tag on Long: default=abcd: longer than maxLength=3; pick a default the field accepts$`
	Multi      []string `json:"multi" elicit:"optional,enum=a|b,default=a|c"`                         // want `^elicit tag on Multi: default=a\|c: "c" is not one of the choices \(a, b\)$`
	MultiDup   []string `json:"multiDup" elicit:"optional,enum=a|b,default=a|a"`                      // want `^elicit tag on MultiDup: default=a\|a: lists "a" twice; list each choice once$`
	Unsigned   uint     `json:"unsigned" elicit:"optional,default=-1"`                                // want `^elicit tag on Unsigned: default=-1: outside what uint can hold \(0 to 18446744073709551615\)$`
	When       string   `json:"when" elicit:"optional,format=date-time,default=2026-13-01T00:00:00Z"` // want `^elicit tag on When: default=2026-13-01T00:00:00Z: not a valid date-time; write an RFC 3339 date-time, e\.g\. 2026-07-28T09:30:00Z$`
	MultiComma []string `json:"multiComma" elicit:"optional,enum=a|b|c,default=a,b"`                  // want `^elicit tag on MultiComma: default=a,b: list items are separated by "\|", not ","; write default=a\|b$`
	TextComma  string   `json:"textComma" elicit:"optional,default=a, b"`                             // want `^elicit tag on TextComma: default=a, b: a value holding "," goes in single quotes; write default='a, b'$`
}

// KeyTypos has struct tag keys that misspell elicit: reflect finds no elicit
// tag, so without a diagnostic those fields would silently not be asked.
type KeyTypos struct {
	Date    string `json:"date" elicit:"required"`
	Amount  *int   `json:"amount" elict:"required,minimum=1"` // want `^struct tag key "elict" on Amount looks like a misspelling of "elicit", so Amount is not elicited; write elicit:"required,minimum=1"$`
	Note    string `json:"note" elicits:"optional"`           // want `^struct tag key "elicits" on Note looks like a misspelling of "elicit", so Note is not elicited; write elicit:"optional"$`
	Place   string `json:"place" elcit:"optional"`            // want `^struct tag key "elcit" on Place looks like a misspelling of "elicit", so Place is not elicited; write elicit:"optional"$`
	Capital string `json:"capital" Elicit:"optional"`         // want `^struct tag key "Elicit" on Capital is not "elicit" \(struct tag keys are case-sensitive\), so Capital is not elicited; write elicit:"optional"$`
	Schema  string `json:"schema" jsonschema:"title=Schema" yaml:"schema"`
}

// NoElicit has a misspelt key but no elicit tag at all, and no -type names
// it: it is not an argument struct, so nothing is reported.
type NoElicit struct {
	Amount int `json:"amount" elict:"required"`
}

// Counts are lengths and item counts that generated code compares with a Go
// int, which holds no more than 2147483647 on 32-bit platforms.
type Counts struct {
	HugeLen   string   `json:"hugeLen" elicit:"maxLength=2147483648"`                     // want `^elicit tag on HugeLen: maxLength=2147483648 is more than 2147483647, the largest int on 32-bit platforms; write a length in characters, e\.g\. maxLength=100$`
	HugeItems []string `json:"hugeItems" elicit:"enum=a|b,minItems=99999999999999999999"` // want `^elicit tag on HugeItems: minItems=99999999999999999999 is more than 2147483647, the largest int on 32-bit platforms; write a count of choices, e\.g\. minItems=1$`
	LongOK    string   `json:"longOK" elicit:"optional,maxLength=2147483647"`
}
