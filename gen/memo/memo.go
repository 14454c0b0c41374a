// Package memo lets a rerun of mcpgen that has nothing to do skip loading
// and type-checking its packages, the way the go command's build cache lets
// a rebuild skip compiling: a run whose every generated file was found
// current records a key of everything its output was computed from, with a
// note (the driver's: the run's warnings, so that a memoised run prints
// them too), and a later run with the same key exits at once with that note.
//
// The key is the SHA-256 of:
//   - the running executable's bytes (the renderer, the model, the version:
//     all of mcpgen);
//   - the working directory, the command line and the environment variables
//     that steer the go command (GOOS, GOFLAGS, …);
//   - the output of one `go list -e -deps` of the run's patterns, without
//     -export (so nothing is compiled): for every package and every package
//     it imports, its import path, directory, module (path, version,
//     replacement, go version), build context (GOOS, GOARCH, cgo, build,
//     tool and release tags) and file names;
//   - the go command's environment file ($GOENV);
//   - the bytes of every Go and ignored Go file of every package that can
//     change without a new version: the packages of the main module, of
//     replaced modules and of workspace modules, generated files and handler
//     files included. A standard library package is keyed by the toolchain's
//     VERSION file, a package of the module cache by its module's path and
//     version (the cache is read-only, and go.sum pins its content).
//
// A run is not keyed (and so always loads) when such a package uses cgo (C
// headers anywhere make its types) or when GOFLAGS names an -overlay (it
// replaces files without changing them on disk).
//
// So any change that could render differently (a tag, a struct, a constant
// in another package of the module, a dependency's version, the toolchain,
// mcpgen itself) or any edit of a generated file changes the key, and the
// run loads, checks and renders as usual. `mcpgen -check` never consults the
// memo: it is the independent check that the memo never hides a stale file.
//
// Each invocation (directory, command line, environment) has one slot, a
// file holding the last key found current and its note, under $MCPGEN_CACHE or else
// os.UserCacheDir()/mcpgen; MCPGEN_CACHE=off turns the memo off.
//
// It is part of mcpgen's generator, exported for the driver and the mcpgen command only: its API
// carries no compatibility promise.
package memo

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// EnvCache names the environment variable that sets the memo's directory;
// the value "off" turns the memo off.
const EnvCache = "MCPGEN_CACHE"

// goEnv lists the environment variables of the go command that can change
// what go list and packages.Load see (go help environment).
var goEnv = []string{"GOOS", "GOARCH", "GOFLAGS", "CGO_ENABLED", "GOEXPERIMENT", "GOWORK", "GO111MODULE",
	"GOTOOLCHAIN", "GODEBUG", "GOROOT", "GOPATH", "GOMODCACHE", "GOENV", "GOAMD64", "GOARM", "GO386", "GOARM64", "GOPPC64", "GORISCV64", "GOWASM"}

// listTemplate is go list's -f template: one block per package, each line
// a tag letter, so that the files of a package follow its module and dir.
// A standard package's root is the go command's GOROOT: go list gives the
// standard library's vendored packages (vendor/golang.org/x/net/…) the
// module cache's directory of that module as Root when the build also uses
// the module, and that directory has no VERSION file.
const listTemplate = `P {{.ImportPath}} {{.Name}} {{.Standard}} {{.DepOnly}}
C {{context.GOOS}} {{context.GOARCH}} {{context.CgoEnabled}} {{context.BuildTags}} {{context.ToolTags}} {{context.ReleaseTags}}
{{with .Module}}M {{.Path}}	{{.Version}}	{{.Dir}}	{{.GoVersion}}{{with .Replace}}	=> {{.Path}} {{.Version}} {{.Dir}}{{end}}
{{end}}D {{.Dir}}
R {{if .Standard}}{{context.GOROOT}}{{else}}{{.Root}}{{end}}
{{with .Error}}X {{.}}
{{end}}{{range .DepsErrors}}X {{.}}
{{end}}{{range .GoFiles}}F {{.}}
{{end}}{{range .CgoFiles}}G {{.}}
{{end}}{{range .IgnoredGoFiles}}F {{.}}
{{end}}`

// Memo is the key of one run and where it is recorded.
type Memo struct {
	cfg  Config // the run, keyed again by Record
	slot string // the file that holds the last key found current
	key  string // hex SHA-256 of the run's inputs
	sums []byte // the SHA-256s of the files in the key, in order
}

// Config says which run to key.
type Config struct {
	Dir       string   // the working directory ("" = current)
	Args      []string // the command line, flags and patterns
	Patterns  []string // package patterns (default ".")
	BuildTags []string // build tags (-tags)
}

