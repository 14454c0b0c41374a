package corpus

// Contact is embedded twice through different paths.
type Contact struct {
	Email string `json:"email" elicit:"format=email"`
}

// Billing has its own email.
type Billing struct {
	Email string `json:"email"`
}

// Clash promotes two fields named "email" at the same depth.
type Clash struct {
	Contact
	Billing // want `^JSON name "email" is used by Contact\.Email and Billing\.Email: at the same depth, so encoding/json would drop all of them; give each a distinct json tag$`
}

// Shipping is embedded by pointer.
type Shipping struct {
	Street string `json:"street" elicit:"optional"`
}

// PtrEmbed embeds a pointer to a struct with elicit fields.
type PtrEmbed struct {
	*Shipping // want `^embedded pointer \*corpus\.Shipping holds elicit fields; embed corpus\.Shipping by value so its fields can be set$`
}

// Malformed has struct tags that reflect.StructTag cannot read.
type Malformed struct {
	NoQuotes string `json:"noQuotes" elicit:optional` // want "^malformed struct tag on NoQuotes: bad syntax for struct tag value \\(values are double-quoted\\); write key:\"value\" pairs separated by spaces, e\\.g\\. `json:\"name\" elicit:\"optional\"`$"
	NoSpace  string `json:"noSpace"elicit:"optional"` // want "^malformed struct tag on NoSpace: key:\"value\" pairs not separated by spaces; write key:\"value\" pairs separated by spaces, e\\.g\\. `json:\"name\" elicit:\"optional\"`$"
	Hidden   string `json:"-" elicit:"optional"`      // want `^Hidden has json:"-", so it never arrives in arguments and cannot be elicited; remove the elicit tag or the json tag$`
}

// NotStruct is named by -type but is not a struct.
type NotStruct string

//go:generate go run github.com/mcpgen/mcpgen/cmd/mcpgen -type Clash,NotStruct,Missing // want `^-type NotStruct: NotStruct is not a struct type \(its type is string\); mcpgen generates for structs only$` `^-type Missing: no type Missing in package corpus; name a struct type declared in this package$`

// Loop embeds itself by pointer.
type Loop struct {
	*Loop        // want `^embedded pointer \*corpus\.Loop holds elicit fields; embed corpus\.Loop by value so its fields can be set$`
	Name  string `json:"name" elicit:"optional,minLength=x"` // want `^elicit tag on Name: minLength=x is not a whole number ≥ 0; write a length in characters, e\.g\. minLength=100$`
}

// Only directives that run mcpgen are checked, their words split as go
// generate splits them.
//
//go:generate stringer -type=NotStruct -output=notstruct_mcpgen_string.go
//go:generate mcpgen -type "Loop,Absent" // want `^-type Absent: no type Absent in package corpus; name a struct type declared in this package$`

// Address is a struct with elicit fields that a tool holds as a nested object.
type Address struct {
	City string `json:"city" elicit:"required"`
}

// Addresses is a named list of them; Route holds one deeper down; Box is
// generic.
type (
	Addresses []Address
	Route     struct {
		From Address `json:"from"`
	}
	Box[T any] struct {
		V T `json:"v"`
	}
)

