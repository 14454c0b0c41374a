package callclient

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/huh"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// noAnswer is the value of an optional select's first option, "(no
// answer)": the property is left out of the content.
const noAnswer = "\x00"

// runForm asks one form-mode elicitation in the terminal: first the
// server's message with a choice of accept (fill in the form), decline or
// cancel; on accept, the fields in the schema's order, each checked as it is
// left (bounds, lengths, formats: field.check), so that what is sent is
// valid. Esc cancels; filter sees every message first (Ctrl-C: the
// caller's interruptKeys).
func runForm(ctx context.Context, in io.Reader, out io.Writer, message string, fields []field, filter teaFilter) (*mcp.ElicitResult, error) {
	action := "accept"
	first := huh.NewForm(huh.NewGroup(huh.NewSelect[string]().
		Title(message).
		Description("The server asks for "+fieldTitles(fields)+".").
		Value(&action).
		Options(
			huh.NewOption("Fill in the form (accept)", "accept"),
			huh.NewOption("Decline", "decline"),
			huh.NewOption("Cancel", "cancel"),
		)))
	if err := run(ctx, first, in, out, filter); err != nil || action != "accept" {
		if errors.Is(err, huh.ErrUserAborted) {
			return &mcp.ElicitResult{Action: "cancel"}, nil
		}
		return &mcp.ElicitResult{Action: action}, err
	}
	var inputs []huh.Field
	var collect []func(content map[string]any) error
	for _, f := range fields {
		in, get := fieldInput(f)
		inputs = append(inputs, in)
		collect = append(collect, get)
	}
	if err := run(ctx, huh.NewForm(huh.NewGroup(inputs...).Title(message)), in, out, filter); err != nil {
		if errors.Is(err, huh.ErrUserAborted) {
			return &mcp.ElicitResult{Action: "cancel"}, nil
		}
		return nil, err
	}
	content := map[string]any{}
	for _, get := range collect {
		if err := get(content); err != nil {
			return nil, err
		}
	}
	return &mcp.ElicitResult{Action: "accept", Content: content}, nil
}

// teaFilter sees each bubbletea message before the form does.
type teaFilter = func(tea.Model, tea.Msg) tea.Msg

// run shows a form; Esc leaves it (huh.ErrUserAborted: cancel). Ctrl-C is
// not huh's Quit: filter makes it an interrupt, which ends ctx.
func run(ctx context.Context, f *huh.Form, in io.Reader, out io.Writer, filter teaFilter) error {
	keys := huh.NewDefaultKeyMap()
	keys.Quit = key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "cancel"))
	return f.WithKeyMap(keys).WithProgramOptions(tea.WithReportFocus(), tea.WithFilter(filter)).
		WithInput(in).WithOutput(out).RunWithContext(ctx)
}

func fieldTitles(fields []field) string {
	s := ""
	for i, f := range fields {
		switch {
		case i == 0:
		case i == len(fields)-1:
			s += " and "
		default:
			s += ", "
		}
		s += f.Title
	}
	return s
}

// fieldInput makes the huh field for f, pre-filled with its default, and
// the function that writes its answer into the content (nothing for an
// optional field left empty).
func fieldInput(f field) (huh.Field, func(map[string]any) error) {
	title := f.Title
	if f.Required {
		title += " *"
	}
	switch f.Kind {
	case "select", "boolean":
		opts := f.Options
		if f.Kind == "boolean" {
			opts = []option{{"true", "Yes"}, {"false", "No"}}
		}
		value := noAnswer
		if f.Default != nil {
			value = fmt.Sprint(f.Default)
		} else if f.Required && len(opts) > 0 {
			value = opts[0].Value
		}
		var hopts []huh.Option[string]
		if !f.Required {
			hopts = append(hopts, huh.NewOption("(no answer)", noAnswer))
		}
		for _, o := range opts {
			hopts = append(hopts, huh.NewOption(o.Label, o.Value))
		}
		sel := huh.NewSelect[string]().Key(f.Name).Title(title).Description(f.Description).Value(&value).Options(hopts...)
		return sel, func(content map[string]any) error {
			switch {
			case value == noAnswer:
			case f.Kind == "boolean":
				content[f.Name] = value == "true"
			default:
				content[f.Name] = value
			}
			return nil
		}
	case "multi":
		var value []string
		if d, err := stringList(f.Default); err == nil {
			value = d
		}
		var hopts []huh.Option[string]
		for _, o := range f.Options {
			hopts = append(hopts, huh.NewOption(o.Label, o.Value))
		}
		ms := huh.NewMultiSelect[string]().Key(f.Name).Title(title).Description(f.Description).Value(&value).Options(hopts...).
			Validate(func(v []string) error {
				if len(v) == 0 && !f.Required {
					return nil
				}
				return f.check(v)
			})
		if f.MaxItems != nil {
			ms.Limit(*f.MaxItems)
		}
		return ms, func(content map[string]any) error {
			if len(value) > 0 || f.Required {
				content[f.Name] = value
			}
			return nil
		}
	}
	// string, number, integer
	var value string
	switch d := f.Default.(type) {
	case nil:
	case float64:
		value = strconv.FormatFloat(d, 'f', -1, 64)
	default:
		value = fmt.Sprint(d)
	}
	if clean(value) != value {
		value = "" // a default that would drive the terminal is not typed in for the user
	}
	desc := f.Description
	if hint, ok := formatHint[f.Format]; ok && f.Kind == "string" && !strings.Contains(desc, hint) {
		desc += " (" + hint + ")"
	}
	in := huh.NewInput().Key(f.Name).Title(title).Description(desc).Value(&value).
		Validate(func(s string) error { _, err := f.parseText(s); return err })
	return in, func(content map[string]any) error {
		v, err := f.parseText(value)
		if err != nil {
			return err
		}
		if v != nil {
			content[f.Name] = v
		}
		return nil
	}
}
