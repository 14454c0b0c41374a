package runtime_test

import (
	"os/exec"
	"strings"
	"testing"
)

// maxAPILines bounds `go doc -short` of package runtime: it holds what a
// handler author and a server's main use; what SDK adapters need is in
// runtime/protocol, what generated code needs in runtime/impl. A new
// exported identifier for either audience belongs there. (47: ClientOf and
// DefaultUnaskable, for handler authors; PageStore, the pages of URL-mode
// questions split from Store.)
const maxAPILines = 47

func TestAPIStaysSmall(t *testing.T) {
	out, err := exec.Command("go", "doc", "-short", ".").Output()
	if err != nil {
		t.Skipf("go doc: %v", err)
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if len(lines) > maxAPILines {
		t.Errorf("go doc -short ./runtime prints %d lines, more than %d:\n%s", len(lines), maxAPILines, out)
	}
}