// Ship holds Address under a json name in every way encoding/json reads a
// nested object: no form could ask its fields. An unexported field and a
// json:"-" one are not arguments at all.
type Ship struct {
	To     Address      `json:"to"`    // want `^To's type corpus\.Address holds fields with elicit tags \(in corpus\.Address\), which are never asked there: a form is flat \(a requestedSchema holds no nested objects, MCP 2026-07-28 client/elicitation\); embed corpus\.Address without a json name to ask its fields here, or drop their elicit tags$`
	Via    []*Address   `json:"via"`   // want `^Via's type \[\]\*corpus\.Address holds fields with elicit tags \(in corpus\.Address\)`
	Stops  Addresses    `json:"stops"` // want `^Stops's type corpus\.Addresses holds fields with elicit tags \(in corpus\.Address\)`
	Route  Route        `json:"route"` // want `^Route's type corpus\.Route holds fields with elicit tags \(in corpus\.Address\)`
	Boxed  Box[Address] `json:"boxed"` // want `^Boxed's type corpus\.Box\[corpus\.Address\] holds fields with elicit tags \(in corpus\.Address\)`
	Inline struct {     // want `^Inline's type struct\{Z string "json:\\"z\\" elicit:\\"required\\""\} holds fields with elicit tags \(in struct\{Z string "json:\\"z\\" elicit:\\"required\\""\}\), which are never asked there: a form is flat \(a requestedSchema holds no nested objects, MCP 2026-07-28 client/elicitation\); move its fields into this struct to ask them, or drop their elicit tags$`
		Z string `json:"z" elicit:"required"`
	} `json:"inline"`
	hidden Address
	Skip   Address  `json:"-"`
	When   Box[int] `json:"when"`
	Note   string   `json:"note" elicit:"optional"`
}

// ShipEmbedded embeds Address under a json name: encoding/json reads it as a
// nested object, not as promoted fields.
type ShipEmbedded struct {
	Address `json:"addr"` // want `^Address's type corpus\.Address holds fields with elicit tags \(in corpus\.Address\)`
	Note    string        `json:"note" elicit:"optional"`
}

// Repeats has tags that say a key twice, a ,string option and a blank
// field with an elicit tag.
type Repeats struct {
	Twice  string `json:"twice" elicit:"optional" elicit:"maxLength=3"` // want `^the struct tag of Twice has the key elicit twice: reflect\.StructTag reads the first only, so the second is silently ignored; merge them into one elicit:"…"$`
	Count  int    `json:"count,string" elicit:"optional"`               // want `^Count has the json option ,string, which a form cannot follow \(an answer arrives as a JSON value of the field's type, as the requestedSchema says, never inside a string\); remove ,string, or the elicit tag to keep it a plain argument$`
	_      string `json:"blank" elicit:"optional"`                      // want `^a blank field \(_\) is never set, so it cannot be elicited; give it a name or remove its elicit tag$`
	Answer string `json:"answer" elicit:"optional"`
}

// NeverAsked has plain arguments by elicit:"-": each is checked as if it had
// no elicit tag, and one JSON cannot carry is refused, wherever it holds it.
type NeverAsked struct {
	Gone   string              `json:"-" elicit:"-"`
	Counts []int               `json:"counts,string" elicit:"-"`
	Ch     chan int            `json:"ch" elicit:"-"` // want `^Ch has type chan int, which holds a channel, a function, a complex number or an unsafe\.Pointer: JSON cannot carry it, and the tool's input schema cannot describe it; tag it json:"-" to keep it out of the arguments$`
	Fn     func()              `json:"fn"`            // want `^Fn has type func\(\), which holds a channel`
	Z      complex128          `json:"z"`             // want `^Z has type complex128, which holds a channel`
	Fns    []func()            `json:"fns"`           // want `^Fns has type \[\]func\(\), which holds a channel`
	Chans  map[string]chan int `json:"chans"`         // want `^Chans has type map\[string\]chan int, which holds a channel`
	In     Hooks               `json:"in"`            // want `^In has type corpus\.Hooks, which holds a channel`
	Said   Described           `json:"said"`
	Answer string              `json:"answer" elicit:"optional"`
}

// Hooks holds a function among its exported fields.
type Hooks struct {
	OnDone func()
	skip   func()
	Quiet  func() `json:"-"`
}

// Described is a function type that describes itself to the input schema.
type Described func()

// JSONSchema makes Described a string in the input schema.
func (Described) JSONSchema() *struct{} { return nil }

// CaseTwins has two fields whose JSON names differ only in case.
type CaseTwins struct {
	Acct  string `json:"acct" elicit:"optional"`
	Upper string `json:"ACCT"` // want `^JSON names "ACCT" \(Upper\) and "acct" \(Acct\) differ only in case: encoding/json matches keys without regard to case, so no call could pass both \(the runtime refuses such arguments\); give one of them another json name$`
}
