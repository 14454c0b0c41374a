package everykind

import "time"

// Ticket is the kind of conference ticket; its constants are the choices.
type Ticket string

// The tickets offered (no line comments: an untitled select).
const (
	Standard Ticket = "standard"
	Student  Ticket = "student"
	Speaker  Ticket = "speaker"
)

// Registration are the arguments of the register tool: one field of every
// kind a form can ask, ten of them pointers so that "not given" and a zero
// answer differ. The model usually passes the name and email; the rest is
// asked of the attendee.
//
//mcpgen:tool register Register an attendee for the conference; asks the attendee for what the call lacks.
//mcpgen:message A few details to complete your registration.
type Registration struct {
	Name       string     `json:"name" elicit:"minLength=2,maxLength=60,title=Full name"`
	Email      *string    `json:"email,omitempty" elicit:"format=email,maxLength=254,title=Email"`
	Website    *string    `json:"website,omitempty" elicit:"optional,format=uri,title=Website"`
	Birthday   *string    `json:"birthday,omitempty" elicit:"optional,format=date,title=Date of birth"`
	Arrival    *time.Time `json:"arrival,omitempty" elicit:"title=Arrival,description=When you arrive at the venue"`
	Guests     *int       `json:"guests,omitempty" elicit:"minimum=0,maximum=4,title=Guests"`
	Budget     *float64   `json:"budget,omitempty" elicit:"optional,minimum=0,maximum=10000,title=Hotel budget per night (EUR)"`
	Newsletter *bool      `json:"newsletter,omitempty" elicit:"title=Subscribe to the newsletter"`
	Ticket     *Ticket    `json:"ticket,omitempty" elicit:"title=Ticket"`
	Seat       *string    `json:"seat,omitempty" elicit:"optional,enum=aisle:Aisle|window:Window|front:Front row,title=Seat"`
	Diet       *string    `json:"diet,omitempty" elicit:"optional,enum=none|vegetarian|vegan|halal|kosher,title=Diet"`
	Note       string     `json:"note,omitempty" elicit:"optional,maxLength=200,title=Note to the organisers"`
	Tracks     []string   `json:"tracks,omitempty" elicit:"enum=go|rust|web|data|security,minItems=1,maxItems=3,title=Tracks"`
	Workshops  []string   `json:"workshops,omitempty" elicit:"optional,enum=testing:Testing|profiling:Profiling|fuzzing:Fuzzing,maxItems=2,title=Workshops"`
}
