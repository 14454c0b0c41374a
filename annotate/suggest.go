package annotate

import (
	"strings"
)

// nearest returns the word of known closest to s by edit distance (letter
// case ignored), if it is close enough to be a credible misspelling: at most two edits, or three for a word of seven letters or
// more, and fewer edits than half the letters of the shorter word, so that
// a word of one or two letters (x, ok) or one sharing little with every
// known word suggests nothing. It names the option meant by an unknown
// option (minLenght → minLength) and the format meant by an unknown format
// (emial → email).
func nearest(s string, known []string) string {
	best, bestD := "", 1<<30
	for _, k := range known {
		d := editDistance(strings.ToLower(s), strings.ToLower(k))
		if d < bestD {
			best, bestD = k, d
		}
	}
	if 2*bestD >= min(len(s), len(best)) {
		return ""
	}
	if bestD <= 2 || (bestD <= 3 && len(s) >= 7) {
		return best
	}
	return ""
}

// Nearest returns the word of known that s most likely misspells, or "" when
// none is close enough: the did-you-mean of option and format names, for
// the command's subcommands.
func Nearest(s string, known []string) string { return nearest(s, known) }

// editDistance is the optimal string alignment distance between a and b,
// in bytes: Levenshtein's insertions, deletions and substitutions, and a
// swap of two adjacent letters as one edit (aks → ask, emial → email).
func editDistance(a, b string) int {
	d := make([][]int, len(a)+1)
	for i := range d {
		d[i] = make([]int, len(b)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(a); i++ {
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(a)][len(b)]
}
