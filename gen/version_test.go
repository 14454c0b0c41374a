package gen

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/runtime/impl"
)

// TestImplVersion: the version generated files are written for is the newest
// runtime/impl serves, so bumping one without the other fails here.
func TestImplVersion(t *testing.T) {
	if ImplVersion != impl.MaxVersion {
		t.Errorf("gen.ImplVersion = %d, impl.MaxVersion = %d: bump them together", ImplVersion, impl.MaxVersion)
	}
	if ImplVersion < impl.MinVersion {
		t.Errorf("gen.ImplVersion = %d is below impl.MinVersion = %d", ImplVersion, impl.MinVersion)
	}
}

// TestDocsQuoteImplVersion: the tag reference (docs/tags.md, "The generated
// API") shows the guard lines a generated file starts with; they quote the
// version generated files are written for (a newcomer compares them with
// their own files).
func TestDocsQuoteImplVersion(t *testing.T) {
	b, err := os.ReadFile("../docs/tags.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range []string{
		fmt.Sprintf("generated for runtime/impl version %d.", ImplVersion),
		fmt.Sprintf("impl.EnforceVersion(impl.MaxVersion - %d)", ImplVersion),
		fmt.Sprintf("impl.EnforceVersion(%d - impl.MinVersion)", ImplVersion),
	} {
		if !strings.Contains(string(b), line) {
			t.Errorf("docs/tags.md does not quote %q", line)
		}
	}
}
