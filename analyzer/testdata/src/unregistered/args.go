// Package main has a tool that no file registers: mcpgen-vet warns at its
// struct, and not at the question, which is no tool.
package main

// BookArgs are the arguments of a tool no file registers.
type BookArgs struct { // want `warning: tool book is never registered: no file of package main calls Flows or NewBookArgsFlow, so the server never lists it; mcpgen init writes a main.go that registers them all; or register the package's tools with mcpsdk.AddTools\(s, Flows\(Handlers\{\}\), opts\) \(or mcpgo.AddTools\), or this one with mcpsdk.AddTool\(s, NewBookArgsFlow\(bookArgsHandler\{\}\), opts\)`
	City string `json:"city" elicit:"required"`
}

// Sure is a question a branch asks: it is never registered, and needs not be.
//
//mcpgen:question
type Sure struct {
	OK *bool `json:"ok" elicit:"required"`
}

func main() {}
