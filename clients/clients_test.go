package clients_test

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpgen/mcpgen/clients"
)

// Well-formed sources: an issue or pull-request thread, or a file at a commit
// (7 to 40 hex digits) or at a version tag, with optional line anchors.
var (
	threadRE = regexp.MustCompile(`^https://github\.com/[A-Za-z0-9-]+/[A-Za-z0-9._-]+/(issues|pull)/[1-9][0-9]*$`)
	blobRE   = regexp.MustCompile(`^https://github\.com/[A-Za-z0-9-]+/[A-Za-z0-9._-]+/blob/` +
		`([0-9a-f]{7,40}|v?[0-9]+\.[0-9]+\.[0-9]+(-[0-9A-Za-z.]+)?)` +
		`/[^#\s]+(#L[1-9][0-9]*(-L[1-9][0-9]*)?)?$`)
	idRE      = regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)
	versionRE = regexp.MustCompile(`^[0-9]{4}-[0-9]{2}-[0-9]{2}$`)
)

// wellFormed reports whether s is a source the table may cite.
func wellFormed(s clients.Source) bool {
	return threadRE.MatchString(string(s)) || blobRE.MatchString(string(s))
}

func TestWellFormedSource(t *testing.T) {
	good := []clients.Source{
		"https://github.com/openai/codex/issues/29344",
		"https://github.com/laravel/mcp/pull/190",
		"https://github.com/modelcontextprotocol/go-sdk/blob/v1.8.0/mcp/client.go#L287-L297",
		"https://github.com/modelcontextprotocol/typescript-sdk/blob/1.23.0/src/types.ts#L4",
		"https://github.com/openai/codex/blob/073480b/codex-rs/tui/src/lib.rs",
		"https://github.com/microsoft/vscode/blob/c8898a244f6ff86601eae92349e47b7cb4a6bfbd/src/a.ts",
	}
	bad := []clients.Source{
		"",
		"https://github.com/openai/codex",
		"https://github.com/openai/codex/issues/",
		"https://github.com/openai/codex/issues/0",
		"https://github.com/openai/codex/blob/main/README.md",
		"https://github.com/openai/codex/blob/abc12/README.md",
		"https://github.com/openai/codex/blob/073480b/",
		"https://github.com/openai/codex/blob/073480b/a.rs#L0",
		"http://github.com/openai/codex/issues/1",
		"https://example.com/openai/codex/issues/1",
		"https://canimcp.dev/client/cursor-vscode",
	}
	for _, s := range good {
		assert.True(t, wellFormed(s), "%s should be well formed", s)
	}
	for _, s := range bad {
		assert.False(t, wellFormed(s), "%q should not be well formed", s)
	}
}

func TestClientsHaveIdentity(t *testing.T) {
	require.NotEmpty(t, clients.All)
	seen := map[string]bool{}
	for _, c := range clients.All {
		require.NotNil(t, c)
		assert.Regexp(t, idRE, c.ID, "ID of %q: lower case, words joined by -", c.Name)
		assert.False(t, seen[c.ID], "ID %q used twice", c.ID)
		seen[c.ID] = true
		assert.NotEmpty(t, c.Name, "%s: Name", c.ID)
		assert.NotEmpty(t, c.Version, "%s: Version", c.ID)
		assert.Contains(t, []clients.Kind{"", clients.App, clients.Library}, c.Kind, "%s: Kind", c.ID)
	}
}

// eachCell calls f with every cell of c, named for messages.
func eachCell(c *clients.Client, f func(name string, cell clients.Cell)) {
	f("form", c.Form)
	f("url", c.URL)
	for _, ft := range clients.Features {
		if cell, ok := c.Features[ft]; ok {
			f(string(ft), cell)
		}
	}
}

func TestCellsAreSourced(t *testing.T) {
	for _, c := range clients.All {
		eachCell(c, func(name string, cell clients.Cell) {
			where := fmt.Sprintf("%s %s", c.ID, name)
			switch cell.Support {
			case clients.Unknown:
				assert.Equal(t, clients.Cell{}, cell, "%s: an Unknown cell carries nothing (omit it)", where)
				return
			case clients.Renders, clients.Degrades, clients.Breaks:
			default:
				t.Errorf("%s: support %d is not one of the four", where, cell.Support)
			}
			assert.True(t, wellFormed(cell.Source), "%s: source %q is not an issue/PR or a file at a commit or tag", where, cell.Source)
			if cell.Support != clients.Renders {
				assert.NotEmpty(t, cell.How, "%s: a %s cell says how", where, cell.Support)
			}
			if cell.WholeForm {
				assert.Equal(t, clients.Breaks, cell.Support, "%s: only a Breaks cell loses the whole form", where)
			}
		})
		for f, cell := range c.Features {
			assert.NotEqual(t, clients.Unknown, cell.Support, "%s %s: leave an Unknown feature out of the map", c.ID, f)
		}
	}
}

