package callclient

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"

	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/huh"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// noAnswer is the value of an optional select's first option, "(no
// answer)": the property is left out of the content.
const noAnswer = "\x00"

// runForm asks one form-mode elicitation in the terminal: the server's
// message over the fields in the schema's order, each showing its bounds,
// format and default (field.hint) and checked as it is left (field.check),
// so that what is sent is valid. Submitting the last field accepts; the
// help line under the form shows the other answers: Ctrl-D declines, Esc
// cancels (and Shift-Tab goes back a field). filter sees every message
// first (Ctrl-C: the caller's interruptKeys).
func runForm(ctx context.Context, in io.Reader, out io.Writer, message string, fields []field, filter teaFilter) (*mcp.ElicitResult, error) {
	var inputs []huh.Field
	var collect []func(content map[string]any) error
	for _, f := range fields {
		in, get := fieldInput(f)
		inputs = append(inputs, in)
		collect = append(collect, get)
	}
	if len(inputs) == 0 { // a form that only asks to confirm
		inputs = append(inputs, huh.NewNote().Description("(nothing to fill in)"))
	}
	action, err := run(ctx, huh.NewForm(huh.NewGroup(inputs...).Title(message)), true, in, out, filter)
	if err != nil || action != "accept" {
		return &mcp.ElicitResult{Action: action}, err
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

// Keys of a form besides huh's own (shown in the help line, screen.View).
var (
	declineKey = key.NewBinding(key.WithKeys("ctrl+d"), key.WithHelp("ctrl+d", "decline"))
	cancelKey  = key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "cancel"))
)

// run shows a form and returns the answer: "accept" when it is submitted,
// "decline" on Ctrl-D (when decline is true), "cancel" on Esc. Ctrl-C is
// not huh's Quit: filter makes it an interrupt, which ends ctx (an error).
func run(ctx context.Context, f *huh.Form, decline bool, in io.Reader, out io.Writer, filter teaFilter) (string, error) {
	keys := huh.NewDefaultKeyMap()
	keys.Quit = cancelKey
	keys.Input.Submit.SetHelp("enter", "submit (accept)")
	keys.Select.Submit.SetHelp("enter", "submit (accept)")
	keys.MultiSelect.Submit.SetHelp("enter", "submit (accept)")
	f = f.WithKeyMap(keys).WithShowHelp(false)
	f.SubmitCmd, f.CancelCmd = tea.Quit, tea.Quit
	s := &screen{form: f, decline: decline, help: help.New()}
	_, err := tea.NewProgram(s, tea.WithContext(ctx), tea.WithInput(in), tea.WithOutput(out),
		tea.WithReportFocus(), tea.WithFilter(filter)).Run()
	switch {
	case s.declined:
		return "decline", nil
	case f.State == huh.StateAborted:
		return "cancel", nil
	case err != nil:
		return "", err
	case f.State != huh.StateCompleted:
		return "", errors.New("the form ended unanswered")
	}
	return "accept", nil
}

// screen is a huh form with its help line: the focused field's own keys
// (huh's), then decline (if offered) and cancel.
type screen struct {
	form     *huh.Form
	decline  bool
	declined bool
	help     help.Model
}

func (s *screen) Init() tea.Cmd { return s.form.Init() }

func (s *screen) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if k, ok := msg.(tea.KeyMsg); ok && s.decline && key.Matches(k, declineKey) {
		s.declined = true
		return s, tea.Quit
	}
	if w, ok := msg.(tea.WindowSizeMsg); ok {
		s.help.Width = w.Width
	}
	m, cmd := s.form.Update(msg)
	s.form = m.(*huh.Form)
	return s, cmd
}

func (s *screen) View() string {
	if s.declined || s.form.State != huh.StateNormal {
		return ""
	}
	var keys []key.Binding
	if f := s.form.GetFocusedField(); f != nil {
		keys = f.KeyBinds()
	}
	if s.decline {
		keys = append(keys, declineKey)
	}
	keys = append(keys, cancelKey)
	return s.form.View() + "\n" + s.help.ShortHelpView(keys) + "\n"
}

// describe is the field's description, then on a line of its own what
// the field takes (hint), so that its rules are seen before broken.
func (f field) describe() string {
	h := f.hint()
	switch {
	case h == "":
		return f.Description
	case f.Description == "":
		return h
	}
	return f.Description + "\n" + h
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
		sel := huh.NewSelect[string]().Key(f.Name).Title(title).Description(f.describe()).Value(&value).Options(hopts...)
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
		ms := huh.NewMultiSelect[string]().Key(f.Name).Title(title).Description(f.describe()).Value(&value).Options(hopts...).
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
	in := huh.NewInput().Key(f.Name).Title(title).Description(f.describe()).Value(&value).
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
