package format

// IsDateTime reports whether s is a "date-time" as santhosh-tekuri/jsonschema
// v6 checks it: RFC 3339 section 5.6 date-time, full-date "T" full-time,
// that is [IsDate] for the first ten bytes, 'T' or 't', then
// "hh:mm:ss[.frac](Z|z|+hh:mm|-hh:mm)" with hour 00-23, minute 00-59,
// second 00-60, one or more fraction digits and offset hour 00-23, minute
// 00-59. A leap second (second 60) is accepted only if the time converted to
// UTC with the offset is 23:59 (RFC 3339 section 5.7); the date is not
// consulted, so 23:59:60Z is accepted on any day.
//
// Known disagreement with RFC 3339, inherited from the validator: each
// two-byte hour, minute, second and offset field is read by strconv.Atoi, so
// a leading '+' ("+1" for 01) or "-0" is accepted in place of a digit, as in
// "2024-01-01T+1:-0:+5+-0:+3".
func IsDateTime(s string) bool {
	if len(s) < 20 {
		return false
	}
	if s[10] != 't' && s[10] != 'T' {
		return false
	}
	if !IsDate(s[:10]) {
		return false
	}
	return isTime(s[11:])
}

// isTime mirrors the validator's "time" format (RFC 3339 full-time).
func isTime(str string) bool {
	if len(str) < 9 || str[2] != ':' || str[5] != ':' {
		return false
	}
	h, ok1 := atoi2(str[0], str[1])
	m, ok2 := atoi2(str[3], str[4])
	sec, ok3 := atoi2(str[6], str[7])
	if !ok1 || !ok2 || !ok3 || h > 23 || m > 59 || sec > 60 {
		return false
	}
	str = str[8:]
	if len(str) > 0 && str[0] == '.' {
		n := 1
		for n < len(str) && '0' <= str[n] && str[n] <= '9' {
			n++
		}
		if n == 1 {
			return false
		}
		str = str[n:]
	}
	if str != "z" && str != "Z" {
		if len(str) != 6 || str[3] != ':' {
			return false
		}
		var sign int
		switch str[0] {
		case '+':
			sign = -1
		case '-':
			sign = +1
		default:
			return false
		}
		zh, ok1 := atoi2(str[1], str[2])
		zm, ok2 := atoi2(str[4], str[5])
		if !ok1 || !ok2 || zh > 23 || zm > 59 {
			return false
		}
		hm := (h*60 + m) + sign*(zh*60+zm)
		if hm < 0 {
			hm += 24 * 60
		}
		h, m = hm/60, hm%60
	}
	if sec >= 60 && (h != 23 || m != 59) {
		return false
	}
	return true
}

// atoi2 parses a two-byte field the way strconv.Atoi does and rejects
// negative values: two digits, or '+' and a digit, or "-0".
func atoi2(a, b byte) (int, bool) {
	if b < '0' || b > '9' {
		return 0, false
	}
	d := int(b - '0')
	switch {
	case '0' <= a && a <= '9':
		return int(a-'0')*10 + d, true
	case a == '+':
		return d, true
	case a == '-' && d == 0:
		return 0, true
	}
	return 0, false
}
