package annotate

import (
	"fmt"
	"strings"
)

// Option is one comma-separated option of an elicit tag.
type Option struct {
	Key    string   // option name, e.g. "minLength", "required", "-"
	Value  string   // the value with quotes removed ("" for flags)
	Items  []string // the value split on unquoted '|', quotes removed
	HasVal bool     // written as key=value
	Offset int      // byte offset of the option in the tag value
	End    int      // byte offset just past the option: its comma, or the end of the value
}

// TagError is a syntax error in an elicit tag at byte Offset of its value.
type TagError struct {
	Offset int
	Msg    string
}

// Error returns Msg, without the offset (callers position it).
func (e *TagError) Error() string { return e.Msg }

// ParseTag splits an elicit tag value into options:
// options are separated by commas; an option is a flag or key=value; a list
// value separates items with '|'; a value holding ',' or '|' is wrapped in
// single quotes, and a quote inside quotes is written twice (”).
// Spaces around keys, values and list items are dropped unless quoted:
// "optional , title = Spaced out " gives title "Spaced out", title=' x ' gives " x ".
// It never panics; a syntax error is a *TagError with the offset (the
// first, when there are several).
func ParseTag(tag string) ([]Option, error) {
	opts, errs := parseTag(tag)
	if len(errs) > 0 {
		return nil, errs[0]
	}
	return opts, nil
}

// parseTag is [ParseTag] reporting every syntax error it can, with the
// options it read: an option without a name (two commas in a row, "=x") is
// skipped and reading goes on; after a quote in an option name or a quote
// never closed, where the rest of the tag cannot be read reliably, it stops.
func parseTag(tag string) (opts []Option, errs []*TagError) {
	if strings.TrimSpace(tag) == "" {
		return nil, nil
	}
	i := 0
	for i <= len(tag) {
		start := i
		// key: up to '=' or ','
		for i < len(tag) && tag[i] != '=' && tag[i] != ',' {
			if tag[i] == '\'' {
				return opts, append(errs, &TagError{Offset: i, Msg: "quote in an option name; quotes go around values: key='a,b'"})
			}
			i++
		}
		opt := Option{Key: strings.TrimSpace(tag[start:i]), Offset: start}
		if i < len(tag) && tag[i] == '=' {
			opt.HasVal = true
			i++
			var item, val trimmed
			for i < len(tag) && tag[i] != ',' {
				c := tag[i]
				switch c {
				case '\'':
					q := i
					i++
					for {
						if i >= len(tag) {
							return opts, append(errs, &TagError{Offset: q, Msg: "quote opened here is never closed; end the value with ' (and write '' for a quote inside it)"})
						}
						if tag[i] == '\'' {
							if i+1 < len(tag) && tag[i+1] == '\'' {
								item.keep('\'')
								val.keep('\'')
								i += 2
								continue
							}
							i++
							break
						}
						item.keep(tag[i])
						val.keep(tag[i])
						i++
					}
					continue
				case '|':
					opt.Items = append(opt.Items, item.String())
					item = trimmed{}
					val.keep(c)
				default:
					item.add(c)
					val.add(c)
				}
				i++
			}
			opt.Items = append(opt.Items, item.String())
			opt.Value = val.String()
		}
		opt.End = min(i, len(tag))
		i++ // skip ','
		if opt.Key == "" {
			errs = append(errs, &TagError{Offset: start, Msg: emptyOptionMsg(opt)})
			continue
		}
		opts = append(opts, opt)
	}
	return opts, errs
}

// trimmed builds a value without its unquoted leading and trailing spaces:
// add appends unquoted text, keep appends text that stays as written.
type trimmed struct {
	b    []byte
	kept int // length of b up to the last byte that is not an unquoted space
}

func isTagSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'
}

func (t *trimmed) add(c byte) {
	if isTagSpace(c) {
		if len(t.b) > 0 {
			t.b = append(t.b, c)
		}
		return
	}
	t.keep(c)
}

func (t *trimmed) keep(c byte) {
	t.b = append(t.b, c)
	t.kept = len(t.b)
}

func (t *trimmed) String() string { return string(t.b[:t.kept]) }

func emptyOptionMsg(o Option) string {
	if o.HasVal {
		return fmt.Sprintf("option with a value but no name (=%s); write key=%s with a key such as title or default", o.Value, o.Value)
	}
	return "empty option (two commas in a row, or a trailing comma); remove the extra comma"
}
