// Package clients is what the analyzer's client check warns about, for the
// made-up clients of analyzer_test.go.
package clients

// Args asks a number and a titled select.
type Args struct { // want `warning: Codex 0.1 \(codex\) breaks the whole form of args, because of n \(an integer field\): replaces the whole form with a yes/no box`
	N      int    `json:"n,omitempty" elicit:"optional,minimum=1"`
	Colour Colour `json:"colour,omitempty" elicit:"optional"`              // want `warning: VS Code 1.2 \(vscode\) degrades colour, a titled select`
	Agree  bool   `json:"agree,omitempty" elicit:"optional,default=false"` // want `warning: VS Code 1.2 \(vscode\) degrades agree, default=false: loses default false`
}

// Colour is a titled select.
type Colour string

// The colours; each line comment is its title.
const (
	Red  Colour = "red"  // Red
	Blue Colour = "blue" // Blue
)

// Quiet is judged for no client.
//
//mcpgen:clients off
type Quiet struct {
	N int `json:"n,omitempty" elicit:"optional"`
}
