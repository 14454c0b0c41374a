package person

// Person is the issue's {name: string required, age: integer minimum 0}.
type Person struct {
	Name string `json:"name" elicit:"required"`
	Age  *int   `json:"age,omitempty" elicit:"optional,minimum=0"`
}

// Settings has only optional fields.
type Settings struct {
	Theme  string `json:"theme,omitempty" elicit:"optional,enum=light|dark,default=light"`
	Volume *int   `json:"volume,omitempty" elicit:"optional,minimum=0,maximum=10"`
}
