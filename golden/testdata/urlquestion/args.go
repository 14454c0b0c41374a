// Package urlquestion holds URL-mode questions (//mcpgen:question url): their
// generated files register them with the page's HTML form, written from the
// elicit tags.
package urlquestion

import "time"

// APIKey asks for the user's API key of a contacts service, on the server's
// own page: a secret, which a form may not ask for.
//
//mcpgen:question url
//mcpgen:message Enter your API key for the contacts service.
type APIKey struct {
	Key    string `json:"api_key" elicit:"title=API key,description=Found under Settings > API keys,minLength=8"`
	Label  string `json:"label,omitempty" elicit:"optional,title=Label,maxLength=40,default=Work"`
	Region Region `json:"region,omitempty" elicit:"optional,title=Region"`
}

// Region is where the account lives.
type Region string

// The regions.
const (
	EU Region = "eu" // Europe
	US Region = "us" // United States
)

// Profile is a URL-mode question with every other kind of field, and text
// that must be escaped.
//
//mcpgen:question url
type Profile struct {
	Email  string     `json:"email" elicit:"format=email,title=E-mail"`
	Site   string     `json:"site,omitempty" elicit:"optional,format=uri,title='Site <home> & \"more\"'"`
	Born   string     `json:"born,omitempty" elicit:"optional,format=date"`
	Meet   *time.Time `json:"meet,omitempty" elicit:"optional,title=Meeting"`
	Age    *int       `json:"age,omitempty" elicit:"optional,minimum=18,maximum=130"`
	Seats  uint8      `json:"seats,omitempty" elicit:"optional,default=2"`
	Ratio  float64    `json:"ratio,omitempty" elicit:"optional,minimum=0.25,maximum=1,default=0.5"`
	News   *bool      `json:"news,omitempty" elicit:"optional,title=Send news,default=true"`
	Topics []string   `json:"topics,omitempty" elicit:"optional,enum=go:Go|mcp:MCP <tools> & more,default=go"`
	Size   string     `json:"size" elicit:"enum=s:Small|m:Medium|l:Large,default=m"`
	PIN    string     `json:"pin" elicit:"secret,minLength=4,maxLength=8,description='Four to eight digits & <nothing else>, ''please'''"`
}
