// Package checknames has a promoted field beside a field spelled like its
// path: Inner.Date and InnerDate, whose check functions must differ
// (argsCheckInner_Date and argsCheckInnerDate).
package checknames

// Inner is embedded in Args: its Date is promoted.
type Inner struct {
	Date string `json:"date,omitempty" elicit:"optional,format=date"`
}

// Args holds both.
type Args struct {
	Inner
	InnerDate string `json:"inner_date,omitempty" elicit:"optional,format=date"`
}
