// Package clientsoff is package clients without its wants: -clients none
// reports nothing.
package clientsoff

// Args asks a number and a titled select.
type Args struct {
	N      int    `json:"n,omitempty" elicit:"optional,minimum=1"`
	Colour Colour `json:"colour,omitempty" elicit:"optional"`
	Agree  bool   `json:"agree,omitempty" elicit:"optional,default=false"`
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

// Listed names a client, but -clients none turns directives off too.
//
//mcpgen:clients codex
type Listed struct {
	N int `json:"n,omitempty" elicit:"optional,minimum=1"`
}
