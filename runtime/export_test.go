package runtime

// KeyID exposes keyID to the external tests.
var KeyID = keyID

// QuickPlainCheck reports whether f's input schema compiled for the quick
// check of valid plain arguments (checkPlain).
func QuickPlainCheck(f *Flow) bool {
	_ = f.checkPlain(nil)
	v, _ := plainSchemas.Load(f)
	ps, ok := v.(*plainSchema)
	return ok && ps.quick != nil
}
