package corpus

// Seats is a tool whose handler lacks the method its choices field needs.
type Seats struct {
	Seat string `json:"seat" elicit:"choices"` // want `^elicit tag on Seat: choices takes its options from the handler's SeatChoices method, which seatsHandler lacks; add func \(seatsHandler\) SeatChoices\(ctx context\.Context, args \*Seats\) \(\[\]runtime\.Choice, error\), listing the options of seat for each call; go run github.com/mcpgen/mcpgen/cmd/mcpgen-vet -fix ./... adds a stub \(docs/questions\.md, "Run-time choices"\)$`
}

// seatsHandler handles Seats.
type seatsHandler struct{}
