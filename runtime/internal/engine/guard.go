package engine

import (
	"fmt"
	"log/slog"
	"runtime/debug"
)

// guard runs user code (a branch, a Choices method, an exchange handler)
// and turns a panic into an error naming what panicked, so that a bad
// request never takes the server down: the SDKs run handlers on their own
// goroutines without recovering, and one panic would end the process with
// every call in it. The stack goes to logger (when set) at level Error,
// never to the client. A branch that panicked counts as run: at most once,
// its error is the flow's response, and no replay runs it again.
func guard[T any](logger *slog.Logger, what string, f func() (T, error)) (res T, err error) {
	defer func() {
		if p := recover(); p != nil {
			if logger != nil {
				logger.Error("mcpgen panic", "in", what, "panic", fmt.Sprint(p), "stack", string(debug.Stack()))
			}
			var zero T
			res, err = zero, fmt.Errorf("mcpgen: %s panicked: %v", what, p)
		}
	}()
	return f()
}
