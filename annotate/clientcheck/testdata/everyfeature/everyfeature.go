// Package everyfeature has a form that carries every feature the client
// check finds, so that the check's tests meet every cell of the table.
package everyfeature

// EveryArgs asks a field of every feature.
//
//mcpgen:tool every Every feature of a form.
type EveryArgs struct {
	Text     string   `json:"text,omitempty" elicit:"required,title=Text,minLength=2,maxLength=40"`
	Email    string   `json:"email,omitempty" elicit:"optional,format=email"`
	URI      string   `json:"uri,omitempty" elicit:"optional,format=uri"`
	Date     string   `json:"date,omitempty" elicit:"optional,format=date"`
	When     string   `json:"when,omitempty" elicit:"optional,format=date-time"`
	Count    *int     `json:"count,omitempty" elicit:"optional,minimum=1,maximum=9,default=1"`
	Ratio    *float64 `json:"ratio,omitempty" elicit:"required,minimum=0,maximum=1"`
	Agree    bool     `json:"agree,omitempty" elicit:"optional,default=false"`
	Size     string   `json:"size,omitempty" elicit:"optional,enum=s|m|l"`
	Colour   Colour   `json:"colour,omitempty" elicit:"optional"`
	Tags     []string `json:"tags,omitempty" elicit:"optional,enum=a|b|c"`
	Fruit    string   `json:"fruit,omitempty" elicit:"optional,choices"`
	Nickname string   `json:"nickname,omitempty" elicit:"optional,title=What should we call you?"`
}

// Colour is a titled select.
type Colour string

// The colours; each line comment is its title.
const (
	Red  Colour = "red"  // Red
	Blue Colour = "blue" // Blue
)

// Legacy writes its titled select as enum + enumNames.
//
//mcpgen:question
//mcpgen:enumnames
type Legacy struct {
	Colour Colour `json:"colour,omitempty" elicit:"required"`
}

// Secret is asked on the server's page.
//
//mcpgen:question url
type Secret struct {
	Key string `json:"key,omitempty" elicit:"required,title=API key"`
}
