package format

// isHostname mirrors the validator's "hostname" format: one trailing dot is
// dropped, at most 253 bytes remain, and each dot-separated label has 1-63
// ASCII letters, digits or hyphens and neither starts nor ends with '-'.
func isHostname(s string) bool {
	if len(s) > 0 && s[len(s)-1] == '.' {
		s = s[:len(s)-1]
	}
	if len(s) > 253 {
		return false
	}
	start := 0
	for i := 0; i <= len(s); i++ {
		if i < len(s) && s[i] != '.' {
			c := s[i]
			if !hostnameSet[c] {
				return false
			}
			continue
		}
		label := s[start:i]
		if len(label) < 1 || len(label) > 63 || label[0] == '-' || label[len(label)-1] == '-' {
			return false
		}
		start = i + 1
	}
	return true
}
