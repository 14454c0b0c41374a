package redistest

import (
	"flag"
	"os"
	"strconv"
	"testing"
)

// Parallel is how many tests [Main] lets run at once when -test.parallel
// is not given. The tests of a package that starts Redis servers mostly
// wait on them (replication, failover timers, stalls), not on the CPU, so
// go test's default (GOMAXPROCS) would leave the machine idle.
const Parallel = 8

// Main runs a package's tests with -test.parallel at [Parallel] unless the
// command line sets it, and returns m.Run's exit code. A TestMain calls it:
//
//	func TestMain(m *testing.M) { os.Exit(redistest.Main(m)) }
//
// Only tests that call t.Parallel are affected; each of them must start
// servers of its own.
func Main(m *testing.M) int {
	flag.Parse()
	set := false
	flag.Visit(func(f *flag.Flag) { set = set || f.Name == "test.parallel" })
	if !set {
		if err := flag.Set("test.parallel", strconv.Itoa(Parallel)); err != nil {
			os.Stderr.WriteString("redistest: " + err.Error() + "\n")
		}
	}
	return m.Run()
}
