package corpus

// Account is a named string type with constants: choices replaces them.
type Account string

// Constants that choices ignores.
const (
	Checking Account = "chk" // Checking
)

// Choices are selects whose options come at run time, right and wrong.
type Choices struct {
	One     string   `json:"one" elicit:"choices"`
	Named   *Account `json:"named" elicit:"optional,choices"`
	Many    []string `json:"many" elicit:"optional,choices,maxItems=2"`
	Number  *int     `json:"number" elicit:"choices"`                      // want `^elicit tag on Number: choices applies to strings, named string types and \[\]string, not to integers \(Number is \*int\); remove choices, or make the field a string$`
	Both    string   `json:"both" elicit:"choices,enum=a|b"`               // want `^elicit tag on Both: choices and enum= both give the options; keep enum= for options fixed in the code, or choices for options known only at run time$`
	Default *string  `json:"default" elicit:"optional,choices,default=a"`  // want `^elicit tag on Default: a choices field's options are known only at run time, so its default is too: remove default= and pass it with the options \(runtime\.AskOptions\.Defaults\)$`
	Email   *string  `json:"email" elicit:"optional,choices,format=email"` // want `^elicit tag on Email: format cannot be combined with choices: the options fix the values; remove format$`
}
