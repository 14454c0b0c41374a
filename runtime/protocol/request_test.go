package protocol

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestRequestCapabilitiesLoadsOnce(t *testing.T) {
	calls := 0
	r := &Request{LoadCapabilities: func() Capabilities {
		calls++
		return Capabilities{URLElicitation: true, Roots: true}
	}}
	want := Capabilities{URLElicitation: true, Roots: true}
	assert.Equal(t, want, r.Capabilities())
	assert.Equal(t, want, r.Capabilities())
	assert.Equal(t, 1, calls)
	assert.Nil(t, r.LoadCapabilities)
	assert.True(t, r.URLElicitation && r.Roots && !r.FormElicitation && !r.Sampling)

	plain := &Request{FormElicitation: true, Sampling: true}
	assert.Equal(t, Capabilities{FormElicitation: true, Sampling: true}, plain.Capabilities())
}

func TestErrorText(t *testing.T) {
	err := &Error{Code: CodeInvalidParams, Message: "invalid requestState"}
	assert.Equal(t, "invalid requestState (JSON-RPC -32602)", err.Error())
}
