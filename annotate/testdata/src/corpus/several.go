package corpus

// Several has more than one problem in one tag (each is reported, in one
// run), and tags written as interpreted string literals, whose positions
// and fixes count the escapes.
type Several struct {
	Three   string `json:"three" elicit:"requird,minLenght=3,format=emial"` // want `^elicit tag on Three: unknown option "requird"; did you mean "required"\?$` `^elicit tag on Three: unknown option "minLenght"; did you mean "minLength"\?$` `^elicit tag on Three: format=emial is not a format of the form grammar, which knows only email, uri, date and date-time; did you mean format=email\?$`
	Quoted  string "json:\"quoted\" elicit:\"optinal,format=emial\""        // want `^elicit tag on Quoted: unknown option "optinal"; did you mean "optional"\?$` `^elicit tag on Quoted: format=emial is not a format of the form grammar, which knows only email, uri, date and date-time; did you mean format=email\?$`
	Commas  string `json:"commas" elicit:"optional,,minLenght=3,"`          // want `^elicit tag on Commas: empty option \(two commas in a row, or a trailing comma\); remove the extra comma$` `^elicit tag on Commas: unknown option "minLenght"; did you mean "minLength"\?$` `^elicit tag on Commas: empty option \(two commas in a row, or a trailing comma\); remove the extra comma$`
	Escaped string "json:\"escaped\" elicit:\"\\x6dinLenght=3\""            // want `^elicit tag on Escaped: unknown option "minLenght"; did you mean "minLength"\?$`
	KeyQ    string "json:\"keyQ\" elict:\"optional\""                       // want `^struct tag key "elict" on KeyQ looks like a misspelling of "elicit", so KeyQ is not elicited; write elicit:"optional"$`
}
