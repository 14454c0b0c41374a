package corpus

// Numbers are bounds and defaults outside what the Go type can hold.
type Numbers struct {
	Z2      *float32 `json:"z2" elicit:"optional,default=1e39"`       // want `^elicit tag on Z2: default=1e39: outside what float32 can hold \(-3\.4028234663852886e\+38 to 3\.4028234663852886e\+38\); pick a default in that range, or use float64$`
	Max32   *float32 `json:"max32" elicit:"optional,maximum=1e39"`    // want `^elicit tag on Max32: maximum=1e39 is outside what float32 can hold \(-3\.4028234663852886e\+38 to 3\.4028234663852886e\+38\); write a bound in that range, or use float64$`
	Min32   *float32 `json:"min32" elicit:"optional,minimum=-3.5e38"` // want `^elicit tag on Min32: minimum=-3\.5e38 is outside what float32 can hold \(-3\.4028234663852886e\+38 to 3\.4028234663852886e\+38\); write a bound in that range, or use float64$`
	Max64   *float64 `json:"max64" elicit:"optional,maximum=1e309"`   // want `^elicit tag on Max64: maximum=1e309 is outside what float64 can hold \(-1\.7976931348623157e\+308 to 1\.7976931348623157e\+308\); write a bound in that range$`
	Def64   *float64 `json:"def64" elicit:"optional,default=-2e308"`  // want `^elicit tag on Def64: default=-2e308: outside what float64 can hold \(-1\.7976931348623157e\+308 to 1\.7976931348623157e\+308\); pick a default in that range$`
	Inf     *float64 `json:"inf" elicit:"optional,maximum=+Inf"`      // want `^elicit tag on Inf: maximum=\+Inf is not a number; write a finite decimal number, e\.g\. maximum=1 or maximum=0\.5$`
	NaN     *float32 `json:"nan" elicit:"optional,default=NaN"`       // want `^elicit tag on NaN: default=NaN: NaN is a number \(float32\); write a finite decimal number, e\.g\. default=1\.5$`
	Edge32  *float32 `json:"edge32" elicit:"optional,minimum=-3.4028234663852886e38,maximum=3.4028234663852886e38,default=1e38"`
	Past64  *uint64  `json:"past64" elicit:"optional,maximum=18446744073709551616"`                              // want `^elicit tag on Past64: maximum=18446744073709551616 is outside what uint64 can hold \(0 to 18446744073709551615\); write a bound in that range, or use a wider type$`
	PastI64 *int64   `json:"pastI64" elicit:"optional,minimum=-9223372036854775809"`                             // want `^elicit tag on PastI64: minimum=-9223372036854775809 is outside what int64 can hold \(-9223372036854775808 to 9223372036854775807\); write a bound in that range, or use a wider type$`
	Sci     *int64   `json:"sci" elicit:"optional,maximum=1e19"`                                                 // want `^elicit tag on Sci: maximum=1e19 is too large to read exactly in that notation; write it in plain digits, e\.g\. maximum=10000000000000000000$`
	Close   *int64   `json:"close" elicit:"optional,minimum=9223372036854775807,maximum=9223372036854775806"`    // want `^elicit tag on Close: minimum=9223372036854775807 is above maximum=9223372036854775806, so no value can satisfy both; swap them or fix one$`
	CloseD  *uint64  `json:"closeD" elicit:"optional,maximum=18446744073709551614,default=18446744073709551615"` // want `^elicit tag on CloseD: default=18446744073709551615: above maximum=18446744073709551614; pick a default within the bounds$`
	Exact   *int64   `json:"exact" elicit:"optional,minimum=-9223372036854775808,maximum=1e3,default=-9223372036854775808"`
}
