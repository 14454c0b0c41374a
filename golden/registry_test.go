package golden

import (
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/mcpgen/mcpgen/golden/testdata/allkinds"
	"github.com/mcpgen/mcpgen/golden/testdata/bookflight"
	"github.com/mcpgen/mcpgen/golden/testdata/checknames"
	"github.com/mcpgen/mcpgen/golden/testdata/embedded"
	"github.com/mcpgen/mcpgen/golden/testdata/everykind"
	"github.com/mcpgen/mcpgen/golden/testdata/legacyenums"
	"github.com/mcpgen/mcpgen/golden/testdata/nums"
	"github.com/mcpgen/mcpgen/golden/testdata/optionalonly"
	"github.com/mcpgen/mcpgen/golden/testdata/person"
	"github.com/mcpgen/mcpgen/golden/testdata/plainargs"
	"github.com/mcpgen/mcpgen/golden/testdata/selects"
	"github.com/mcpgen/mcpgen/golden/testdata/strs"
	"github.com/mcpgen/mcpgen/golden/testdata/times"
	"github.com/mcpgen/mcpgen/golden/testdata/titles"
	"github.com/mcpgen/mcpgen/runtime"
)

// goldenStruct is one generated struct of a golden case, reached through its
// generated flow constructor (the handler is not needed to build a Flow).
type goldenStruct struct {
	Case   string
	Name   string
	Flow   *runtime.Flow
	Legacy bool // the struct asked for enum + enumNames (//mcpgen:enumnames)
}

// goldenStructs lists every struct the golden cases generate code for;
// TestRegistryComplete keeps it in step with testdata.
func goldenStructs() []goldenStruct {
	return []goldenStruct{
		{"allkinds", "AllKinds", allkinds.NewAllKindsFlow(nil), false},
		{"bookflight", "BookFlightArgs", bookflight.NewBookFlightArgsFlow(nil), false},
		{"checknames", "Args", checknames.NewArgsFlow(nil), false},
		{"embedded", "Order", embedded.NewOrderFlow(nil), false},
		{"everykind", "Registration", everykind.NewRegistrationFlow(nil), false},
		{"legacyenums", "Legacy", legacyenums.NewLegacyFlow(nil), true},
		{"nums", "Bools", nums.NewBoolsFlow(nil), false},
		{"nums", "Floats", nums.NewFloatsFlow(nil), false},
		{"nums", "Ints", nums.NewIntsFlow(nil), false},
		{"optionalonly", "Preferences", optionalonly.NewPreferencesFlow(nil), false},
		{"person", "Person", person.NewPersonFlow(nil), false},
		{"person", "Settings", person.NewSettingsFlow(nil), false},
		{"plainargs", "Counted", plainargs.NewCountedFlow(nil), false},
		{"plainargs", "Filter", plainargs.NewFilterFlow(nil), false},
		{"plainargs", "Search", plainargs.NewSearchFlow(nil), false},
		{"plainargs", "Trimmed", plainargs.NewTrimmedFlow(nil), false},
		{"selects", "Multis", selects.NewMultisFlow(nil), false},
		{"selects", "Singles", selects.NewSinglesFlow(nil), false},
		{"strs", "Strings", strs.NewStringsFlow(nil), false},
		{"times", "Times", times.NewTimesFlow(nil), false},
		{"titles", "Titles", titles.NewTitlesFlow(nil), false},
	}
}

// runTimeSelects are the golden structs left out of goldenStructs because
// their selects (elicit:"choices") get their options only at run time: the
// static RequestedSchema is completed by the runtime before it is sent, so
// the grammar, go-sdk and differential tests of the static schema do not
// apply. What is sent is checked where the options exist: runtime/ask_test.go
// (exact schemas), examples/billing (go-sdk's client and the TypeScript
// client, which refuses a schema outside the grammar).
var runTimeSelects = map[string]string{
	"questions.PayArgs": "account and notify are elicit:\"choices\"",
}

// acceptOnly are the golden structs left out of goldenStructs because they
// have no elicitable field: their flow asks nothing before Accept, so there
// is no requestedSchema to hold to the grammar or to answer (the
// differential test needs answers the validator refuses).
// TestAcceptOnlyTool tests them.
var acceptOnly = map[string]string{
	"acceptonly.QuoteArgs": "no field has an elicit tag",
}

var flowCtor = regexp.MustCompile(`(?m)^func New(\w+)Flow\(`)

// TestRegistryComplete fails when a golden case generates a struct that
// goldenStructs does not list, so every new case joins the grammar,
// go-sdk and differential tests.
func TestRegistryComplete(t *testing.T) {
	var want []string
	files, err := filepath.Glob(filepath.Join("testdata", "*", "*_elicit.go"))
	require.NoError(t, err)
	for _, f := range files {
		b, err := os.ReadFile(f)
		require.NoError(t, err)
		for _, m := range flowCtor.FindAllSubmatch(b, -1) {
			want = append(want, filepath.Base(filepath.Dir(f))+"."+string(m[1]))
		}
	}
	var got []string
	for _, s := range goldenStructs() {
		got = append(got, s.Case+"."+s.Name)
	}
	for name := range runTimeSelects {
		got = append(got, name)
	}
	for name := range acceptOnly {
		got = append(got, name)
	}
	sort.Strings(want)
	sort.Strings(got)
	require.Equal(t, want, got, "add every generated struct to goldenStructs in registry_test.go")
}

// toAsk is what the flow asks for in a state: MissingFields plus the
// ask=always fields, in field order (runtime.Flow's fieldsToAsk).
func toAsk(f *runtime.Flow, a runtime.Args) []string {
	missing := a.MissingFields()
	var out []string
	for _, name := range f.Fields {
		if contains(missing, name) || contains(f.AskAlways, name) {
			out = append(out, name)
		}
	}
	return out
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
