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
	_, ok := ParseDateTime(s)
	return ok
}

// DateTime is a date-time that [ParseDateTime] accepted, field by field as
// written.
type DateTime struct {
	Year, Month, Day     int
	Hour, Minute, Second int // Second is 60 for a leap second
	Nanosecond           int // the first nine digits of the fraction
	Offset               int // seconds east of UTC; 0 for "Z"
	Z                    bool
	// Plain: every field is written in ASCII digits (no strconv.Atoi sign,
	// see [IsDateTime]), the fraction has at most nine digits, and T and Z
	// are upper case, so time.Parse(time.RFC3339Nano, s) reads the same
	// fields.
	Plain bool
}

// ParseDateTime is [IsDateTime] returning the fields it read, so that a
// caller that needs the value does not parse s a second time.
func ParseDateTime(s string) (DateTime, bool) {
	var d DateTime
	if len(s) < 20 {
		return d, false
	}
	if s[10] != 't' && s[10] != 'T' {
		return d, false
	}
	if !IsDate(s[:10]) {
		return d, false
	}
	d.Year = int(s[0]-'0')*1000 + int(s[1]-'0')*100 + int(s[2]-'0')*10 + int(s[3]-'0')
	d.Month = int(s[5]-'0')*10 + int(s[6]-'0')
	d.Day = int(s[8]-'0')*10 + int(s[9]-'0')
	d.Plain = s[10] == 'T'
	return d, parseTime(s[11:], &d)
}

// parseTime mirrors the validator's "time" format (RFC 3339 full-time),
// filling d's time fields.
func parseTime(str string, d *DateTime) bool {
	if len(str) < 9 || str[2] != ':' || str[5] != ':' {
		return false
	}
	h, ok1 := atoi2(str[0], str[1])
	m, ok2 := atoi2(str[3], str[4])
	sec, ok3 := atoi2(str[6], str[7])
	if !ok1 || !ok2 || !ok3 || h > 23 || m > 59 || sec > 60 {
		return false
	}
	d.Hour, d.Minute, d.Second = h, m, sec
	d.Plain = d.Plain && isDigit(str[0]) && isDigit(str[3]) && isDigit(str[6])
	str = str[8:]
	if len(str) > 0 && str[0] == '.' {
		n := 1
		for n < len(str) && '0' <= str[n] && str[n] <= '9' {
			if n <= 9 {
				d.Nanosecond = d.Nanosecond*10 + int(str[n]-'0')
			}
			n++
		}
		if n == 1 {
			return false
		}
		for k := n; k <= 9; k++ {
			d.Nanosecond *= 10
		}
		d.Plain = d.Plain && n <= 10
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
		d.Offset = -sign * (zh*60 + zm) * 60
		d.Plain = d.Plain && isDigit(str[1]) && isDigit(str[4])
		hm := (h*60 + m) + sign*(zh*60+zm)
		if hm < 0 {
			hm += 24 * 60
		}
		h, m = hm/60, hm%60
	} else {
		d.Z = true
		d.Plain = d.Plain && str == "Z"
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
