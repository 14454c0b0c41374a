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
