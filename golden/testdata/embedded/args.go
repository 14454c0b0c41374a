package embedded

// Contact is embedded by value: its fields are promoted, as encoding/json does.
type Contact struct {
	Email string `json:"email" elicit:"format=email"`
	Phone string `json:"phone,omitempty" elicit:"optional,maxLength=20"`
	Name  string `json:"name,omitempty"` // hidden by Order.Name (shallower)
}

// Address is embedded inside Contact's sibling: two levels deep.
type Address struct {
	City string `json:"city" elicit:"minLength=1"`
}

// Shipping embeds Address.
type Shipping struct {
	Address
	Express *bool `json:"express,omitempty" elicit:"optional,default=false"`
}

// meta is an unexported embedded struct: its exported fields are still promoted.
type meta struct {
	Ref string `json:"ref,omitempty" elicit:"optional,maxLength=10"`
}

// Named is embedded with a json tag: encoding/json treats it as one field,
// so it is not elicitable and its fields are not promoted.
type Named struct {
	Hidden string `json:"hidden"`
}

// Order embeds structs at several depths.
type Order struct {
	Contact
	Shipping
	meta
	Named `json:"named"`
	Name  string `json:"name" elicit:"title=Your name"`
}
