package runtime

// KeyID exposes keyID to the external tests.
var KeyID = keyID

// SetDecodedHook sets decodedHook for a test and returns the function that
// restores it.
func SetDecodedHook(h func(site string)) (restore func()) {
	old := decodedHook
	decodedHook = h
	return func() { decodedHook = old }
}
