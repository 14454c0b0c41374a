package questions

// PayArgs are a tool's arguments whose account comes from the caller's own
// accounts, listed at run time.
//
//mcpgen:tool pay Pay an invoice from one of the caller's accounts.
type PayArgs struct {
	Invoice string   `json:"invoice"`
	Account string   `json:"account,omitempty" elicit:"choices,title=Account"`
	Notify  []string `json:"notify,omitempty" elicit:"optional,choices,maxItems=3,title=Notify"`
}

// Confirm is a question a branch asks after computing a plan.
//
//mcpgen:question
//mcpgen:message Type the service name to confirm.
type Confirm struct {
	Service string `json:"confirm,omitempty" elicit:"title=Service name"`
	Window  *Slot  `json:"window,omitempty" elicit:"optional,choices,title=When"`
}

// Slot is a maintenance window, offered at run time.
type Slot string
