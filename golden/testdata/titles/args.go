package titles

// Titles shows where titles and descriptions come from: the elicit tag, then
// the jsonschema tag (title=/description=, or the whole tag with no key=),
// then the Go field name in words.
//
//mcpgen:tool titled Title fallbacks.
//mcpgen:message Tell us about yourself.
type Titles struct {
	FirstName     string `json:"first_name" elicit:""`
	DepartureDate string `json:"departure_date,omitempty" elicit:"optional,format=date"`
	UserID        string `json:"user_id,omitempty" elicit:"optional"`
	HTTPServerURL string `json:"http_server_url,omitempty" elicit:"optional,format=uri"`
	Nick          string `json:"nick,omitempty" elicit:"optional" jsonschema:"title=Nickname,description=What friends call you"`
	Motto         string `json:"motto,omitempty" elicit:"optional" jsonschema:"A short motto"`
	City          string `json:"city,omitempty" elicit:"optional,title=Home city" jsonschema:"title=Ignored,description=From jsonschema"`
	Bio           string `json:"bio,omitempty" elicit:"optional,description='Short, please'" jsonschema:"title=Biography"`
	NoJSON        string `elicit:"optional"`
	Confirm       string `json:"confirm" elicit:"ask=always,enum=yes,title=Type yes to confirm"`
	Sure          *bool  `json:"sure,omitempty" elicit:"ask=always,optional,default=true"`
	Spaced        string `json:"spaced,omitempty" elicit:"optional , title = Spaced out , description=' kept '"`
}
