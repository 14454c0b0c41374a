package main

// DeployArgs are the arguments of the deploy tool. The model passes the
// service; the environment is asked of the user when missing. A production
// deploy then asks the Confirm question from Accept.
//
//mcpgen:tool deploy Deploy a service to staging or production; production asks the user to type the service name.
//mcpgen:message Which environment should the service be deployed to?
type DeployArgs struct {
	Service     string      `json:"service" jsonschema:"the service to deploy, e.g. api or web"`
	Environment Environment `json:"environment,omitempty" elicit:"title=Environment"`
}

// Environment is where a service runs.
type Environment string

// The environments offered in the form; each line comment is the choice's title.
const (
	Staging    Environment = "staging"    // Staging
	Production Environment = "production" // Production
)

// Confirm is the question a production deploy asks from Accept, after it
// computed the plan: the user types the service name.
//
//mcpgen:question
//mcpgen:message Type the service name to confirm.
type Confirm struct {
	Service string `json:"confirm,omitempty" elicit:"title=Service name"`
}

//go:generate go run github.com/mcpgen/mcpgen/cmd/mcpgen -type DeployArgs,Confirm
