// Package checknames has a promoted field beside a field spelled like its
// path: Inner.Date and InnerDate, whose check functions must differ
// (argsCheckInner_Date and argsCheckInnerDate); and enum constants named
// like the locals of a check function (v, ve, ok, item), which must not
// break it.
package checknames

// Inner is embedded in Args: its Date is promoted.
type Inner struct {
	Date string `json:"date,omitempty" elicit:"optional,format=date"`
}

// Args holds both.
type Args struct {
	Inner
	InnerDate string `json:"inner_date,omitempty" elicit:"optional,format=date"`
	Mode      Mode   `json:"mode,omitempty" elicit:"optional"`
	Modes     []Mode `json:"modes,omitempty" elicit:"optional"`
}

// Mode is a select whose constants are named like a check function's locals.
type Mode string

// Modes.
const (
	v    Mode = "v"
	ve   Mode = "ve"
	ok   Mode = "ok"
	item Mode = "item"
)
