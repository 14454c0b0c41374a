package runtime

// KeyID exposes keyID to the external tests.
var KeyID = keyID
