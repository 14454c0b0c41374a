package httpserve

import "time"

// SetBodyTimeout makes [BodyDeadline] use d until the returned function runs.
func SetBodyTimeout(d time.Duration) (restore func()) {
	old := bodyTimeout
	bodyTimeout = d
	return func() { bodyTimeout = old }
}
