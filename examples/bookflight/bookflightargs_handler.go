package main

import (
	"context"
	"fmt"
	"log/slog"
	"strings"

	"github.com/mcpgen/mcpgen/runtime"
)

// bookFlightArgsHandler runs the branches of the book_flight tool: register it with
// NewBookFlightArgsFlow(bookFlightArgsHandler{}).
//
// This file is yours. mcpgen wrote it once and never overwrites it; edit the branches freely.
// If BookFlightArgsHandler changes, the assertion below stops compiling until the methods match.
type bookFlightArgsHandler struct{}

var _ BookFlightArgsHandler = bookFlightArgsHandler{}

// Accept books the flight. (A real server would call its booking backend
// here. The runtime runs it at most once per flow, on every instance that
// shares the Options.Store; keying the booking by runtime.FlowID(ctx) too
// guards the backend itself.) Each booking is logged with its flow id, which
// examples/loadbalanced/run counts.
func (bookFlightArgsHandler) Accept(ctx context.Context, args *BookFlightArgs) (*runtime.Result, error) {
	slog.InfoContext(ctx, "booked", "flow", runtime.FlowID(ctx))
	when := ""
	if args.Window != nil {
		when = " (" + string(*args.Window) + ")"
	}
	return runtime.Textf("Booked %s from %s to %s on %s%s.",
		passengers(args.Passengers), args.Origin, args.Destination, args.Date, when), nil
}

// Decline returns a clean partial result: a flight needs a date, so without
// one nothing is booked, and the model is told so (not as an error).
func (bookFlightArgsHandler) Decline(ctx context.Context, args *BookFlightArgs, declined []string) (*runtime.Result, error) {
	return runtime.Text(fmt.Sprintf("The user declined to give %s: nothing booked.", strings.Join(declined, ", "))), nil
}

// Cancel stops without side effects.
func (bookFlightArgsHandler) Cancel(ctx context.Context, args *BookFlightArgs) (*runtime.Result, error) {
	return runtime.Text("Booking cancelled by the user; nothing booked."), nil
}

// passengers says "1 passenger", "2 passengers".
func passengers(n int) string {
	if n == 1 {
		return "1 passenger"
	}
	return fmt.Sprintf("%d passengers", n)
}
