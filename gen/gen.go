// Package gen turns the model of package annotate into Go files with
// github.com/dave/jennifer: for each annotated struct T, <t>_elicit.go (the
// generated API: MissingFields, RequestedSchema, ApplyContent, ApplyPartial,
// Validate, the handler interface and the flow constructor; rewritten on
// every run) and <t>_handler.go (the user's handler skeleton, written once).
// It never loads code itself.
package gen

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"path/filepath"
	goruntime "runtime"
	"sync"

	"github.com/dave/jennifer/jen"

	"github.com/mcpgen/mcpgen/annotate"
	"github.com/mcpgen/mcpgen/internal/header"
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
	// Remove marks a stale file of mcpgen's own output (see
	// annotate.Package.Stale): Write removes it. Its Content is the stub
	// that empties it instead when Defer is set.
	Remove bool
	// Defer, with Remove: replace the file by Content, a stub the build
	// ignores whose own //go:generate line removes it (emptiedStub). `go
	// generate` needs it: it opens every file of the package it listed
	// before the first directive ran.
	Defer bool
}

// Generate returns the files for every struct of pkg, in order: for each, the
// generated file and then the handler file (none when the package already
// declares the handler type: Struct.HandlerDeclared), then the package's
// tools file (annotate.ToolsFileName, when it has tools), and last the stale
// files to remove (pkg.Stale), but for one whose path a struct now writes,
// which its new content replaces. Files go into the directory of the file that
// declares the struct. Structs are rendered concurrently.
func Generate(pkg *annotate.Package) ([]File, error) {
	out := make([]File, 2*len(pkg.Structs))
	errs := make([]error, len(pkg.Structs))
	sem := make(chan struct{}, goruntime.GOMAXPROCS(0))
	var wg sync.WaitGroup
	for i, s := range pkg.Structs {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			dir := filepath.Dir(s.File)
			if err := checkNumbers(s); err != nil {
				errs[i] = err
				return
			}
			src, err := renderFor(pkg, func(aliases map[string]string) *jen.File { return elicitFile(pkg, s, aliases) })
			if err != nil {
				errs[i] = fmt.Errorf("%s: rendering %s: %w", s.Name, s.Names.ElicitFile, err)
				return
			}
			out[2*i] = File{Path: filepath.Join(dir, s.Names.ElicitFile), Content: header.Seal(src)}
			if s.HandlerDeclared || s.Question {
				return
			}
			hsrc, err := renderFor(pkg, func(aliases map[string]string) *jen.File { return handlerFile(pkg, s, aliases) })
			if err != nil {
				errs[i] = fmt.Errorf("%s: rendering %s: %w", s.Name, s.Names.HandlerFile, err)
				return
			}
			out[2*i+1] = File{Path: filepath.Join(dir, s.Names.HandlerFile), Content: hsrc, Once: true}
		}()
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	files := out[:0]
	written := map[string]bool{}
	for _, f := range out {
		if f.Path != "" {
			files = append(files, f)
			written[filepath.Clean(f.Path)] = true
		}
	}
	tools, ok, err := toolsFile(pkg)
	if err != nil {
		return nil, err
	}
	if ok {
		files = append(files, tools)
		written[filepath.Clean(tools.Path)] = true
	}
	for _, st := range pkg.Stale {
		if written[filepath.Clean(st.Path)] {
			continue // the new content replaces it (a rename by letter case only)
		}
		files = append(files, File{Path: st.Path, Remove: true, Content: emptiedStub(st.Path, staleWhat(st))})
	}
	return files, nil
}

// checkNumbers refuses a model whose float bounds or defaults are not finite
// or do not fit the field's Go type: the literals in the generated code would
// not compile (float32(1e+39)) or would name an infinity (+Inf). annotate
// reports these at the tag; this is the backstop for models built otherwise.
func checkNumbers(s *annotate.Struct) error {
	for _, fd := range s.Fields {
		if fd.Kind != annotate.Number {
			continue
		}
		lim := math.MaxFloat64
		if fd.Basic == "float32" {
			lim = math.MaxFloat32
		}
		check := func(what string, x float64) error {
			if math.IsNaN(x) || math.Abs(x) > lim {
				return fmt.Errorf("%s.%s: %s %v does not fit in %s", s.Name, fd.GoName, what, x, fd.Basic)
			}
			return nil
		}
		var errs []error
		if fd.Minimum != nil {
			errs = append(errs, check("minimum", *fd.Minimum))
		}
		if fd.Maximum != nil {
			errs = append(errs, check("maximum", *fd.Maximum))
		}
		if fd.Default != nil {
			errs = append(errs, check("default", fd.Default.Float))
		}
		if err := errors.Join(errs...); err != nil {
			return err
		}
	}
	return nil
}

// render renders f (jennifer's output is gofmt-clean) and groups its imports
// the way goimports does: standard library first, then a blank line, then
// the rest, so the output reads like hand-written code. Grouping the lines of
// the import block here costs nothing next to reparsing and reprinting the
// file (which imports.Process would do).
func render(f *jen.File) ([]byte, error) {
	var buf bytes.Buffer
	if err := f.Render(&buf); err != nil {
		return nil, err
	}
	return groupImports(buf.Bytes()), nil
}

// groupImports splits the first parenthesised import block of gofmt-clean
// src, whose lines are sorted by path, into the standard library's and the
// others', standard first. Lines hold one import spec each (jennifer's form).
func groupImports(src []byte) []byte {
	const open, closing = "\nimport (\n", "\n)\n"
	start := bytes.Index(src, []byte(open))
	if start < 0 {
		return src
	}
	body := start + len(open)
	end := bytes.Index(src[body:], []byte(closing))
	if end < 0 {
		return src
	}
	var std, other [][]byte
	for _, line := range bytes.Split(src[body:body+end], []byte("\n")) {
		q := bytes.IndexByte(line, '"')
		if q < 0 {
			return src // not jennifer's one-spec-per-line form: leave it alone
		}
		path := line[q+1:]
		if slash := bytes.IndexByte(path, '/'); slash >= 0 {
			path = path[:slash]
		}
		if bytes.IndexByte(path, '.') >= 0 {
			other = append(other, line)
		} else {
			std = append(std, line)
		}
	}
	if len(std) == 0 || len(other) == 0 {
		return src
	}
	out := make([]byte, 0, len(src)+1)
	out = append(out, src[:body]...)
	out = append(out, bytes.Join(std, []byte("\n"))...)
	out = append(out, "\n\n"...)
	out = append(out, bytes.Join(other, []byte("\n"))...)
	out = append(out, src[body+end:]...)
	return out
}
