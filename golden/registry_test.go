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
	"github.com/mcpgen/mcpgen/runtime/impl"
)

// goldenStruct is one generated struct of a golden case, reached through its
// generated flow constructor (the handler is not needed to build a Flow).
type goldenStruct struct {
	Case   string
	Name   string
	Flow   *runtime.Flow
	Legacy bool    // the struct asked for enum + enumNames (//mcpgen:enumnames)
	Def    flowDef // what the constructor stated of Flow (defOf)
}

// flowDef is a flow's definition: what a generated New<T>Flow states
// through impl.FlowSpec, and runtime.Flow keeps unexported.
type flowDef = impl.Definition

// defOf returns a copy of the definition of the flow f.
func defOf(f *runtime.Flow) flowDef { return impl.DefinitionOf(f) }

// build returns the flow of the definition d, as impl.NewFlow does.
func build(d flowDef) *runtime.Flow { return impl.FlowOf(d) }

// goldenStructs lists every struct the golden cases generate code for;
// TestRegistryComplete keeps it in step with testdata.
func goldenStructs() []goldenStruct {
	list := []goldenStruct{
		{"allkinds", "AllKinds", allkinds.NewAllKindsFlow(nil), false, flowDef{}},
		{"bookflight", "BookFlightArgs", bookflight.NewBookFlightArgsFlow(nil), false, flowDef{}},
		{"checknames", "Args", checknames.NewArgsFlow(nil), false, flowDef{}},
		{"embedded", "Order", embedded.NewOrderFlow(nil), false, flowDef{}},
		{"everykind", "Registration", everykind.NewRegistrationFlow(nil), false, flowDef{}},
		{"legacyenums", "Legacy", legacyenums.NewLegacyFlow(nil), true, flowDef{}},
		{"nums", "Bools", nums.NewBoolsFlow(nil), false, flowDef{}},
		{"nums", "Floats", nums.NewFloatsFlow(nil), false, flowDef{}},
		{"nums", "Ints", nums.NewIntsFlow(nil), false, flowDef{}},
		{"optionalonly", "Preferences", optionalonly.NewPreferencesFlow(nil), false, flowDef{}},
		{"person", "Person", person.NewPersonFlow(nil), false, flowDef{}},
		{"person", "Settings", person.NewSettingsFlow(nil), false, flowDef{}},
		{"plainargs", "Counted", plainargs.NewCountedFlow(nil), false, flowDef{}},
		{"plainargs", "Filter", plainargs.NewFilterFlow(nil), false, flowDef{}},
		{"plainargs", "Search", plainargs.NewSearchFlow(nil), false, flowDef{}},
		{"plainargs", "Trimmed", plainargs.NewTrimmedFlow(nil), false, flowDef{}},
		{"selects", "Multis", selects.NewMultisFlow(nil), false, flowDef{}},
		{"selects", "Singles", selects.NewSinglesFlow(nil), false, flowDef{}},
		{"strs", "Strings", strs.NewStringsFlow(nil), false, flowDef{}},
		{"times", "Times", times.NewTimesFlow(nil), false, flowDef{}},
		{"titles", "Titles", titles.NewTitlesFlow(nil), false, flowDef{}},
	}
	for i := range list {
		list[i].Def = defOf(list[i].Flow)
	}
	return list
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
	"noargs.Empty":         "no field at all",
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
// ask=always fields, in field order (the runtime's call.form).
func toAsk(f flowDef, a runtime.Args) []string {
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
