package racebuild

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"time"
)

// programs holds what [Program] built in this process, by key.
var programs struct {
	sync.Mutex
	built map[string]*program
}

type program struct {
	once sync.Once
	path string
	err  error
}

// Program builds the main package pkg for a test that runs it, and returns
// the executable's path. pkg is a go build argument resolved in dir: a
// directory relative to dir ("../bookflight"), which is built from that
// directory, or an import path, built from dir. env is
// added to the go command's environment (GOWORK=off, say); its GOFLAGS is
// [Flags] of this process's, so that the program builds as this binary
// was built, unless env sets GOFLAGS (to [Without] of it, for a tool
// started very many times). The error holds the go command's output.
//
// The executable is kept where the same arguments always put it: under
// the user's cache directory (os.UserCacheDir; the temporary directory when
// that cannot be made), mcpgen-test-programs/KEY/NAME, KEY a digest of dir,
// pkg, env, GOFLAGS, the go command's path and the environment variables
// that change a build (keyEnv). There go build finds it up to date and
// links nothing when nothing it is built from changed (it compares the
// build ID it stamped in the file, go help cache; no version-control stamp
// is written, so a commit or a file a test leaves in the checkout changes
// nothing): a program the suite runs from several test binaries, or ran in
// the last run, is linked once. Go build runs once per process for a key;
// across processes it runs under a lock on KEY's directory (flock, where
// the system has it), so that no process runs the file while another
// writes it, and renames a new file into place. Keys nobody asked for in
// five days are removed, as the build cache trims its own.
func Program(dir, pkg string, env ...string) (string, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	target := pkg
	if pkg == "." || pkg == ".." || strings.HasPrefix(pkg, "./") || strings.HasPrefix(pkg, "../") {
		// Built from its own directory, which decides the module or
		// workspace: one key for one directory, wherever it is named from.
		abs, target = filepath.Join(abs, pkg), "."
	}
	goflags := Flags(os.Getenv("GOFLAGS"))
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, "GOFLAGS="); ok {
			goflags = v
		}
	}
	goTool, _ := exec.LookPath("go")
	parts := []string{abs, target, goflags, goTool}
	for _, k := range keyEnv { // what else changes the build, unless env sets it
		parts = append(parts, k+"="+os.Getenv(k))
	}
	sum := sha256.Sum256([]byte(strings.Join(append(parts, env...), "\x00")))
	key := hex.EncodeToString(sum[:12])

	programs.Lock()
	if programs.built == nil {
		programs.built = map[string]*program{}
	}
	p := programs.built[key]
	if p == nil {
		p = &program{}
		programs.built[key] = p
	}
	programs.Unlock()
	p.once.Do(func() { p.path, p.err = build(abs, target, key, goflags, env) })
	return p.path, p.err
}

// keyEnv are the go command's environment variables, besides GOFLAGS,
// that change what go build links (go help environment).
var keyEnv = []string{"GOOS", "GOARCH", "GOAMD64", "GOARM", "GOARM64", "GO386", "CGO_ENABLED", "CC",
	"CGO_CFLAGS", "CGO_LDFLAGS", "GOEXPERIMENT", "GOWORK", "GOTOOLCHAIN", "GOROOT"}

// programsDirs are the directories [Program] keeps its keys in, the first
// that can be made: under the user's cache directory, else under the
// temporary directory (a HOME that cannot be written, say).
var programsDirs = func() []string {
	var dirs []string
	if base, err := os.UserCacheDir(); err == nil {
		dirs = append(dirs, filepath.Join(base, "mcpgen-test-programs"))
	}
	return append(dirs, filepath.Join(os.TempDir(), fmt.Sprintf("mcpgen-test-programs-%d", os.Getuid())))
}

// unusedFor is how long a key nobody asked for is kept: the build cache's
// own trim age (go help cache, "five days").
const unusedFor = 5 * 24 * time.Hour

// build runs go build for [Program], under the lock of the key's directory.
func build(dir, target, key, goflags string, env []string) (string, error) {
	var out string
	var err error
	for _, base := range programsDirs() {
		out = filepath.Join(base, key)
		if err = os.MkdirAll(filepath.Join(out, "tmp"), 0o700); err == nil {
			break
		}
	}
	if err != nil {
		return "", err // the last directory's: MkdirAll names it
	}
	unlock, err := lock(filepath.Join(out, ".lock")) // no package directory is named .lock
	if err != nil {
		return "", fmt.Errorf("locking %s: %w", out, err)
	}
	defer unlock()
	now := time.Now()
	_ = os.Chtimes(filepath.Join(out, ".lock"), now, now) // in use: not trimmed
	trim(filepath.Dir(out))
	name := path.Base(filepath.ToSlash(target))
	if target == "." {
		name = filepath.Base(dir)
	}
	if runtime.GOOS == "windows" {
		name += ".exe"
	}
	exe := filepath.Join(out, name)
	// No version-control stamp, which would relink on every commit and
	// every file a test writes in the checkout; the work directory beside
	// the executable, so that go build renames the linked file into place
	// rather than copying it over one that may be running.
	cmd := exec.Command("go", "build", "-buildvcs=false", "-o", exe, target)
	cmd.Dir = dir
	cmd.Env = append(append(os.Environ(), env...), "GOFLAGS="+goflags, "GOTMPDIR="+filepath.Join(out, "tmp"))
	if msg, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("go build %s (in %s): %v\n%s", target, dir, err, msg)
	}
	return exe, nil
}

// trim removes the keys in base that nobody asked for in [unusedFor]
// (their lock file's modification time, which build sets at each use), as
// the build cache trims itself. Best effort: what cannot be removed stays.
func trim(base string) {
	entries, _ := os.ReadDir(base)
	for _, e := range entries {
		lockFile := filepath.Join(base, e.Name(), ".lock")
		if fi, err := os.Stat(lockFile); err == nil && time.Since(fi.ModTime()) > unusedFor {
			_ = os.RemoveAll(filepath.Join(base, e.Name()))
		}
	}
}
