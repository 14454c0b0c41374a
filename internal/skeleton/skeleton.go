// Package skeleton holds the text of the user's handler code that two parts
// of mcpgen write: gen, in the handler file it writes once (t_handler.go),
// and annotate, in the stub a suggested fix adds to a handler that lacks a
// method (a <Field>Choices added with a choices field after that file was
// written). One text, so that both say the same. It is a leaf: gen calls no
// function of annotate, and annotate cannot import gen.
package skeleton

import (
	"fmt"
	"strings"
)

// DocColumns is the width of a written doc comment, "// " included.
const DocColumns = 100

// ChoicesDoc is the doc comment text (without "// ") of a tool's
// <Field>Choices method: method lists the options of the field whose JSON
// name is jsonName; rt is the name the file imports mcpgen's runtime under.
func ChoicesDoc(method, jsonName, rt string) string {
	return fmt.Sprintf("%s lists the options of %s for this caller (elicit:\"choices\"): for example the caller's own "+
		"accounts (%s.Principal(ctx) says who is calling). Give each a Title for a titled select. It runs on "+
		"every request of the call; an answer counts only if it is among the options of the request it arrives in. "+
		"With one option a required field takes it without asking; with none the call ends in a tool error.", method, jsonName, rt)
}

// Fill breaks text into lines of at most width bytes at spaces (a longer
// word stands alone).
func Fill(text string, width int) []string {
	var lines []string
	line := ""
	for _, w := range strings.Fields(text) {
		switch {
		case line == "":
			line = w
		case len(line)+1+len(w) <= width:
			line += " " + w
		default:
			lines = append(lines, line)
			line = w
		}
	}
	return append(lines, line)
}
