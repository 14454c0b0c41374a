package impl

import "github.com/mcpgen/mcpgen/internal/format"

// The JSON Schema format checks of generated Validate and ApplyContent
// methods. Each agrees exactly with santhosh-tekuri/jsonschema/v6 (draft
// 2020-12, format assertions on) for every input, and neither allocates nor
// panics; the doc comments of package internal/format list the rules
// and where the validator departs from the RFCs. These are one-line wrappers,
// inlined by the compiler.

// IsEmail reports whether s is an "email" (RFC 5321 §4.1.2 Mailbox, RFC 5322
// §3.4.1 addr-spec) as santhosh-tekuri/jsonschema/v6 checks it: at most 254
// bytes, a local part of at most 64 bytes (dot-atom or quoted string) before
// the last '@', and a host name or an [IPv4] / [IPv6:…] address literal after
// it.
func IsEmail(s string) bool { return format.IsEmail(s) }

// IsURI reports whether s is a "uri" (RFC 3986 §3, absolute: a scheme is
// required) as santhosh-tekuri/jsonschema/v6 checks it, that is as
// net/url.Parse accepts it with a scheme and a well-formed host.
func IsURI(s string) bool { return format.IsURI(s) }

// IsDate reports whether s is a "date": an RFC 3339 §5.6 full-date,
// exactly "YYYY-MM-DD" with a day that exists in that month (Gregorian leap
// years).
func IsDate(s string) bool { return format.IsDate(s) }

// IsDateTime reports whether s is a "date-time": an RFC 3339 §5.6 date-time,
// full-date "T" full-time with "Z" or a numeric offset; "t" and "z" may be
// lower case, and a leap second (second 60) is accepted only at 23:59 UTC
// (RFC 3339 §5.7).
func IsDateTime(s string) bool { return format.IsDateTime(s) }
