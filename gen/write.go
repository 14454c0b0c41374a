package gen

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/mcpgen/mcpgen/internal/header"
)

// WriteResult says what Write did with each file.
type WriteResult struct {
	Written   []string // files created or changed
	Unchanged []string // files whose content was already current
	Kept      []string // handler files that exist and belong to the user
	Removed   []string // stale generated files removed (File.Remove)
	Emptied   []string // stale generated files replaced by a stub (File.Defer)
	// HandEdited are the generated files in Written that had been edited by
	// hand since mcpgen wrote them (header.HandEdited): the edit is gone
	// from the file, and the command says so.
	HandEdited []string
}

// Write writes files all or nothing: every changed file is first written to a
// temporary file beside it, and only when all of them are written are they
// renamed into place. A file whose content is unchanged is not rewritten
// (its modification time stays), and a file marked Once is never
// overwritten. Files marked Remove are removed (or, with Defer, emptied to
// their Content) only after every write has
// succeeded, and only when they still start with mcpgen's header (header.IsGenerated)
// (mcpgen's own output; anything else is left alone).
func Write(files []File) (WriteResult, error) {
	var res WriteResult
	type pending struct {
		tmp, dst string
		edited   bool
	}
	var todo []pending
	cleanup := func() {
		for _, p := range todo {
			os.Remove(p.tmp)
		}
	}
	var remove []File
	for _, f := range files {
		if f.Remove {
			remove = append(remove, f)
			continue
		}
		old, err := os.ReadFile(f.Path)
		switch {
		case err == nil && f.Once:
			res.Kept = append(res.Kept, f.Path)
			continue
		case err == nil && bytes.Equal(old, f.Content):
			res.Unchanged = append(res.Unchanged, f.Path)
			continue
		case err == nil && !header.IsGenerated(old):
			// A file of the user's (no mcpgen header) where mcpgen would
			// write: never overwritten, and nothing else is written either.
			cleanup()
			return WriteResult{}, fmt.Errorf("%s exists and was not written by mcpgen (its first line is not mcpgen's %q … \"DO NOT EDIT.\" header), so mcpgen will not overwrite it: rename or move your file, or delete it if it is an old copy", f.Path, header.Prefix)
		case err != nil && !errors.Is(err, os.ErrNotExist):
			cleanup()
			return WriteResult{}, fmt.Errorf("reading %s: %w", f.Path, err)
		}
		edited := err == nil && header.HandEdited(old)
		tmp, err := os.CreateTemp(filepath.Dir(f.Path), ".mcpgen-*.tmp")
		if err != nil {
			cleanup()
			return WriteResult{}, fmt.Errorf("writing %s: %w", f.Path, err)
		}
		todo = append(todo, pending{tmp.Name(), f.Path, edited})
		_, werr := tmp.Write(f.Content)
		cerr := tmp.Close()
		if werr != nil || cerr != nil {
			cleanup()
			return WriteResult{}, fmt.Errorf("writing %s: %w", f.Path, errors.Join(werr, cerr))
		}
		if err := os.Chmod(tmp.Name(), 0o644); err != nil {
			cleanup()
			return WriteResult{}, fmt.Errorf("writing %s: %w", f.Path, err)
		}
	}
	for i, p := range todo {
		if err := os.Rename(p.tmp, p.dst); err != nil {
			for _, q := range todo[i:] {
				os.Remove(q.tmp)
			}
			return res, fmt.Errorf("renaming into %s: %w", p.dst, err)
		}
		res.Written = append(res.Written, p.dst)
		if p.edited {
			res.HandEdited = append(res.HandEdited, p.dst)
		}
	}
	for _, f := range remove {
		b, err := os.ReadFile(f.Path)
		if errors.Is(err, os.ErrNotExist) || err == nil && !header.IsGenerated(b) {
			continue
		}
		if err == nil && f.Defer {
			if !bytes.Equal(b, f.Content) {
				err = os.WriteFile(f.Path, f.Content, 0o644)
			}
			if err != nil {
				return res, fmt.Errorf("emptying stale %s: %w", f.Path, err)
			}
			res.Emptied = append(res.Emptied, f.Path)
			continue
		}
		if err == nil {
			err = os.Remove(f.Path)
		}
		if err != nil && !errors.Is(err, os.ErrNotExist) {
			return res, fmt.Errorf("removing stale %s: %w", f.Path, err)
		}
		res.Removed = append(res.Removed, f.Path)
	}
	return res, nil
}

// emptiedStub is what a stale file becomes when it cannot be removed yet
// (File.Defer): mcpgen's header, a build constraint that leaves it out of
// every build and every later go generate's file list, and a //go:generate
// line that removes it. `go generate` lists a package's files before it
// runs any directive and then reads each when it reaches it
// (cmd/go/internal/generate: os.ReadFile per file, in order), so the stub
// is read, and its directive run, in the same go generate that emptied it
// whenever the file comes after the directive that ran mcpgen. The command
// is the stub itself, run with `go run` (a file named on the command line
// builds whatever its build constraint): it exists wherever go generate
// runs, whichever way mcpgen was run. A stub go generate does not reach
// (its package came earlier, or was not listed) is removed by mcpgen's next
// run outside go generate.
func emptiedStub(path string, gone []string) []byte {
	name := filepath.Base(path)
	return []byte(Header() + "\n\n//go:build ignore\n\n" +
		"// " + header.StaleStubNote + " (" + strings.Join(gone, ", ") + "): go generate removes\n" +
		"// this file when it reaches the line below, and mcpgen run outside go generate otherwise.\n\n" +
		"//go:generate go run " + name + "\n\n" +
		"package main\n\nimport \"os\"\n\nfunc main() { os.Remove(" + strconv.Quote(name) + ") }\n")
}
