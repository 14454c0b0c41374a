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
// The executable is kept where the same dir, pkg and env always put it:
// under the user's cache directory (os.UserCacheDir; the temporary
// directory when there is none), mcpgen-test-programs/KEY/NAME, KEY a
// digest of the three. There go build finds it up to date and links
// nothing when nothing it is built from changed (it compares the build ID
// it stamped in the file, go help cache): a program the suite runs from
// several test binaries, or ran in the last run, is linked once. Go build
// runs once per process for a key; across processes it runs under a lock
// on KEY's directory (flock, where the system has it), so that no process runs the file
// while another writes it.
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
	sum := sha256.Sum256([]byte(strings.Join(append([]string{abs, target, goflags}, env...), "\x00")))
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

// programsDir is the directory of [Program]'s keys.
var programsDir = func() string {
	base, err := os.UserCacheDir()
	if err != nil {
		base = os.TempDir()
	}
	return filepath.Join(base, "mcpgen-test-programs")
}

// build runs go build for [Program], under the lock of the key's directory.
func build(dir, target, key, goflags string, env []string) (string, error) {
	out := filepath.Join(programsDir(), key)
	if err := os.MkdirAll(out, 0o755); err != nil {
		return "", err
	}
	unlock, err := lock(filepath.Join(out, "lock"))
	if err != nil {
		return "", fmt.Errorf("locking %s: %w", out, err)
	}
	defer unlock()
	name := path.Base(filepath.ToSlash(target))
	if target == "." {
		name = filepath.Base(dir)
	}
	if runtime.GOOS == "windows" {
		name += ".exe"
	}
	exe := filepath.Join(out, name)
	cmd := exec.Command("go", "build", "-o", exe, target)
	cmd.Dir = dir
	cmd.Env = append(append(os.Environ(), env...), "GOFLAGS="+goflags)
	if msg, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("go build %s (in %s): %v\n%s", target, dir, err, msg)
	}
	return exe, nil
}
