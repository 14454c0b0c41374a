package allkinds

import "time"

// Level is a named string type whose constants are an untitled enum.
type Level string

// Levels (no line comments: untitled).
const (
	Low  Level = "low"
	High Level = "high"
)

// Color is a named string type whose constants carry titles.
type Color string

// Colors.
const (
	Red   Color = "red"   // Bright red
	Green Color = "green" // Leaf green
)

// Contact is embedded: its fields are promoted, as encoding/json does.
type Contact struct {
	Email string `json:"email" elicit:"format=email,maxLength=254"`
}

// AllKinds has one field of every kind the 2026-07-28 grammar allows.
//
//mcpgen:tool all_kinds Exercise every kind.
//mcpgen:key kinds
//mcpgen:rounds 5
type AllKinds struct {
	Contact
	Name       string         `json:"name" elicit:"minLength=2,maxLength=40,description='Your name, as on the passport'"`
	Website    string         `json:"website,omitempty" elicit:"optional,format=uri"`
	Birthday   string         `json:"birthday,omitempty" elicit:"optional,format=date"`
	Meeting    time.Time      `json:"meeting" elicit:"optional,default=2026-07-28T09:30:00Z"`
	Small      int8           `json:"small,omitempty" elicit:"optional,minimum=-5,maximum=5,default=-1"`
	Count      *int           `json:"count,omitempty" elicit:"minimum=0,maximum=100"`
	Big        uint64         `json:"big,omitempty" elicit:"optional"`
	Ratio      float64        `json:"ratio,omitempty" elicit:"optional,minimum=0.5,maximum=2.5,default=1.5"`
	Weight     *float32       `json:"weight,omitempty" elicit:"optional"`
	Agree      *bool          `json:"agree,omitempty" elicit:"title=I agree,default=true"`
	Newsletter bool           `json:"newsletter,omitempty" elicit:"optional"`
	Size       string         `json:"size,omitempty" elicit:"enum=s|m|l,default=m"`
	Meal       string         `json:"meal,omitempty" elicit:"optional,enum=veg:Vegetarian|'fish, grilled':Fish|meat:Meat"`
	Level      *Level         `json:"level,omitempty" elicit:"optional"`
	Color      Color          `json:"color,omitempty" elicit:"optional,default=green"`
	Tags       []string       `json:"tags,omitempty" elicit:"optional,enum=a|b|c,minItems=1,maxItems=2,default=a"`
	Colors     []Color        `json:"colors,omitempty" elicit:"optional,maxItems=2"`
	Confirm    string         `json:"confirm" elicit:"ask=always,enum=yes,title=Type yes to confirm"`
	Note       string         `json:"note,omitempty" jsonschema:"title=Note to the crew,description=Anything we should know"`
	Skipped    map[string]int `json:"skipped,omitempty" elicit:"-"`
	Plain      []int          `json:"plain,omitempty"`
}
