package callclient

import (
	"context"
	"fmt"
	"net/url"
	"os/exec"

	"github.com/charmbracelet/huh"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// elicitURL answers a URL-mode elicitation (MCP 2026-07-28
// client/elicitation, "URL mode"): it shows the message, the page's host
// and its full URL, each on its own line, so that the user sees where the
// link leads before opening it; then it waits for the user to finish there
// (accept), or to decline or cancel. Scripted: the next answer if one is
// left, else accept, after -open-cmd has run with the URL.
func (c *caller) elicitURL(ctx context.Context, p *mcp.ElicitParams) (*mcp.ElicitResult, error) {
	u, err := url.Parse(p.URL)
	if err != nil || u.Host == "" {
		return nil, c.fail(fmt.Errorf("URL elicitation %s: %q is not an absolute URL", p.ElicitationID, p.URL))
	}
	fmt.Fprintf(c.stderr, "%s\nOpen this page in your browser (host: %s):\n%s\n", clean(p.Message), clean(u.Host), clean(p.URL))
	if c.scripted {
		if len(c.openCmd) > 0 {
			cmd := exec.CommandContext(ctx, c.openCmd[0], append(c.openCmd[1:], p.URL)...)
			cmd.Stdout, cmd.Stderr = c.stderr, c.stderr
			if err := cmd.Run(); err != nil {
				return nil, c.fail(fmt.Errorf("-open-cmd %s: %v", c.openCmd[0], err))
			}
		}
		a, ok := c.next()
		if !ok {
			a.Action = "accept"
		}
		return &mcp.ElicitResult{Action: a.Action}, nil
	}
	if !isTerminal(c.stdin) {
		return nil, c.fail(fmt.Errorf("the server asks you to open a page and stdin is not a terminal: give -answers, -accept, -decline, -cancel or -open-cmd"))
	}
	action := "accept"
	form := huh.NewForm(huh.NewGroup(huh.NewSelect[string]().
		Title("When you have finished on the page:").
		Value(&action).
		Options(
			huh.NewOption("Done (accept)", "accept"),
			huh.NewOption("Decline", "decline"),
			huh.NewOption("Cancel", "cancel"),
		))).WithShowHelp(false)
	ctx, stop := c.within(ctx)
	defer stop()
	defer c.showing(p.Message)()
	if err := run(ctx, form, c.stdin, c.stderr, c.interruptKeys); err != nil {
		if err == huh.ErrUserAborted {
			return &mcp.ElicitResult{Action: "cancel"}, nil
		}
		return nil, c.fail(err)
	}
	return &mcp.ElicitResult{Action: action}, nil
}
