package annotate

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"math"
	"reflect"
	"sort"
	"strconv"
)

// digestExcluded lists the members of the model that do not go into
// [ModelDigest], each with the reason it cannot change the bytes of a
// struct's generated file. Every other exported member, of every type
// reachable from [Package] and [Struct], goes in: a member added to the
// model is digested unless it is named here (a test holds this list, and
// gen's tests render with each excluded member changed to prove it is not
// in the output).
var digestExcluded = map[string]string{
	"Package.Dir":            "where the package is, not what its files say",
	"Package.Structs":        "each struct's file is digested on its own; gen renders one struct from the package's name and path and the struct",
	"Package.Stale":          "files to remove; a package with any is never skipped",
	"Package.Tools":          "they make the package's tools file, digested on its own (ToolsDigest); a struct's file names no other tool",
	"Struct.Pos":             "positions are never written into generated code",
	"Struct.File":            "the directory of the output, not its content",
	"Struct.Clients":         "which clients the client check judges the form for; it warns, and renders nothing",
	"Struct.HandlerDeclared": "whether the handler file is written, not what the generated file says; Current checks the handler file itself",
	"Field.Pos":              "positions are never written into generated code",
	"Arg.Pos":                "positions are never written into generated code",
}

// DigestExcluded returns the members of the model that [ModelDigest] leaves
// out, as "Type.Member", sorted: package gen's tests prove that none of them
// changes a generated file.
func DigestExcluded() []string {
	out := make([]string, 0, len(digestExcluded))
	for k := range digestExcluded {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// ModelDigest returns, in hex, the SHA-256 of a canonical encoding of what
// determines the generated file of s in package p: p's name and import path,
// every exported member of s and of its fields (recursively, in order; see
// digestExcluded for the few left out). The encoding is derived from the
// model's types by reflection, so a member added to the model is digested
// without being listed anywhere. The driver (gen/driver) adds a digest
// of the running executable, which holds every rule that renders (names,
// header, renderer), and skips a struct whose file on disk is what that
// executable rendered for this digest before.
func ModelDigest(p *Package, s *Struct) string {
	var e digestEncoder
	e.buf.WriteString("mcpgen model v2\n")
	e.value(reflect.ValueOf(*p), "Package")
	e.buf.WriteByte('\n')
	e.value(reflect.ValueOf(*s), "Struct")
	sum := sha256.Sum256(e.buf.Bytes())
	return hex.EncodeToString(sum[:])
}

// ToolsDigest returns, in hex, the SHA-256 of a canonical encoding of what
// determines the package's tools file (ToolsFileName): p's name, import path
// and taken names, and its tools (Package.Tools), encoded as [ModelDigest]
// encodes a model. The driver records, under it, what this executable
// renders for the tools file, as it does for each struct's file: a struct
// added in another file changes it, while every other struct's file stays
// current.
func ToolsDigest(p *Package) string {
	e := digestEncoder{include: "Package.Tools"}
	e.buf.WriteString("mcpgen tools v1\n")
	e.value(reflect.ValueOf(*p), "Package")
	sum := sha256.Sum256(e.buf.Bytes())
	return hex.EncodeToString(sum[:])
}

// digestEncoder writes a canonical, unambiguous text of a model value:
// every string quoted, every list and pointer marked, every member named.
type digestEncoder struct {
	buf bytes.Buffer
	// include is a member digestExcluded names that this digest takes
	// ("Type.Member"), "" for none.
	include string
}

func (e *digestEncoder) value(v reflect.Value, typeName string) {
	switch v.Kind() {
	case reflect.Struct:
		t := v.Type()
		e.buf.WriteString(t.Name())
		e.buf.WriteByte('{')
		for i := range t.NumField() {
			f := t.Field(i)
			if !f.IsExported() {
				continue
			}
			if _, skip := digestExcluded[t.Name()+"."+f.Name]; skip && t.Name()+"."+f.Name != e.include {
				continue
			}
			e.buf.WriteString(f.Name)
			e.buf.WriteByte(':')
			e.value(v.Field(i), t.Name()+"."+f.Name)
			e.buf.WriteByte(';')
		}
		e.buf.WriteByte('}')
	case reflect.Pointer:
		if v.IsNil() {
			e.buf.WriteString("nil")
			return
		}
		e.buf.WriteByte('&')
		e.value(v.Elem(), typeName)
	case reflect.Slice, reflect.Array:
		if v.Kind() == reflect.Slice && v.IsNil() {
			e.buf.WriteString("nil") // a nil list and an empty one may render differently
			return
		}
		fmt.Fprintf(&e.buf, "[%d:", v.Len())
		for i := range v.Len() {
			e.value(v.Index(i), typeName)
			e.buf.WriteByte(',')
		}
		e.buf.WriteByte(']')
	case reflect.Map:
		keys := v.MapKeys()
		sort.Slice(keys, func(i, j int) bool { return fmt.Sprint(keys[i]) < fmt.Sprint(keys[j]) })
		fmt.Fprintf(&e.buf, "map[%d:", len(keys))
		for _, k := range keys {
			e.value(k, typeName)
			e.buf.WriteByte('=')
			e.value(v.MapIndex(k), typeName)
			e.buf.WriteByte(',')
		}
		e.buf.WriteByte(']')
	case reflect.String:
		e.buf.WriteString(strconv.Quote(v.String()))
	case reflect.Bool:
		e.buf.WriteString(strconv.FormatBool(v.Bool()))
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		e.buf.WriteString(strconv.FormatInt(v.Int(), 10))
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		e.buf.WriteString(strconv.FormatUint(v.Uint(), 10))
	case reflect.Float32, reflect.Float64:
		// The bits: -0 and 0, and every NaN, are told apart.
		e.buf.WriteString("f" + strconv.FormatUint(math.Float64bits(v.Float()), 16))
	default:
		// A kind the model does not use yet (func, chan, interface): refuse
		// rather than digest it wrongly; the model's test catches it first.
		panic(fmt.Sprintf("annotate: ModelDigest cannot encode %s (a %s): teach digestEncoder.value this kind", typeName, v.Kind()))
	}
}
