package plainargs

import (
	"encoding/json"
	"strings"
	"time"
)

// Search is a tool whose plain arguments carry the rules of the tool's input
// schema in their jsonschema tags (invopop/jsonschema's dialect): the
// generated decodeArguments checks them, and one elicitable field asks for
// the rest.
//
//mcpgen:tool search Search the catalogue.
type Search struct {
	Query    string   `json:"query" jsonschema:"minLength=2,maxLength=40,description=What to look for"`
	Lang     string   `json:"lang,omitempty" jsonschema:"enum=en,enum=fr,enum=de"`
	Contact  string   `json:"contact,omitempty" jsonschema:"format=email"`
	Site     *string  `json:"site,omitempty" jsonschema:"format=uri"`
	Since    string   `json:"since,omitempty" jsonschema:"format=date"`
	Limit    int      `json:"limit,omitempty" jsonschema:"minimum=1,maximum=100"`
	Offset   *uint16  `json:"offset,omitempty" jsonschema:"maximum=1000"`
	Tiny     int8     `json:"tiny,omitempty"`
	Score    float64  `json:"score,omitempty" jsonschema:"exclusiveMinimum=0,exclusiveMaximum=1"`
	Weight   *float32 `json:"weight,omitempty" jsonschema:"minimum=0.5"`
	Ratio    float32  `json:"ratio,omitempty" jsonschema:"maximum=0.1"`
	Big      int64    `json:"big,omitempty" jsonschema:"maximum=9.007199254740992e15"`
	Half     int      `json:"half,omitempty" jsonschema:"minimum=2.5,exclusiveMaximum=1.05e1"`
	Exact    bool     `json:"exact"`
	After    time.Time
	Due      *time.Time `json:"due,omitempty" jsonschema:"format=date"`
	Internal string     `json:"internal,omitempty" jsonschema:"-"`
	Page     string     `json:"page" elicit:"optional,enum=1|2|3,title=Page"`
	Sort     string     `json:"sort,omitempty" elicit:"enum=asc|desc,title=Order"`
}

// Filter is a tool with a plain argument whose rules the generated check
// does not cover (a pattern, a nested struct): the runtime also checks the
// tool's input schema.
//
//mcpgen:tool filter Filter the catalogue.
type Filter struct {
	Code  string `json:"code" jsonschema:"pattern=^[A-Z]{3}$"`
	Range Span   `json:"range"`
	Tags  []int  `json:"tags,omitempty"`
	Mode  string `json:"mode,omitempty" elicit:"enum=fast|slow,title=Mode"`
}

// Span is a nested plain argument.
type Span struct {
	From int `json:"from" jsonschema:"minimum=0"`
	To   int `json:"to,omitempty"`
}

// Counted has a plain argument with encoding/json's ",string" option, which
// only decoding the whole struct applies: the runtime reads it with
// encoding/json (by exact name) and checks the reflected input schema.
//
//mcpgen:tool counted Count things.
type Counted struct {
	ID   int64  `json:"id,string"`
	Note string `json:"note,omitempty" elicit:"optional,title=Note,minLength=2,maxLength=8"`
}

// Trimmed decodes itself: the runtime reads it with its UnmarshalJSON.
//
//mcpgen:tool trimmed Trim a name.
type Trimmed struct {
	Name string `json:"name"`
	Note string `json:"note,omitempty" elicit:"optional,title=Note,minLength=2,maxLength=8"`
	Size string `json:"size,omitempty" elicit:"optional,enum=s|m|l,title=Size"`
}

// UnmarshalJSON trims the name.
func (t *Trimmed) UnmarshalJSON(b []byte) error {
	type plain Trimmed
	var p plain
	if err := json.Unmarshal(b, &p); err != nil {
		return err
	}
	p.Name = strings.TrimSpace(p.Name)
	*t = Trimmed(p)
	return nil
}
