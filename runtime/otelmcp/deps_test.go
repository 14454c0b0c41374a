package otelmcp_test

import (
	"os/exec"
	"strings"
	"testing"
)

// TestRuntimeHasNoOpenTelemetry holds OpenTelemetry out of what a server
// links unless it imports this package: the runtime and the SDK adapters
// link none of it, so a server that does not trace neither compiles nor
// pays for it.
func TestRuntimeHasNoOpenTelemetry(t *testing.T) {
	pkgs := []string{"../", "../mcpsdk", "../mcpgo", "../page", "../redisstore", "../impl", "../elicittest"}
	out, err := exec.Command("go", append([]string{"list", "-deps"}, pkgs...)...).CombinedOutput()
	if err != nil {
		t.Fatalf("go list -deps: %v\n%s", err, out)
	}
	for _, p := range strings.Fields(string(out)) {
		if strings.HasPrefix(p, "go.opentelemetry.io/") || strings.HasSuffix(p, "/otelmcp") {
			t.Errorf("a runtime package links %s; OpenTelemetry belongs in runtime/otelmcp only", p)
		}
	}
}
