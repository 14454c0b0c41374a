package corpus

// PlainArgs has plain arguments whose tags would make the tool's input
// schema invalid, a generated check that does not compile on 32-bit
// platforms, or a JSON name encoding/json ignores.
type PlainArgs struct {
	Ask   string `json:"ask" elicit:"title=Ask"`
	Low   int    `json:"low" jsonschema:"minimum=NaN"`              // want `^jsonschema tag on Low: minimum=NaN is not a JSON number \(write it like 5, -0\.5 or 1e3\): the input schema would not be valid JSON$`
	Zero  int    `json:"zero" jsonschema:"maximum=05"`              // want `^jsonschema tag on Zero: maximum=05 is not a JSON number`
	Long  string `json:"long" jsonschema:"maxLength=4294967296"`    // want `^jsonschema tag on Long: maxLength=4294967296 is more than 2147483647, the largest int on 32-bit platforms$`
	Price string `json:"price€,omitempty" jsonschema:"maxLength=2"` // want `^Price has json name "price€", which encoding/json ignores`
}
