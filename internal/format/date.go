package format

// IsDate reports whether s is a "date" as santhosh-tekuri/jsonschema v6
// checks it, i.e. time.Parse("2006-01-02", s) succeeds: RFC 3339 section 5.6
// full-date, exactly "YYYY-MM-DD" with ASCII digits, month 01-12 and day 01
// up to the length of that month, February having 29 days in Gregorian leap
// years (divisible by 4, except centuries not divisible by 400). Year 0000
// is accepted. No known disagreement with RFC 3339.
func IsDate(s string) bool {
	if len(s) != 10 || s[4] != '-' || s[7] != '-' {
		return false
	}
	if !isDigit(s[0]) || !isDigit(s[1]) || !isDigit(s[2]) || !isDigit(s[3]) ||
		!isDigit(s[5]) || !isDigit(s[6]) || !isDigit(s[8]) || !isDigit(s[9]) {
		return false
	}
	year := int(s[0]-'0')*1000 + int(s[1]-'0')*100 + int(s[2]-'0')*10 + int(s[3]-'0')
	month := int(s[5]-'0')*10 + int(s[6]-'0')
	day := int(s[8]-'0')*10 + int(s[9]-'0')
	if month < 1 || month > 12 || day < 1 {
		return false
	}
	return day <= daysInMonth(month, year)
}

// DaysIn is the number of days of month (1-12) in year in the Gregorian
// calendar, as [IsDate] counts them.
func DaysIn(month, year int) int { return daysInMonth(month, year) }

func daysInMonth(month, year int) int {
	switch month {
	case 2:
		if year%4 == 0 && (year%100 != 0 || year%400 == 0) {
			return 29
		}
		return 28
	case 4, 6, 9, 11:
		return 30
	}
	return 31
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }
