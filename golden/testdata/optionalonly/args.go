package optionalonly

// Preferences has only optional fields: a form is never required, and an
// accept with no content is complete.
type Preferences struct {
	Seat   string `json:"seat,omitempty" elicit:"optional,enum=window|aisle"`
	Meal   string `json:"meal,omitempty" elicit:"optional,title=Meal preference,maxLength=30"`
	Pillow *bool  `json:"pillow,omitempty" elicit:"optional,default=false"`
}
