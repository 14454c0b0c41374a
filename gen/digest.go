package gen

import (
	"bytes"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"io/fs"
	"os"
	"path/filepath"
	"runtime/debug"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/mcpgen/mcpgen/annotate"
)

// sources is this package's Go source: the renderer. Its digest goes into
// every generated file's digest, so that a renderer changed under the same
// version ("(devel)": a checkout, a directory replacement) still
// regenerates: a rerun is skipped only when the same code would write the
// same file from the same model.
//
//go:embed *.go
var sources embed.FS

// renderer is the digest of what renders a model, besides the model: this
// package's source (test files aside), the jennifer module it renders with,
// mcpgen's version and ImplVersion.
var renderer = sync.OnceValue(func() string {
	names, _ := fs.Glob(sources, "*.go")
	sort.Strings(names)
	var srcs [][]byte
	for _, n := range names {
		if strings.HasSuffix(n, "_test.go") {
			continue
		}
		b, _ := sources.ReadFile(n)
		srcs = append(srcs, b)
	}
	jennifer := ""
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, d := range bi.Deps {
			if d.Path == "github.com/dave/jennifer" {
				jennifer = d.Version
			}
		}
	}
	return strings.Join([]string{"mcpgen renderer v1", Version(), strconv.Itoa(ImplVersion), jennifer, annotate.SourceDigest(srcs...)}, "\n")
})

// digest is the digest a generated file for s carries: of this run's input
// (the model's digest and the renderer) and of the file's content without
// its digest line (rest). A file whose digest is digest(its input, its rest)
// is what this mcpgen writes for that input, unless it was edited since:
// then rest changed and so did the digest. 128 bits are plenty to tell
// inputs apart and keep the line short.
func digest(model string, rest []byte) string {
	h := sha256.New()
	h.Write([]byte(renderer()))
	h.Write([]byte{0})
	h.Write([]byte(model))
	h.Write([]byte{0})
	h.Write(rest)
	return hex.EncodeToString(h.Sum(nil)[:16])
}

// stamp puts the digest line (annotate.DigestLine) under the header of a
// rendered generated file src.
func stamp(pkg *annotate.Package, s *annotate.Struct, src []byte) []byte {
	first := bytes.IndexByte(src, '\n') + 1
	line := annotate.DigestLine(digest(annotate.ModelDigest(pkg, s), src))
	out := make([]byte, 0, len(src)+len(line)+1)
	out = append(out, src[:first]...)
	out = append(out, line...)
	out = append(out, '\n')
	return append(out, src[first:]...)
}

// Current reports whether every file [Generate] would write for pkg is on
// disk already, judged without rendering anything: each struct's generated
// file carries the digest of this run's input (the struct's model, this
// mcpgen) and of its own content, the struct's handler file exists where
// Generate writes one (never overwritten, so only its existence counts),
// and no stale file is to be removed. A command that finds the package
// current skips rendering, type-checking and writing it; a file edited by
// hand, a changed model or another mcpgen is not current.
func Current(pkg *annotate.Package) bool {
	if len(pkg.Stale) > 0 {
		return false
	}
	for _, s := range pkg.Structs {
		dir := filepath.Dir(s.File)
		b, err := os.ReadFile(filepath.Join(dir, s.Names.ElicitFile))
		if err != nil {
			return false
		}
		d, rest, ok := annotate.FileDigest(b)
		if !ok || d != digest(annotate.ModelDigest(pkg, s), rest) {
			return false
		}
		if s.HandlerDeclared || s.Question {
			continue
		}
		if _, err := os.Stat(filepath.Join(dir, s.Names.HandlerFile)); err != nil {
			return false
		}
	}
	return true
}
