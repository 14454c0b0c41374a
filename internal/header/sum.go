package header

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
)

// SumPrefix starts the second line of every file mcpgen generates, right
// under the header line: the SHA-256 (hex) of what mcpgen wrote below that
// second line. A file whose content no longer has that sum was edited by
// hand since mcpgen wrote it ([HandEdited]): go generate says so when it
// overwrites it, and mcpgen-vet reports the edit as an edit rather than a
// changed struct. The header line (which names mcpgen's version) is left
// out of the sum, so two versions of mcpgen that write the same code write
// the same sum.
const SumPrefix = "// mcpgen content sha256:"

// Seal returns src, a generated file whose first line is the header, with
// the sum line ([SumPrefix]) of the rest inserted under its first line.
func Seal(src []byte) []byte {
	first, rest, _ := bytes.Cut(src, []byte("\n"))
	out := make([]byte, 0, len(src)+len(SumPrefix)+2*sha256.Size+2)
	out = append(out, first...)
	out = append(out, '\n')
	out = append(out, SumPrefix...)
	out = append(out, sum(rest)...)
	out = append(out, '\n')
	return append(out, rest...)
}

// HandEdited reports whether src, a file mcpgen generated ([IsGenerated]),
// was edited since mcpgen wrote it: its second line is a sum line
// ([SumPrefix], written by [Seal]) and the content below it no longer has
// that sum. A file without a sum line (written by an mcpgen before the sum,
// or not mcpgen's) is not known to be edited: false. Line endings are
// compared as LF, so a checkout that turned them into CRLF (git's autocrlf)
// is no edit.
func HandEdited(src []byte) bool {
	src = bytes.ReplaceAll(src, []byte("\r\n"), []byte("\n"))
	first, rest, ok := bytes.Cut(src, []byte("\n"))
	if !ok || !IsLine(string(first)) {
		return false
	}
	line, rest, ok := bytes.Cut(rest, []byte("\n"))
	want, isSum := bytes.CutPrefix(line, []byte(SumPrefix))
	if !ok || !isSum {
		return false
	}
	return string(want) != sum(rest)
}

func sum(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}
