package callclient

import (
	"context"
	"fmt"
	"net/url"
	"os/exec"
	"time"

	"github.com/charmbracelet/huh"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// elicitURL answers a URL-mode elicitation (MCP 2026-07-28
// client/elicitation, "URL mode"): it shows the message, the page's host
// and its full URL, each on its own line, so that the user sees where the
// link leads before opening it; then it waits for the user to finish there
// (accept), or to decline or cancel. Scripted: the next answer if one is
// left, else accept, after -open-cmd has run with the URL.
//
// Only an absolute http or https URL with a host is shown or opened
// (pageURL), and at most MaxURLOpens pages in one call; anything else ends
// the call with an error naming what the server sent. A page asked again
// (the same elicitationId and URL: the server still waits for it) is not
// a new page: -open-cmd does not run again.
func (c *caller) elicitURL(ctx context.Context, p *mcp.ElicitParams) (*mcp.ElicitResult, error) {
	u, err := pageURL(p.URL)
	if err != nil {
		return nil, c.fail(fmt.Errorf("URL elicitation %s: %v", clean(p.ElicitationID), err))
	}
	again, err := c.newPage(p.ElicitationID, p.URL)
	if err != nil {
		return nil, c.fail(err)
	}
	if !c.scripted {
		if !isTerminal(c.stdin) {
			return nil, c.fail(fmt.Errorf("the server asks you to open a page and stdin is not a terminal: give -answers, -accept, -decline, -cancel or -open-cmd"))
		}
		defer c.clock.pause()()
		c.terminal.Lock()
		defer c.terminal.Unlock()
	}
	if again {
		fmt.Fprintf(c.stderr, "%s\nThe server still waits for this page (host: %s):\n%s\n", clean(p.Message), clean(u.Host), clean(p.URL))
	} else {
		fmt.Fprintf(c.stderr, "%s\nOpen this page in your browser (host: %s):\n%s\n", clean(p.Message), clean(u.Host), clean(p.URL))
	}
	if c.scripted {
		if len(c.openCmd) > 0 && !again {
			ctx, stop := c.within(ctx) // -timeout and Ctrl-C end it
			defer stop()
			cmd := exec.CommandContext(ctx, c.openCmd[0], append(c.openCmd[1:], p.URL)...)
			cmd.Stdout, cmd.Stderr = c.stderr, c.stderr
			cmd.WaitDelay = time.Second // a child it left holding the output
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
	action := "accept"
	form := huh.NewForm(huh.NewGroup(huh.NewSelect[string]().
		Title("When you have finished on the page:").
		Value(&action).
		Options(
			huh.NewOption("Done (accept)", "accept"),
			huh.NewOption("Decline", "decline"),
			huh.NewOption("Cancel", "cancel"),
		)))
	ctx, stop := c.within(ctx)
	defer stop()
	defer c.showing(p.Message)()
	answer, err := run(ctx, form, false, c.stdin, c.stderr, c.interruptKeys)
	if err != nil {
		return nil, c.fail(err)
	}
	if answer == "accept" {
		answer = action
	}
	return &mcp.ElicitResult{Action: answer}, nil
}

// newPage notes a page the server asks to open: again when it was asked
// before in this call, an error when it is one more than MaxURLOpens.
func (c *caller) newPage(id, link string) (again bool, err error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	key := id + "\x00" + link
	if c.pages[key] {
		return true, nil
	}
	if len(c.pages) == MaxURLOpens {
		return false, &limitError{Limit: "MaxURLOpens",
			What: fmt.Sprintf("the server asked to open page %d in this call (%s); mcpgen-call opens at most %d", MaxURLOpens+1, clean(link), MaxURLOpens)}
	}
	if c.pages == nil {
		c.pages = map[string]bool{}
	}
	c.pages[key] = true
	return false, nil
}

// pageURL is a URL-mode elicitation's url if it is one to open: absolute,
// http or https, with a host. The page is the server's web page (MCP
// 2026-07-28 client/elicitation, "URL mode"); any other scheme could run
// or read something on this machine when opened (javascript:, file:,
// data:, smb:), and a scheme-relative //host has no scheme at all.
func pageURL(s string) (*url.URL, error) {
	u, err := url.Parse(s)
	if err != nil {
		return nil, fmt.Errorf("%q is not a URL: %v", clean(s), err)
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		what := "scheme " + u.Scheme + ":"
		if u.Scheme == "" {
			what = "no scheme"
		}
		return nil, fmt.Errorf("%q has %s; mcpgen-call opens only http and https URLs", clean(s), clean(what))
	}
	if u.Host == "" || u.Hostname() == "" {
		return nil, fmt.Errorf("%q has no host; mcpgen-call opens only absolute http and https URLs", clean(s))
	}
	return u, nil
}
