// Package gen turns the model of package annotate into Go files with
// github.com/dave/jennifer: for each annotated struct T, <t>_elicit.go (the
// generated API of DESIGN.md, rewritten on every run) and <t>_handler.go (the
// user's handler skeleton, written once). It never loads code itself.
package gen

import (
	"bytes"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/dave/jennifer/jen"
	"golang.org/x/tools/imports"

	"github.com/mcpgen/mcpgen/annotate"
)

const (
	runtimePkg = "github.com/mcpgen/mcpgen/runtime"
	schemaPkg  = "github.com/invopop/jsonschema"
)

// File is one output file.
type File struct {
	Path    string // absolute or relative path of the file to write
	Content []byte // gofmt-clean Go source
	// Once marks the user's handler file: written only when it does not exist.
	Once bool
}

// ElicitFileName is the generated file's name for struct type name:
// the lower-cased name and "_elicit.go" (stringer's convention).
func ElicitFileName(name string) string { return strings.ToLower(name) + "_elicit.go" }

// HandlerFileName is the name of the handler file written once.
func HandlerFileName(name string) string { return strings.ToLower(name) + "_handler.go" }

// Generate returns the files for every struct of pkg, in order: for each, the
// generated file and then the handler file. Files go into the directory of
// the file that declares the struct.
func Generate(pkg *annotate.Package) ([]File, error) {
	var out []File
	for _, s := range pkg.Structs {
		dir := filepath.Dir(s.File)
		src, err := render(elicitFile(pkg, s), ElicitFileName(s.Name))
		if err != nil {
			return nil, fmt.Errorf("%s: rendering %s: %w", s.Name, ElicitFileName(s.Name), err)
		}
		out = append(out, File{Path: filepath.Join(dir, ElicitFileName(s.Name)), Content: src})
		hsrc, err := render(handlerFile(pkg, s), HandlerFileName(s.Name))
		if err != nil {
			return nil, fmt.Errorf("%s: rendering %s: %w", s.Name, HandlerFileName(s.Name), err)
		}
		out = append(out, File{Path: filepath.Join(dir, HandlerFileName(s.Name)), Content: hsrc, Once: true})
	}
	return out, nil
}

// render renders f and groups its imports the way goimports does (standard
// library first), so the output reads like hand-written, gofmt-clean code.
func render(f *jen.File, name string) ([]byte, error) {
	var buf bytes.Buffer
	if err := f.Render(&buf); err != nil {
		return nil, err
	}
	return imports.Process(name, buf.Bytes(), &imports.Options{FormatOnly: true, Comments: true, TabIndent: true, TabWidth: 8})
}

func newFile(pkg *annotate.Package) *jen.File {
	f := jen.NewFilePathName(pkg.Path, pkg.Name)
	f.ImportName(runtimePkg, "runtime")
	f.ImportName(schemaPkg, "jsonschema")
	return f
}
