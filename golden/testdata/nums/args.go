package nums

// Ints has every integer size, signed and unsigned, plain and pointer.
type Ints struct {
	I    *int    `json:"i,omitempty" elicit:""`
	I8   int8    `json:"i8,omitempty" elicit:"optional"`
	I16  *int16  `json:"i16,omitempty" elicit:"optional,minimum=-300,maximum=300,default=-300"`
	I32  int32   `json:"i32,omitempty" elicit:"optional,minimum=1"`
	I64  *int64  `json:"i64,omitempty" elicit:"optional,default=-9007199254740993"`
	U    uint    `json:"u,omitempty" elicit:"optional,maximum=1000"`
	U8   *uint8  `json:"u8,omitempty" elicit:"optional,default=255"`
	U16  uint16  `json:"u16,omitempty" elicit:"optional,minimum=10,maximum=20,default=15"`
	U32  *uint32 `json:"u32,omitempty" elicit:"optional,minimum=0"`
	U64  uint64  `json:"u64,omitempty" elicit:"optional,default=18446744073709551615"`
	Age  Age     `json:"age,omitempty" elicit:"minimum=1,maximum=130"`
	Rune *rune   `json:"rune,omitempty" elicit:"optional"`
	Low  *int64  `json:"low,omitempty" elicit:"optional,minimum=-9223372036854775808,maximum=9223372036854775806"`
	High *uint64 `json:"high,omitempty" elicit:"optional,minimum=1e3,maximum=18446744073709551614"`
	// Int and uint fields without bounds: only the platform's int size
	// (strconv.IntSize) limits them, and defaults at the 32-bit edges.
	UP    *uint `json:"up,omitempty" elicit:"optional"`
	Count Count `json:"count,omitempty" elicit:"optional"`
	Size  Size  `json:"size,omitempty" elicit:"optional,minimum=1"`
	Edge  *int  `json:"edge,omitempty" elicit:"optional,default=-2147483648"`
	UEdge *uint `json:"uedge,omitempty" elicit:"optional,default=4294967295"`
}

// Count is a named int type.
type Count int

// Size is a named uint type.
type Size uint

// Age is a named integer type.
type Age uint8

// Floats has both float sizes, plain and pointer, bounds and defaults.
type Floats struct {
	F64   *float64 `json:"f64,omitempty" elicit:""`
	F32   float32  `json:"f32,omitempty" elicit:"optional"`
	Ratio float64  `json:"ratio,omitempty" elicit:"optional,minimum=-0.5,maximum=2.5,default=0.25"`
	Temp  *float32 `json:"temp,omitempty" elicit:"optional,minimum=-273.15,default=21.5"`
	Price Price    `json:"price,omitempty" elicit:"minimum=0.01"`
	Scale float32  `json:"scale,omitempty" elicit:"optional,minimum=0.7,maximum=1.3"`
	Edge  *float32 `json:"edge,omitempty" elicit:"optional,minimum=-3.4028234663852886e38,maximum=3.4028234663852886e38,default=-1e38"`
	Tiny  *float32 `json:"tiny,omitempty" elicit:"optional,minimum=1e-50,default=1e-40"`
}

// Price is a named float type.
type Price float64

// Bools has bool pointers (required and optional) and plain optional bools.
type Bools struct {
	Agree   *bool `json:"agree,omitempty" elicit:""`
	Opt     *bool `json:"opt,omitempty" elicit:"optional,default=false"`
	On      bool  `json:"on,omitempty" elicit:"optional,default=true"`
	Off     bool  `json:"off,omitempty" elicit:"optional"`
	Flagged Flag  `json:"flagged,omitempty" elicit:"optional"`
}

// Flag is a named bool type.
type Flag bool
