package selects

// Window is a named string type whose constants carry titles: a titled select.
type Window string

// Windows; each line comment is the choice's title.
const (
	Morning   Window = "morning"   // Morning
	Afternoon Window = "afternoon" // Afternoon
	Evening   Window = "evening"   // Evening
)

// Level is a named string type whose constants have no titles: an untitled select.
type Level string

// Levels, untitled.
const (
	Low    Level = "low"
	Medium Level = "medium"
	High   Level = "high"
)

// Singles has single selects from tags and from named string types.
type Singles struct {
	Size    string  `json:"size" elicit:"enum=s|m|l"`
	Meal    string  `json:"meal,omitempty" elicit:"optional,enum=veg:Vegetarian|'fish, grilled':Fish|'a:b|c':Odd one,default=veg"`
	Window  Window  `json:"window,omitempty" elicit:"optional,default=evening"`
	Level   *Level  `json:"level,omitempty" elicit:"optional"`
	Window2 *Window `json:"window2,omitempty" elicit:"optional,enum=morning|evening"`
}

// Multis has multi selects on []string and on slices of named string types.
type Multis struct {
	Tags     []string `json:"tags" elicit:"enum=a|b|c,minItems=1"`
	Toppings []string `json:"toppings,omitempty" elicit:"optional,enum=ch:Cheese|ham:Ham|pi:Pineapple,maxItems=2,default=ch|ham"`
	Windows  []Window `json:"windows,omitempty" elicit:"optional,minItems=1,maxItems=2"`
	Levels   []Level  `json:"levels,omitempty" elicit:"optional,default=low"`
	Empty    []string `json:"empty,omitempty" elicit:"optional,enum=x|y,minItems=0,maxItems=0"`
}
