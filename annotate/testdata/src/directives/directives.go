// Package directives holds wrong //mcpgen: directives; the diagnostics are in
// ../../directives.golden (a want comment cannot share a directive's line).
package directives

// Directives has doc comment directives that are wrong.
//
//mcpgen:rounds 0
//mcpgen:colour red
//mcpgen:tool
type Directives struct {
	Name string `json:"name" elicit:"optional"`
}

// Confirm is a question with a directive that only tools take.
//
//mcpgen:question
//mcpgen:tool confirm
type Confirm struct {
	Name string `json:"name" elicit:"required"`
}

// Quote is a tool without an elicit field, which //mcpgen:tool alone makes a
// tool: it asks nothing before Accept, so the directives of a form do
// nothing on it (//mcpgen:rounds still bounds the questions Accept asks).
//
//mcpgen:tool quote Quote a price.
//mcpgen:message Never shown.
//mcpgen:key quote_form
//mcpgen:unsealed
//mcpgen:enumnames
//mcpgen:rounds 2
type Quote struct {
	Item string `json:"item"`
}

// Nothing is a question with nothing to ask.
//
//mcpgen:question
type Nothing struct {
	Note string `json:"note"`
}

// Keyed is a URL-mode question with a value the directive does not take.
//
//mcpgen:question ulr
type Keyed struct {
	Name string `json:"name" elicit:"required"`
}

// Worded is a question whose message was written as the directive's value.
//
//mcpgen:question Enter your key
type Worded struct {
	Name string `json:"name" elicit:"required"`
}

// Connect is a tool marked as a URL-mode question too.
//
//mcpgen:tool connect Connect an account.
//mcpgen:question url
type Connect struct {
	Name string `json:"name" elicit:"required"`
}

// Ping declares the tool ping.
//
//mcpgen:tool ping Answers pong.
type Ping struct {
	Name string `json:"name" elicit:"optional"`
}

// PingAgain declares ping again: one would replace the other on a server.
//
//mcpgen:tool ping Answers pong, twice.
type PingAgain struct {
	Name string `json:"name" elicit:"optional"`
}

// PingArgs is a tool whose derived name (ping) is taken as well.
type PingArgs struct {
	Name string `json:"name" elicit:"optional"`
}
