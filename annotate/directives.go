package annotate

import (
	"fmt"
	"go/ast"
	"go/token"
	"strconv"
	"strings"
)

// directives reads //mcpgen: lines from the struct's doc comment.
func (a *analyzer) directives(s *Struct, doc *ast.CommentGroup) {
	if doc == nil {
		return
	}
	for _, c := range doc.List {
		text, ok := strings.CutPrefix(c.Text, "//mcpgen:")
		if !ok {
			continue
		}
		p := a.fset.Position(c.Pos())
		verb, rest, _ := strings.Cut(text, " ")
		rest = strings.TrimSpace(rest)
		if toolOnly[verb] && questionDirective(doc) {
			a.errorf(p, "//mcpgen:%s applies to a tool's arguments, not to a //mcpgen:question (a question is asked with runtime.Ask under the name the branch gives it)", verb)
			continue
		}
		switch verb {
		case "question":
			switch {
			case rest == "url":
				s.URLMode = true
			case rest != "" && nearest(rest, []string{"url"}) != "":
				a.directiveError(c, a.commentFix(c, "Replace with //mcpgen:question url", valueAt(c.Text, rest), valueAt(c.Text, rest)+len(rest), "url"),
					"//mcpgen:question takes no value, or url for a URL-mode question (got %q); did you mean //mcpgen:question url?", rest)
			case rest != "":
				a.directiveError(c, a.dropValue(c, verb), "//mcpgen:question takes no value, or url for a URL-mode question (got %q); "+
					"its message is //mcpgen:message or runtime.AskOptions.Message", rest)
			}
			s.Question = true
		case "message":
			if rest == "" {
				a.errorf(p, "//mcpgen:message needs the message text")
			}
			s.Message = rest
		case "tool":
			name, desc, _ := strings.Cut(rest, " ")
			if !validToolName(name) {
				a.errorf(p, "//mcpgen:tool needs a tool name of letters, digits, '_', '-' or '.' (got %q)", name)
			}
			s.Tool, s.ToolDescription = name, strings.TrimSpace(desc)
		case "key":
			if !validToolName(rest) {
				a.errorf(p, "//mcpgen:key needs a key of letters, digits, '_', '-' or '.' (got %q)", rest)
			}
			s.Key = rest
		case "unsealed":
			s.Unsealed = true
		case "enumnames":
			if rest != "" {
				a.directiveError(c, a.dropValue(c, verb), "//mcpgen:enumnames takes no value (got %q)", rest)
			}
			s.LegacyEnumNames = true
		case "clients":
			s.Clients = a.clientsDirective(c, rest)
		case "rounds":
			n, err := strconv.Atoi(rest)
			if err != nil || n < 1 || n > 10 {
				a.errorf(p, "//mcpgen:rounds needs a whole number from 1 to 10 (got %q)", rest)
			}
			s.MaxRounds = n
		default:
			if near := nearest(verb, directiveVerbs); near != "" {
				a.directiveError(c, a.commentFix(c, "Replace with //mcpgen:"+near, len("//mcpgen:"), len("//mcpgen:")+len(verb), near),
					"unknown directive //mcpgen:%s; did you mean //mcpgen:%s?", verb, near)
				break
			}
			a.errorf(p, "unknown directive //mcpgen:%s; known: %s", verb, strings.Join(directiveVerbs, ", "))
		}
	}
}

// directiveVerbs are the //mcpgen: directives [analyzer.directives] reads.
var directiveVerbs = []string{"message", "tool", "key", "unsealed", "rounds", "enumnames", "question", "clients"}

// valueAt is the byte offset of a directive's value, rest, in its comment's
// text (after the verb and its spaces).
func valueAt(text, rest string) int {
	verbEnd := strings.IndexByte(text, ' ')
	return verbEnd + strings.Index(text[verbEnd:], rest)
}

// directiveError reports a problem with directive c, the whole comment.
func (a *analyzer) directiveError(c *ast.Comment, fixes []SuggestedFix, format string, args ...any) {
	a.diags = append(a.diags, Diagnostic{Pos: a.fset.Position(c.Pos()), End: a.fset.Position(c.End()), Message: fmt.Sprintf(format, args...), SuggestedFixes: fixes})
}

// dropValue is the fix that removes the value of directive c (//mcpgen:verb
// value), which takes none.
func (a *analyzer) dropValue(c *ast.Comment, verb string) []SuggestedFix {
	return a.commentFix(c, "Remove the value", len("//mcpgen:")+len(verb), len(c.Text), "")
}

// commentFix is the fix that replaces bytes [s, e) of comment c with
// text; nil when the comment's text is not its source (a carriage return
// dropped by the scanner).
func (a *analyzer) commentFix(c *ast.Comment, msg string, s, e int, text string) []SuggestedFix {
	if int(c.End()-c.Pos()) != len(c.Text) {
		return nil
	}
	return []SuggestedFix{{Message: msg, Edits: []TextEdit{{Pos: a.fset.Position(c.Pos() + token.Pos(s)), End: a.fset.Position(c.Pos() + token.Pos(e)), NewText: text}}}}
}

// toolOnly are the directives that configure a tool, not a question.
var toolOnly = map[string]bool{"tool": true, "key": true, "unsealed": true, "rounds": true}

// questionDirective reports whether a doc comment has //mcpgen:question.
func questionDirective(doc *ast.CommentGroup) bool {
	for _, c := range doc.List {
		if c.Text == "//mcpgen:question" || strings.HasPrefix(c.Text, "//mcpgen:question ") {
			return true
		}
	}
	return false
}

func validToolName(s string) bool {
	if s == "" || len(s) > 128 {
		return false
	}
	for _, r := range s {
		if !(r == '_' || r == '-' || r == '.' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') {
			return false
		}
	}
	return true
}

// defaultToolName is snake_case of the type name without an Args, Input,
// Params or Arguments suffix: BookFlightArgs → book_flight.
func defaultToolName(name string) string {
	for _, suf := range []string{"Arguments", "Args", "Input", "Params"} {
		if t, ok := strings.CutSuffix(name, suf); ok && t != "" {
			name = t
			break
		}
	}
	words := splitWords(name)
	for i := range words {
		words[i] = strings.ToLower(words[i])
	}
	return strings.Join(words, "_")
}
