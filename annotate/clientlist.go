package annotate

import (
	"fmt"
	"go/ast"
	"go/token"
	"strings"

	"github.com/mcpgen/mcpgen/clients"
)

// ClientList is a //mcpgen:clients directive, or the value of mcpgen's
// -clients flag: the clients the build-time client check
// (annotate/clientcheck) judges a struct's forms for. It is written
// "widely" (the clients of [clients.Widely]), "all" (every client of
// [clients.All]), "off" (or "none": no check), or client ids
// separated by commas or spaces ("vscode,codex"), which may be mixed with
// widely and all.
type ClientList struct {
	// Pos is the directive's position (the zero Position for a flag).
	Pos token.Position
	// Off: the check is off ("off" or "none").
	Off bool
	// Clients are the clients chosen, in the order of [clients.All], each once.
	Clients []*clients.Client
}

// ClientIDs returns the ids of every client of [clients.All], in order.
func ClientIDs() []string {
	ids := make([]string, 0, len(clients.All))
	for _, c := range clients.All {
		ids = append(ids, c.ID)
	}
	return ids
}

// clientWords are the words of a client list that name no client.
var clientWords = []string{"widely", "all", "off", "none"}

// ClientListError is an unknown word of a client list.
type ClientListError struct {
	Word    string // the unknown word
	Offset  int    // its byte offset in the list
	Nearest string // a known word or id it may misspell, or ""
}

// Error names the word, a near one, and every valid word.
func (e *ClientListError) Error() string {
	valid := strings.Join(append(ClientIDs(), clientWords...), ", ")
	if e.Nearest != "" {
		return fmt.Sprintf("unknown client %q; did you mean %s? (valid: %s)", e.Word, e.Nearest, valid)
	}
	return fmt.Sprintf("unknown client %q (valid: %s)", e.Word, valid)
}

// ParseClientList reads a client list (see [ClientList]). An empty list is
// an error, as are off or none beside other words; an unknown word is a
// *[ClientListError] naming the word and the valid ones.
func ParseClientList(list string) (ClientList, error) {
	var out ClientList
	chosen := map[*clients.Client]bool{}
	n := 0
	for i := 0; i < len(list); {
		if list[i] == ',' || list[i] == ' ' || list[i] == '\t' {
			i++
			continue
		}
		start := i
		for i < len(list) && list[i] != ',' && list[i] != ' ' && list[i] != '\t' {
			i++
		}
		word := list[start:i]
		n++
		switch word {
		case "off", "none":
			out.Off = true
		case "all":
			for _, c := range clients.All {
				chosen[c] = true
			}
		case "widely":
			for _, c := range clients.Widely() {
				chosen[c] = true
			}
		default:
			c := clients.ByID(word)
			if c == nil {
				return ClientList{}, &ClientListError{Word: word, Offset: start, Nearest: nearest(word, append(ClientIDs(), clientWords...))}
			}
			chosen[c] = true
		}
	}
	switch {
	case n == 0:
		return ClientList{}, fmt.Errorf("no client named: write client ids (valid: %s), or widely, all or off", strings.Join(ClientIDs(), ", "))
	case out.Off && n > 1:
		return ClientList{}, fmt.Errorf("off (or none) turns the check off and takes no other word")
	}
	for _, c := range clients.All {
		if chosen[c] {
			out.Clients = append(out.Clients, c)
		}
	}
	return out, nil
}

// clientsDirective reads //mcpgen:clients LIST from comment c, whose value
// is rest; nil, with the problem reported, when the list is wrong.
func (a *analyzer) clientsDirective(c *ast.Comment, rest string) *ClientList {
	list, err := ParseClientList(rest)
	if err == nil {
		list.Pos = a.fset.Position(c.Pos())
		return &list
	}
	if e, ok := err.(*ClientListError); ok && rest != "" {
		s := valueAt(c.Text, rest) + e.Offset
		var fixes []SuggestedFix
		if e.Nearest != "" {
			fixes = a.commentFix(c, "Replace with "+e.Nearest, s, s+len(e.Word), e.Nearest)
		}
		a.directiveError(c, fixes, "//mcpgen:clients: %v", err)
		return nil
	}
	a.directiveError(c, nil, "//mcpgen:clients: %v", err)
	return nil
}

// fileClients reads the //mcpgen:clients directive of a file's doc comment
// (the comment above its package clause), nil when it has none.
func (a *analyzer) fileClients(f *ast.File) *ClientList {
	if f == nil || f.Doc == nil {
		return nil
	}
	var out *ClientList
	for _, c := range f.Doc.List {
		if text, ok := strings.CutPrefix(c.Text, "//mcpgen:clients"); ok && (text == "" || text[0] == ' ' || text[0] == '\t') {
			out = a.clientsDirective(c, strings.TrimSpace(text))
		}
	}
	return out
}

// TagSpan returns where the build-time client check places a warning about
// option key of the field's elicit tag: that option as written, or, when the
// tag has no such option (or key is ""), the whole elicit value; the field
// when the source has no tag literal. End is the zero Position when only Pos
// is known.
func (f *Field) TagSpan(key string) (pos, end token.Position) {
	c := f.src
	if c == nil || !c.src.hasElicit() {
		return f.Pos, token.Position{}
	}
	if o, ok := f.opts[key]; ok && key != "" {
		s, e := c.optionSpan(o)
		return c.at(s), c.at(e)
	}
	return c.at(0), c.at(len(c.elicit))
}

// RemoveOptionFix is the suggested fix that removes option key (and its
// comma) from the field's elicit tag, with message msg; nil when the tag
// has no such option or the edit cannot be placed exactly.
func (f *Field) RemoveOptionFix(key, msg string) []SuggestedFix {
	c := f.src
	o, ok := f.opts[key]
	if c == nil || !ok {
		return nil
	}
	s, e := o.Offset, o.End
	switch {
	case e < len(c.elicit):
		e++ // and its comma
	case s > 0:
		s-- // and the comma before it
	}
	return c.fix(msg, s, e, "")
}
