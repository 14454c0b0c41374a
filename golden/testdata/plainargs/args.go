package plainargs

import "time"

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
	Exact    bool     `json:"exact"`
	After    time.Time
	Internal string `json:"internal,omitempty" jsonschema:"-"`
	Page     string `json:"page" elicit:"optional,enum=1|2|3,title=Page"`
	Sort     string `json:"sort,omitempty" elicit:"enum=asc|desc,title=Order"`
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
