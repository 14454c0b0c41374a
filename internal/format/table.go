package format

// byteSet is a set of bytes, looked up in one load instead of a chain of
// comparisons.
type byteSet [256]bool

func makeSet(ranges ...string) *byteSet {
	var s byteSet
	for _, r := range ranges {
		for i := 0; i < len(r); i++ {
			s[r[i]] = true
		}
	}
	return &s
}

const (
	lower  = "abcdefghijklmnopqrstuvwxyz"
	upper  = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
	digits = "0123456789"
)

var (
	// schemeSet: the bytes of a URI scheme after its first letter (RFC 3986
	// section 3.1).
	schemeSet = makeSet(lower, upper, digits, "+-.")
	// plainURISet: the bytes after "scheme://" that [IsURI]'s fast path
	// takes without a second look: unreserved, sub-delims and '/'. None of
	// them starts a port, userinfo, IP literal, %-escape, query or fragment,
	// and every one is a host byte for net/url.
	plainURISet = makeSet(lower, upper, digits, "-._~", "!$&'()*+,;=", "/")
	// atextSet: RFC 5322 atext, ASCII only.
	atextSet = makeSet(lower, upper, digits, "!#$%&'*+-/=?^_`{|}~")
	// hostnameSet: the bytes of a host name label.
	hostnameSet = makeSet(lower, upper, digits, "-")
)
