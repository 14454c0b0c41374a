package clients

// Chrome is what a client draws around a form's fields, which no [Cell]
// says: the names of its buttons and where the form appears. `mcpgen
// preview` draws each client's column with it; the cells decide which
// buttons and fields there are, Chrome only how they are called.
type Chrome struct {
	// Accept, Decline and Cancel name the buttons that send each action
	// (MCP 2026-07-28, client/elicitation, ElicitResult.action).
	Accept, Decline, Cancel string
	// Dismiss names the one button that ends a form without an answer in a
	// client that does not tell decline from cancel ([DeclineCancel] not
	// [Renders]).
	Dismiss string
	// Approve and Deny name the buttons of the yes/no box a client shows
	// instead of a form it cannot render (a [Cell] with WholeForm).
	Approve, Deny string
	// Layout says where the form appears: "dialog", "chat panel",
	// "terminal", "side panel".
	Layout string
	// Source is where the names come from, when not the specification's.
	Source Source
}

// SpecChrome is the chrome of a client the table says nothing about: the
// specification's names of the actions, in a dialog.
var SpecChrome = Chrome{Accept: "Accept", Decline: "Decline", Cancel: "Cancel", Dismiss: "Cancel",
	Approve: "Yes", Deny: "No", Layout: "dialog"}

// Chromes is each client's chrome by [Client.ID]; a client missing here
// has [SpecChrome].
var Chromes = map[string]Chrome{}

// Chrome returns c's chrome: its entry in [Chromes], each name it leaves
// empty taken from [SpecChrome].
func (c *Client) Chrome() Chrome {
	ch, ok := Chromes[c.ID]
	if !ok {
		return SpecChrome
	}
	fill := func(s *string, d string) {
		if *s == "" {
			*s = d
		}
	}
	fill(&ch.Accept, SpecChrome.Accept)
	fill(&ch.Decline, SpecChrome.Decline)
	fill(&ch.Cancel, SpecChrome.Cancel)
	fill(&ch.Dismiss, SpecChrome.Dismiss)
	fill(&ch.Approve, SpecChrome.Approve)
	fill(&ch.Deny, SpecChrome.Deny)
	fill(&ch.Layout, SpecChrome.Layout)
	return ch
}
