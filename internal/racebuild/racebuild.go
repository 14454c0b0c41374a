// Package racebuild tells whether this binary was built with the race
// detector (go build -race, go test -race), and lets a test binary have
// the go commands it runs build the same way.
//
// A test that runs the go command (golang.org/x/tools/go/packages, whose
// go list -export compiles every dependency for its export data; go build;
// go test) compiles, by default, without the race detector, while
// `go test -race` has compiled the same packages with it: every dependency
// is compiled twice, once per variant, and the go commands of test binaries
// running at once compile the second variant side by side. With -race in
// GOFLAGS those go commands find the packages `go test -race` compiled in
// the build cache (go help cache) instead.
package racebuild

import (
	"os"
	"strings"
)

// Enabled reports whether this binary was built with -race.
const Enabled = enabled

// ShareBuild adds -race to the GOFLAGS of this process (after what it
// holds) when [Enabled] and GOFLAGS does not name -race already, so that the
// go commands it starts build as the test binary was built. A test
// binary calls it from TestMain, before its tests start: later changes to
// GOFLAGS (t.Setenv) replace it.
func ShareBuild() {
	if !Enabled {
		return
	}
	flags := os.Getenv("GOFLAGS")
	for _, f := range strings.Fields(flags) {
		if f == "-race" || f == "-race=true" || f == "--race" {
			return
		}
	}
	_ = os.Setenv("GOFLAGS", strings.TrimSpace(flags+" -race"))
}
