// Package format holds allocation-free checkers for the JSON Schema string
// formats "email", "uri", "date" and "date-time" (JSON Schema 2020-12
// Validation §7.3), one format per file. They are written to agree exactly
// with the format assertions of github.com/santhosh-tekuri/jsonschema/v6
// (v6.0.3, file format.go, together with the parts of net/url, net/netip,
// strconv and time that it calls) for every input, valid UTF-8 or not,
// because generated code promises the same verdict as that validator. Where
// the validator departs from the RFC it cites, these checkers depart the same
// way; each doc comment lists the departures that are known.
//
// None of the checkers allocates, and none panics, whatever the input.
//
// Package runtime uses it for the flow's own date checks; package
// runtime/impl exposes it to generated code (impl.IsEmail, impl.IsURI,
// …) through one-line wrappers; package annotate checks defaults with it.
// It lives outside runtime/ so that the generator (cmd/mcpgen) does not link
// the runtime and its dependencies: `go tool mcpgen` hashes every package of
// the command before each run, so each one costs every //go:generate line.
package format

// Check reports whether s is valid for the JSON Schema format named
// format. It knows "email" ([IsEmail]), "uri" ([IsURI]), "date" ([IsDate]) and
// "date-time" ([IsDateTime]). Any other format name is an annotation only, as
// JSON Schema 2019-09 and later treat unknown formats, so Check returns
// true for it: it does not claim to check formats such as "uuid" or "ipv4"
// that the validator knows but this package does not.
func Check(format, s string) bool {
	switch format {
	case "email":
		return IsEmail(s)
	case "uri":
		return IsURI(s)
	case "date":
		return IsDate(s)
	case "date-time":
		return IsDateTime(s)
	}
	return true
}
