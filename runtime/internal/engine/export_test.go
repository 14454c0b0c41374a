package engine

import "time"

// KeyID exposes keyID to the external tests.
var KeyID = keyID

// SetDecodedHook sets decodedHook for a test and returns the function that
// restores it.
func SetDecodedHook(h func(site string)) (restore func()) {
	old := decodedHook
	decodedHook = h
	return func() { decodedHook = old }
}

// Redefine returns a new flow built from a copy of f's definition that
// change has changed, for tests of what generated code states through
// impl.FlowSpec (a round limit, ask=always fields, another argument type);
// f does not change.
func Redefine(f *Flow, change func(d *Def)) *Flow {
	d := DefOf(f)
	change(&d)
	return NewFlow(d)
}

// MemoryExpiry returns when m drops flow's entry (zero when it holds none).
func MemoryExpiry(m *MemoryStore, flow string) time.Time {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.entries[flow].expires
}

// NewFlowIDForTest returns a new flow id as the engine draws one (22
// base64url characters).
func NewFlowIDForTest() string { return newToken() }
