package annotate

import (
	"strconv"
)

// checkStructTag reports what is wrong with a struct tag that does not follow
// the key:"value" convention of reflect.StructTag (the check go vet's
// structtag analyzer makes), or "" when it is well formed.
func checkStructTag(tag string) string {
	for {
		i := 0
		for i < len(tag) && tag[i] == ' ' {
			i++
		}
		tag = tag[i:]
		if tag == "" {
			return ""
		}
		i = 0
		for i < len(tag) && tag[i] > ' ' && tag[i] != ':' && tag[i] != '"' && tag[i] != 0x7f {
			i++
		}
		if i == 0 {
			return "bad syntax for struct tag key"
		}
		if i+1 >= len(tag) || tag[i] != ':' {
			return "bad syntax for struct tag pair (want key:\"value\")"
		}
		if tag[i+1] != '"' {
			return "bad syntax for struct tag value (values are double-quoted)"
		}
		tag = tag[i+1:]
		i = 1
		for i < len(tag) && tag[i] != '"' {
			if tag[i] == '\\' {
				i++
			}
			i++
		}
		if i >= len(tag) {
			return "bad syntax for struct tag value (unterminated quote)"
		}
		if _, err := strconv.Unquote(tag[:i+1]); err != nil {
			return "bad syntax for struct tag value"
		}
		tag = tag[i+1:]
		if tag != "" && tag[0] != ' ' {
			return "key:\"value\" pairs not separated by spaces"
		}
	}
}
