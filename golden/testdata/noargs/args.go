package noargs

// Empty is a tool with no arguments.
//
//mcpgen:tool ping Ping.
type Empty struct{}
