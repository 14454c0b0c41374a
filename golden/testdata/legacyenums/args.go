package legacyenums

// Window is a titled select.
type Window string

// Windows.
const (
	Morning Window = "morning" // Morning
	Evening Window = "evening" // Evening
)

// Legacy asks for the deprecated enum + enumNames form of titled single
// selects, for clients that only know it.
//
//mcpgen:enumnames
type Legacy struct {
	Window Window   `json:"window" elicit:""`
	Meal   string   `json:"meal,omitempty" elicit:"optional,enum=veg:Vegetarian|meat:Meat,default=meat"`
	Size   string   `json:"size,omitempty" elicit:"optional,enum=s|m"`
	Multi  []Window `json:"multi,omitempty" elicit:"optional"`
}