// New keys the run of cfg. It returns nil when the memo is off or the run
// cannot be keyed (go list fails or reports an error, a file cannot be
// read, the toolchain has no VERSION file): the run then does its work.
func New(cfg Config) *Memo {
	dir, exe := Dir(), ExecutableDigest()
	if dir == "" || exe == "" {
		return nil
	}
	wd := cfg.Dir
	if wd == "" {
		var err error
		if wd, err = os.Getwd(); err != nil {
			return nil
		}
	}
	inv := sha256.New()
	io.WriteString(inv, "mcpgen memo v1\x00"+wd+"\x00"+strings.Join(cfg.Args, "\x00")+"\x00")
	for _, v := range goEnv {
		val, ok := os.LookupEnv(v)
		io.WriteString(inv, v+"="+val+"\x00")
		if !ok {
			inv.Write([]byte{1})
		}
	}
	// The go command's own environment file may set GOFLAGS and more.
	envFile, _ := os.ReadFile(goEnvFile())
	inv.Write(envFile)
	if strings.Contains(os.Getenv("GOFLAGS"), "-overlay") || bytes.Contains(envFile, []byte("-overlay")) {
		return nil // an overlay replaces files without changing them on disk
	}
	invocation := inv.Sum(nil)

	patterns := cfg.Patterns
	if len(patterns) == 0 {
		patterns = []string{"."}
	}
	args := []string{"list", "-e", "-deps", "-f", listTemplate}
	if len(cfg.BuildTags) > 0 {
		args = append(args, "-tags="+strings.Join(cfg.BuildTags, ","))
	}
	cmd := exec.Command("go", append(append(args, "--"), patterns...)...)
	cmd.Dir = cfg.Dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil || stderr.Len() > 0 {
		return nil
	}
	m := &Memo{cfg: cfg, slot: filepath.Join(dir, "current", hex.EncodeToString(invocation[:16]))}
	h := sha256.New()
	h.Write(invocation)
	io.WriteString(h, exe)
	h.Write(out)
	versions := map[string][]byte{} // GOROOT → its VERSION file
	var pkgDir string
	var standard, mutable bool
	for line := range strings.Lines(string(out)) {
		line = strings.TrimSuffix(line, "\n")
		tag, rest, _ := strings.Cut(line, " ")
		switch tag {
		case "P":
			// A package is mutable unless it is the standard library's or
			// in the module cache; its M line, if any, says which.
			f := strings.Fields(rest)
			standard = len(f) > 2 && f[2] == "true"
			mutable = !standard
		case "M":
			f := strings.Split(rest, "\t")
			if len(f) == 4 && f[1] != "" && strings.HasSuffix(f[2], "@"+f[1]) {
				mutable = false // path@version in the module cache, not replaced
			}
		case "D":
			pkgDir = rest
		case "R":
			if _, seen := versions[rest]; standard && !seen {
				v, err := os.ReadFile(filepath.Join(rest, "VERSION"))
				if err != nil {
					return nil // a toolchain built from source: no version to key it by
				}
				versions[rest] = v
				h.Write(v)
			}
		case "X":
			return nil // let the load report it
		case "G":
			if mutable {
				return nil // cgo: C headers, wherever they are, make Go types
			}
		case "F":
			if !mutable {
				continue
			}
			name := filepath.Join(pkgDir, rest)
			b, err := os.ReadFile(name)
			if err != nil {
				return nil
			}
			sum := sha256.Sum256(b)
			m.sums = append(m.sums, sum[:]...)
		}
	}
	h.Write(m.sums)
	m.key = hex.EncodeToString(h.Sum(nil))
	return m
}

// Recall reports whether a run with this key found every generated file
// current, and returns the note it recorded. A nil Memo is never current.
func (m *Memo) Recall() (note []byte, current bool) {
	if m == nil {
		return nil, false
	}
	b, err := os.ReadFile(m.slot)
	if err != nil {
		return nil, false
	}
	key, note, ok := bytes.Cut(b, []byte("\n"))
	if !ok || string(key) != m.key {
		return nil, false
	}
	return note, true
}

// Record notes that this run found every generated file current and wrote
// nothing, with note (what [Memo.Recall] returns), unless its inputs changed
// while the run loaded its packages: the run is keyed again (go list again,
// every file read again), so that a file added, removed or changed meanwhile
// (by another run, a checkout, an editor) leaves nothing recorded. It is a
// cache: a failure to write is ignored. A nil Memo records nothing.
func (m *Memo) Record(note []byte) {
	if m == nil {
		return
	}
	if again := New(m.cfg); again == nil || again.key != m.key {
		return
	}
	WriteFile(m.slot, m.key+"\n"+string(note))
}

// goEnvFile is the go command's environment file (go help environment:
// $GOENV, else os.UserConfigDir()/go/env).
func goEnvFile() string {
	if f := os.Getenv("GOENV"); f != "" {
		return f
	}
	dir, err := os.UserConfigDir()
	if err != nil {
		return ""
	}
	return filepath.Join(dir, "go", "env")
}
