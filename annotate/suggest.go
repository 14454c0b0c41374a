package annotate

import (
	"strings"
)

// nearest returns the word of known closest to s by Levenshtein edit
// distance (letter case ignored), if it is close enough to be a likely
// misspelling: two edits, or three for a word of seven letters or more.
// It names the option meant by an unknown option (minLenght → minLength)
// and the format meant by an unknown format (emial → email).
func nearest(s string, known []string) string {
	best, bestD := "", 1<<30
	for _, k := range known {
		d := editDistance(strings.ToLower(s), strings.ToLower(k))
		if d < bestD {
			best, bestD = k, d
		}
	}
	if bestD <= 2 || (bestD <= 3 && len(s) >= 7) {
		return best
	}
	return ""
}

// editDistance is the Levenshtein distance between a and b, in bytes.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
