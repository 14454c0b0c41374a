package strs

// Strings has a string field for every format and length rule.
type Strings struct {
	Plain    string  `json:"plain" elicit:""`
	Short    string  `json:"short,omitempty" elicit:"optional,minLength=1,maxLength=3"`
	Long     string  `json:"long,omitempty" elicit:"optional,minLength=5"`
	Email    string  `json:"email,omitempty" elicit:"format=email"`
	Site     *string `json:"site,omitempty" elicit:"optional,format=uri,maxLength=60"`
	Day      string  `json:"day,omitempty" elicit:"optional,format=date,default=2026-07-28"`
	When     *string `json:"when,omitempty" elicit:"optional,format=date-time"`
	Nick     Nick    `json:"nick,omitempty" elicit:"optional,maxLength=8,default=bob"`
	Greeting *string `json:"greeting,omitempty" elicit:"optional,minLength=2,default='Hello, world'"`
	Label    *Label  `json:"label,omitempty" elicit:"optional,maxLength=5"`
}

// Nick is a named string type with no constants: a plain string.
type Nick string

// Label is an alias: generated code names it as written (Label), not by its
// package path.
type Label = string
