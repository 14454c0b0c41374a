// Package racebuild tells whether this binary was built with the race
// detector (go build -race, go test -race), and lets a test binary have
// the go commands it runs build the same way.
//
// A test that runs the go command (golang.org/x/tools/go/packages, whose
// go list -export compiles every dependency for its export data; go build;
// go vet; go test) compiles, by default, without the race detector, while
// `go test -race` has compiled the same packages with it: every dependency
// would be compiled twice, once per variant. With -race in GOFLAGS those go
// commands find the packages `go test -race` compiled in the build cache
// (go help cache) instead. Every test binary that runs go commands does
// this, so that none compiles the other variant alone.
//
// A test that runs a program builds it with [Program], which links it once
// for every test binary that asks and keeps it where the next run finds it
// up to date.
package racebuild

import (
	"os"
	"strings"
	"testing"
)

// Enabled reports whether this binary was built with -race.
const Enabled = enabled

// ShareBuild sets GOFLAGS of this process to [Flags] of what it holds, so
// that the go commands it starts build as the test binary was built. A
// test binary calls it from TestMain, before its tests start; a test that
// sets GOFLAGS itself sets it to Flags(…).
func ShareBuild() {
	_ = os.Setenv("GOFLAGS", Flags(os.Getenv("GOFLAGS")))
}

// Main calls [ShareBuild], then runs the tests and returns m.Run's exit
// code. A package whose tests run the go command has
//
//	func TestMain(m *testing.M) { os.Exit(racebuild.Main(m)) }
func Main(m *testing.M) int {
	ShareBuild()
	return m.Run()
}

// Flags returns goflags (a GOFLAGS value: space-separated flags) with
// -race added at the end when [Enabled] and goflags does not name -race
// already; otherwise goflags unchanged.
func Flags(goflags string) string {
	if !Enabled {
		return goflags
	}
	for _, f := range strings.Fields(goflags) {
		if f == "-race" || f == "-race=true" || f == "--race" {
			return goflags
		}
	}
	return strings.TrimSpace(goflags + " -race")
}

// Without returns goflags (a GOFLAGS value) without its -race flags, for
// the go command that builds a program a test starts very many times (a
// vet tool, which go vet starts once per package of the dependency graph):
// a race-built binary's start-up costs more, hundreds of times over, than
// compiling its dependencies once without -race.
func Without(goflags string) string {
	var keep []string
	for _, f := range strings.Fields(goflags) {
		if f != "-race" && f != "-race=true" && f != "--race" {
			keep = append(keep, f)
		}
	}
	return strings.Join(keep, " ")
}
