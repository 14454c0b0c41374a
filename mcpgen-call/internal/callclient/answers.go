package callclient

import (
	"encoding/json"
	"fmt"
	"os"
)

// An Answer is one non-interactive reply to an elicitation/create: Action
// is "accept", "decline" or "cancel" (MCP 2026-07-28 client/elicitation,
// "Response actions"); Content, with accept, is the form's values by
// property name. In an answers file an answer is that object, or the bare
// action as a string ("decline").
type Answer struct {
	Action  string         `json:"action"`
	Content map[string]any `json:"content,omitempty"`
}

// UnmarshalJSON reads an answer as an object or as a bare action string,
// and refuses an unknown action.
func (a *Answer) UnmarshalJSON(b []byte) error {
	var action string
	if json.Unmarshal(b, &action) == nil {
		a.Action = action
	} else {
		type plain Answer
		if err := json.Unmarshal(b, (*plain)(a)); err != nil {
			return err
		}
	}
	switch a.Action {
	case "accept", "decline", "cancel":
	default:
		return fmt.Errorf("action %q: want accept, decline or cancel", a.Action)
	}
	if a.Action != "accept" && a.Content != nil {
		return fmt.Errorf("a %s answer has no content", a.Action)
	}
	return nil
}

// readAnswers reads an answers file: a JSON list of answers.
func readAnswers(path string) ([]Answer, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var answers []Answer
	if err := json.Unmarshal(b, &answers); err != nil {
		return nil, fmt.Errorf("%s: want a JSON list of answers such as [{\"action\":\"accept\",\"content\":{…}}, \"decline\"]: %v", path, err)
	}
	return answers, nil
}

// answerFlag is -accept JSON, -decline and -cancel: each appends one
// answer to the same list, in the order given on the command line.
type answerFlag struct {
	action  string
	answers *[]Answer
}

func (f answerFlag) String() string { return "" }

func (f answerFlag) IsBoolFlag() bool { return f.action != "accept" }

func (f answerFlag) Set(s string) error {
	a := Answer{Action: f.action}
	if f.action == "accept" {
		if err := json.Unmarshal([]byte(s), &a.Content); err != nil || a.Content == nil {
			return fmt.Errorf("want the form's content as a JSON object, e.g. '{\"date\":\"2026-09-01\"}'")
		}
	} else if s != "true" {
		return fmt.Errorf("takes no value")
	}
	*f.answers = append(*f.answers, a)
	return nil
}