func TestProtocolsAndLooks(t *testing.T) {
	for _, c := range clients.All {
		if len(c.Protocols) > 0 {
			assert.True(t, wellFormed(c.ProtocolsSource), "%s: ProtocolsSource %q", c.ID, c.ProtocolsSource)
			for _, v := range c.Protocols {
				assert.Regexp(t, versionRE, v, "%s: protocol version", c.ID)
			}
			assert.True(t, slices.IsSortedFunc(c.Protocols, func(a, b string) int { return strings.Compare(b, a) }),
				"%s: Protocols newest first: %v", c.ID, c.Protocols)
			assert.Equal(t, len(c.Protocols), len(unique(c.Protocols)), "%s: a protocol listed twice", c.ID)
		} else {
			assert.Empty(t, c.ProtocolsSource, "%s: a ProtocolsSource without Protocols", c.ID)
			assert.Empty(t, c.ProtocolsHow, "%s: a ProtocolsHow without Protocols", c.ID)
		}
		if c.Look != nil {
			assert.True(t, wellFormed(c.Look.Source), "%s: Look.Source %q", c.ID, c.Look.Source)
			assert.NotEmpty(t, c.Look.Layout, "%s: Look.Layout", c.ID)
			for _, l := range []clients.LabelFrom{c.Look.FieldLabel, c.Look.OptionLabel} {
				assert.Contains(t, []clients.LabelFrom{"", clients.LabelTitle, clients.LabelKey, clients.LabelConst}, l, "%s: label", c.ID)
			}
			for _, b := range c.Look.Buttons {
				assert.NotEmpty(t, b.Label, "%s: button label", c.ID)
				assert.Contains(t, []clients.Action{clients.ActionAccept, clients.ActionDecline, clients.ActionCancel}, b.Action, "%s: button %q", c.ID, b.Label)
			}
		}
		for _, n := range c.Notes {
			assert.NotEmpty(t, n, "%s: empty note", c.ID)
		}
	}
}

// unique returns s without repeats.
func unique(s []string) []string {
	m := map[string]bool{}
	var out []string
	for _, v := range s {
		if !m[v] {
			m[v] = true
			out = append(out, v)
		}
	}
	return out
}

// A client that declares no form elicitation gets the fallback; feature
// cells for it would be about a form it never shows.
func TestNoElicitationClientsHaveNoFeatureCells(t *testing.T) {
	var none int
	for _, c := range clients.All {
		if c.Form.Support == clients.Breaks {
			none++
			assert.False(t, c.Elicits(), c.ID)
			assert.Empty(t, c.Features, "%s declares no elicitation but has feature cells", c.ID)
		} else {
			assert.True(t, c.Elicits(), c.ID)
		}
	}
	assert.GreaterOrEqual(t, none, 3, "the table lists the clients with no elicitation")
}

// The widely used clients the check cares about by default.
var widelyIDs = []string{"claude-code", "vscode", "cursor", "codex", "inspector-web", "goose-desktop", "ts-sdk-v1"}

func TestWidely(t *testing.T) {
	for _, id := range widelyIDs {
		c := clients.ByID(id)
		if assert.NotNil(t, c, "%s is in the table", id) {
			assert.True(t, c.Widely, "%s is widely used", id)
		}
	}
	var want []*clients.Client
	for _, c := range clients.All {
		if c.Widely {
			want = append(want, c)
		}
	}
	assert.Equal(t, want, clients.Widely(), "Widely returns the Widely clients in table order")
	for _, c := range clients.Widely() {
		assert.True(t, c.Widely)
	}
}

func TestByID(t *testing.T) {
	for _, c := range clients.All {
		assert.Same(t, c, clients.ByID(c.ID))
	}
	assert.Nil(t, clients.ByID("no-such-client"))
	assert.Nil(t, clients.ByID(""))
	assert.Nil(t, clients.ByID("VSCODE"), "IDs are matched exactly")
}

func TestFeaturesCoverTheData(t *testing.T) {
	listed := map[clients.Feature]bool{}
	for _, f := range clients.Features {
		assert.False(t, listed[f], "%s listed twice in Features", f)
		listed[f] = true
	}
	for _, c := range clients.All {
		for f := range c.Features {
			assert.True(t, listed[f], "%s uses feature %q, which Features does not list", c.ID, f)
		}
	}
}

func TestCellAndString(t *testing.T) {
	c := clients.ByID("codex")
	require.NotNil(t, c)
	assert.Equal(t, clients.Breaks, c.Cell(clients.Number).Support)
	assert.True(t, c.Cell(clients.Number).WholeForm)
	assert.Equal(t, clients.Unknown, (&clients.Client{}).Cell(clients.Number).Support)
	assert.Equal(t, clients.Unknown, clients.ByID("cursor").Cell(clients.Pattern).Support)
	for s, want := range map[clients.Support]string{
		clients.Unknown: "unknown", clients.Renders: "renders", clients.Degrades: "degrades", clients.Breaks: "breaks", 42: "unknown",
	} {
		assert.Equal(t, want, s.String())
	}
}
