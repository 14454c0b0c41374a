package bookflight

// BookFlightArgs are the arguments of the book_flight tool. The model passes
// origin and destination; the date, time window and number of passengers are
// asked of the user when missing.
//
//mcpgen:tool book_flight Book a flight between two airports; asks the user for the date and details it lacks.
//mcpgen:message Which day should the flight leave, and how many people are flying?
type BookFlightArgs struct {
	Origin      string  `json:"origin" jsonschema:"IATA code of the departure airport, e.g. CDG"`
	Destination string  `json:"destination" jsonschema:"IATA code of the arrival airport, e.g. JFK"`
	Date        string  `json:"date,omitempty" elicit:"required,format=date,title=Departure date,description=The day the flight leaves (YYYY-MM-DD)"`
	Window      *Window `json:"window,omitempty" elicit:"optional,title=Time of day"`
	Passengers  int     `json:"passengers,omitempty" elicit:"optional,minimum=1,maximum=9,default=1,title=Passengers"`
}

// Window is the part of the day the flight should leave in.
type Window string

// The windows offered in the form; each line comment is the choice's title.
const (
	Morning   Window = "morning"   // Morning
	Afternoon Window = "afternoon" // Afternoon
	Evening   Window = "evening"   // Evening
)
