package corpus

import "time"

// Point is a nested struct.
type Point struct{ X, Y int }

// Kinds are options on the wrong kind of field and Go types a form cannot hold.
type Kinds struct {
	EnumBool   *bool          `json:"enumBool" elicit:"enum=yes|no"`       // want `^elicit tag on EnumBool: enum applies to strings and \[\]string, not to booleans \(EnumBool is \*bool\); a bool is already a yes/no choice: remove enum, or make the field a string$`
	FormatInt  *int           `json:"formatInt" elicit:"format=email"`     // want `^elicit tag on FormatInt: format applies to strings, not to integers \(FormatInt is \*int\); remove format, or make the field a string$`
	ItemsStr   string         `json:"itemsStr" elicit:"minItems=1"`        // want `^elicit tag on ItemsStr: minItems applies to multi selects \(\[\]string\), not to strings \(ItemsStr is string\); for a string's length use minLength$`
	LenInt     *int           `json:"lenInt" elicit:"maxLength=3"`         // want `^elicit tag on LenInt: maxLength applies to strings, not to integers \(LenInt is \*int\); for a number's bounds use maximum$`
	MinStr     string         `json:"minStr" elicit:"minimum=1"`           // want `^elicit tag on MinStr: minimum applies to integers and numbers, not to strings \(MinStr is string\); for a string's length use minLength$`
	FormatTime time.Time      `json:"formatTime" elicit:"format=email"`    // want `^elicit tag on FormatTime: format=email does not fit a time\.Time; write format=date or format=date-time \(the default\)$`
	TimeTypo   time.Time      `json:"timeTypo" elicit:"format=datetime"`   // want `^elicit tag on TimeTypo: format=datetime does not fit a time\.Time; did you mean format=date-time\?$`
	Nested     Point          `json:"nested" elicit:"optional"`            // want `^Nested has type corpus\.Point, which a form cannot hold: elicitable fields are strings, integers, numbers, bools, time\.Time, or \[\]string \(multi select\), or pointers to these; to ask for the fields of corpus\.Point, embed it \(write corpus\.Point without a field name\) and tag its fields; remove the elicit tag or mark it elicit:"-"$`
	Map        map[string]int `json:"map" elicit:"optional"`               // want `^Map has type map\[string\]int, which a form cannot hold: elicitable fields are strings, integers, numbers, bools, time\.Time, or \[\]string \(multi select\), or pointers to these; ask for each entry as its own field; remove the elicit tag or mark it elicit:"-"$`
	Ints       []int          `json:"ints" elicit:"optional"`              // want `^Ints has type \[\]int, which a form cannot hold: elicitable fields are strings, integers, numbers, bools, time\.Time, or \[\]string \(multi select\), or pointers to these; for a multi select use \[\]string with enum=a\|b\|c, or a slice of a named string type with constants; remove the elicit tag or mark it elicit:"-"$`
	Any        any            `json:"any" elicit:"optional"`               // want `^Any has type any, which a form cannot hold: elicitable fields are strings, integers, numbers, bools, time\.Time, or \[\]string \(multi select\), or pointers to these; remove the elicit tag or mark it elicit:"-"$`
	Chan       chan int       `json:"chan" elicit:"optional"`              // want `^Chan has type chan int, which a form cannot hold: elicitable fields are strings, integers, numbers, bools, time\.Time, or \[\]string \(multi select\), or pointers to these; remove the elicit tag or mark it elicit:"-"$`
	Func       func()         `json:"func" elicit:"optional"`              // want `^Func has type func\(\), which a form cannot hold: elicitable fields are strings, integers, numbers, bools, time\.Time, or \[\]string \(multi select\), or pointers to these; remove the elicit tag or mark it elicit:"-"$`
	PtrSlice   *[]string      `json:"ptrSlice" elicit:"optional,enum=a|b"` // want `^PtrSlice has type \*\[\]string, which a form cannot hold: elicitable fields are strings, integers, numbers, bools, time\.Time, or \[\]string \(multi select\), or pointers to these \(use \[\]string itself: nil already means missing\); remove the elicit tag or mark it elicit:"-"$`
	hidden     string         `elicit:"optional"`                          // want `^hidden is unexported, so encoding/json cannot set it; export it \(Hidden\) and name it in JSON with a json tag$`
}

// Generic has type parameters.
type Generic[T any] struct { // want `^Generic has type parameters; mcpgen generates methods for a concrete struct only: declare a struct without type parameters and tag its fields$`
	Name string `json:"name" elicit:"optional"`
	V    T      `json:"v"`
}

// Zero holds required fields whose zero value is a real answer.
type Zero struct {
	Agree    bool    `json:"agree" elicit:"required"`             // want `^Agree is a required bool, but false is a real answer and would read as missing: declare it as \*bool \(nil means missing\), or mark it optional$`
	Count    int     `json:"count" elicit:"minimum=0,maximum=10"` // want `^Count is a required int whose bounds allow 0, but 0 would read as missing: declare it as \*int \(nil means missing\), give it bounds that exclude 0, or mark it optional$`
	Ratio    float64 `json:"ratio" elicit:""`                     // want `^Ratio is a required float64 whose bounds allow 0, but 0 would read as missing: declare it as \*float64 \(nil means missing\), give it bounds that exclude 0, or mark it optional$`
	Negative int32   `json:"negative" elicit:"maximum=0"`         // want `^Negative is a required int32 whose bounds allow 0, but 0 would read as missing: declare it as \*int32 \(nil means missing\), give it bounds that exclude 0, or mark it optional$`
}

var _ = Kinds{}.hidden
