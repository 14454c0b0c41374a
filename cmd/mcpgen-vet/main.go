// Command mcpgen-vet runs mcpgen's checks of elicit tags and argument structs
// as a vet tool, without generating anything:
//
//	go install github.com/mcpgen/mcpgen/cmd/mcpgen-vet
//	go vet -vettool=$(which mcpgen-vet) ./...
//
// It reports exactly what mcpgen would (see package
// github.com/mcpgen/mcpgen/analyzer), printed file:line:col: message.
// Run directly with -fix, it applies every suggested fix (each "did you
// mean", a misspelt elicit key, …) to the source:
//
//	mcpgen-vet -fix ./...
//
// It also warns, in the category "clients", about each form feature a
// client renders badly (mcpgen's build-time client check): for the structs
// whose //mcpgen:clients directive names clients, and with -clients=widely
// (all, or client ids) for every struct; -clients=none turns it off.
package main

import (
	"golang.org/x/tools/go/analysis/singlechecker"

	"github.com/mcpgen/mcpgen/analyzer"
)

func main() { singlechecker.Main(analyzer.Analyzer) }
