// Package clientsdirective: without -clients, the analyzer judges only the
// structs whose //mcpgen:clients directive names clients.
package clientsdirective

// Args has no directive: not judged.
type Args struct {
	N int `json:"n,omitempty" elicit:"optional,minimum=1"`
}

// Listed is judged for codex.
//
//mcpgen:clients codex
type Listed struct { // want `warning: Codex 0.1 \(codex\) breaks the whole form of listed`
	N int `json:"n,omitempty" elicit:"optional,minimum=1"`
}
