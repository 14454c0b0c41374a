package corpus

// Size is a named string type whose constants are only partly titled.
type Size string

// The sizes; M has no line comment.
const (
	S Size = "s" // Small
	M Size = "m"
	L Size = "l" // Large
)

// Shade is a named string type with no titles at all: an untitled select.
type Shade string

// The shades.
const (
	Light Shade = "light"
	Dark  Shade = "dark"
)

// Sizes are fields of partly titled and untitled named string types.
type Sizes struct {
	One   Size    `json:"one" elicit:""`          // want `^One has type Size, whose constants are only partly titled: S has a line comment \(its title\) but M \(enums\.go:9\) has none; give every constant of Size a line comment, or none$`
	Many  []Size  `json:"many" elicit:"optional"` // want `^Many has type Size, whose constants are only partly titled: S has a line comment \(its title\) but M \(enums\.go:9\) has none; give every constant of Size a line comment, or none$`
	Shade Shade   `json:"shade" elicit:""`
	Both  []Shade `json:"both" elicit:"optional"`
}
