package acceptonly

// QuoteArgs are the arguments of a tool that asks nothing before its branch:
// no field has an elicit tag, and //mcpgen:tool alone makes it a tool. Its
// Accept may still ask a //mcpgen:question with runtime.Ask.
//
//mcpgen:tool quote Quote the price of an item; asks the user to approve a large order.
//mcpgen:rounds 2
type QuoteArgs struct {
	Item     string `json:"item" jsonschema:"the item to quote"`
	Quantity int    `json:"quantity,omitempty" jsonschema:"minimum=1,maximum=1000,description=How many"`
}
