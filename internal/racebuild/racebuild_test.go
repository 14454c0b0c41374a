package racebuild

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestShareBuild: under -race, ShareBuild adds -race to GOFLAGS once, after
// what GOFLAGS holds, and the go command reads it (go env GOFLAGS); without
// -race it leaves GOFLAGS alone.
func TestShareBuild(t *testing.T) {
	t.Setenv("GOFLAGS", "-mod=mod")
	ShareBuild()
	ShareBuild()
	want := "-mod=mod"
	if Enabled {
		want += " -race"
	}
	if got := os.Getenv("GOFLAGS"); got != want {
		t.Fatalf("GOFLAGS = %q, want %q", got, want)
	}
	out, err := exec.Command("go", "env", "GOFLAGS").Output()
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.TrimSpace(string(out)); got != want {
		t.Errorf("go env GOFLAGS = %q, want %q", got, want)
	}
}

// TestFlags: Flags adds -race once, at the end, only under -race.
func TestFlags(t *testing.T) {
	for in, race := range map[string]string{
		"":                       "-race",
		"-mod=mod":               "-mod=mod -race",
		"-race -mod=mod":         "-race -mod=mod",
		" -mod=mod  -race=true ": " -mod=mod  -race=true ",
	} {
		want := in
		if Enabled {
			want = race
		}
		if got := Flags(in); got != want {
			t.Errorf("Flags(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestWithout: Without drops every -race flag and keeps the others in order.
func TestWithout(t *testing.T) {
	for in, want := range map[string]string{
		"":                          "",
		"-race":                     "",
		"-mod=mod -race":            "-mod=mod",
		" -race=true -mod=mod  -x ": "-mod=mod -x",
	} {
		if got := Without(in); got != want {
			t.Errorf("Without(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestProgram: Program builds a main package where the same arguments
// always put it; another process asking again (the memo cleared) finds it
// up to date, and go build does not write the file again; a changed source is
// built again at the same path; a package that does not build is an error
// that holds the go command's output.
func TestProgram(t *testing.T) {
	cache := programsIn(t, t.TempDir())
	mod, write := helloModule(t)
	run := func(exe string) string {
		t.Helper()
		out, err := exec.Command(exe).CombinedOutput()
		if err != nil {
			t.Fatalf("%s: %v\n%s", exe, err, out)
		}
		return strings.TrimSpace(string(out))
	}
	env := []string{"GOWORK=off"}

	exe, err := Program(mod, ".", env...)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(exe, cache) || filepath.Base(exe) != filepath.Base(mod) {
		t.Errorf("built at %s, want %s/KEY/%s", exe, cache, filepath.Base(mod))
	}
	if got := run(exe); got != "one" {
		t.Fatalf("the program printed %q, want one", got)
	}
	first, err := os.Stat(exe)
	if err != nil {
		t.Fatal(err)
	}

	forget() // as another test binary would ask
	again, err := Program(filepath.Join(mod, "."), "./", env...)
	if err != nil {
		t.Fatal(err)
	}
	if again != exe {
		t.Fatalf("asked again: %s, want %s", again, exe)
	}
	// go build only touches an up-to-date target: the same file, not a
	// new one renamed or copied into its place.
	if fi, err := os.Stat(exe); err != nil || !os.SameFile(fi, first) {
		t.Errorf("an up-to-date program was written again (%v)", err)
	}

	write("main.go", "package main\n\nimport \"fmt\"\n\nfunc main() { fmt.Println(\"two\") }\n")
	forget()
	if exe2, err := Program(mod, ".", env...); err != nil || exe2 != exe {
		t.Fatalf("after a change: %s, %v; want %s", exe2, err, exe)
	}
	if got := run(exe); got != "two" {
		t.Errorf("after a change the program printed %q, want two", got)
	}

	write("main.go", "package main\n\nfunc main() { undefined() }\n")
	forget()
	_, err = Program(mod, ".", env...)
	if err == nil || !strings.Contains(err.Error(), "undefined: undefined") {
		t.Errorf("a package that does not build: %v", err)
	}
}

// programsIn has Program keep its keys in dirs (the first that can be
// made) for t, and forget what it built when t ends; it returns dirs[0].
func programsIn(t *testing.T, dirs ...string) string {
	t.Helper()
	old := programsDirs
	programsDirs = func() []string { return dirs }
	t.Cleanup(func() {
		programsDirs = old
		forget()
	})
	return dirs[0]
}

// forget drops what Program built in this process, as if another process
// asked.
func forget() {
	programs.Lock()
	programs.built = nil
	programs.Unlock()
}

// helloModule writes a module whose main package prints "one", and returns
// its directory and a function that writes a file there.
func helloModule(t *testing.T) (string, func(name, content string)) {
	t.Helper()
	mod := t.TempDir()
	write := func(name, content string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(mod, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("go.mod", "module example.com/hello\n\ngo 1.24\n")
	write("main.go", "package main\n\nimport \"fmt\"\n\nfunc main() { fmt.Println(\"one\") }\n")
	return mod, write
}

// TestProgramKeys: what changes a build changes the path (env, GOFLAGS,
// an environment variable of keyEnv, the directory); a cache directory
// that cannot be made gives way to the next; a key nobody asked for in five
// days is removed at the next build, one in use is kept.
func TestProgramKeys(t *testing.T) {
	fallback := t.TempDir()
	file := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	programsIn(t, filepath.Join(file, "cannot"), fallback) // under a file: cannot be made
	mod, _ := helloModule(t)
	paths := map[string]string{}
	build := func(what string, env ...string) string {
		t.Helper()
		forget()
		exe, err := Program(mod, ".", env...)
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		if !strings.HasPrefix(exe, fallback+string(filepath.Separator)) {
			t.Errorf("%s: built at %s, not under %s", what, exe, fallback)
		}
		if other, ok := paths[exe]; ok {
			t.Errorf("%s and %s share %s", other, what, exe)
		}
		paths[exe] = what
		return exe
	}
	first := build("GOWORK=off", "GOWORK=off")
	build("another env", "GOWORK=off", "GOFLAGS=-trimpath")
	sub := filepath.Join(mod, "cmd", "hello")
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(sub, "main.go"), []byte("package main\n\nfunc main() {}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	forget()
	if exe, err := Program(mod, "./cmd/hello", "GOWORK=off"); err != nil || paths[exe] != "" || filepath.Base(exe) != "hello" {
		t.Errorf("another package: %s, %v", exe, err)
	}

	build("no GOFLAGS", "GOWORK=off", "GOFLAGS=")
	t.Setenv("CGO_ENABLED", "0")
	build("CGO_ENABLED=0", "GOWORK=off", "GOFLAGS=") // no -race, which needs cgo

	stale := filepath.Dir(first)
	old := time.Now().Add(-unusedFor - time.Hour)
	if err := os.Chtimes(filepath.Join(stale, ".lock"), old, old); err != nil {
		t.Fatal(err)
	}
	build("after five days", "GOWORK=off", "GOFLAGS=-p=1")
	if _, err := os.Stat(stale); !os.IsNotExist(err) {
		t.Errorf("a key unused for five days is still there (%v)", err)
	}
	for exe, what := range paths {
		if _, err := os.Stat(exe); exe != first && err != nil {
			t.Errorf("%s: a key in use was removed: %v", what, err)
		}
	}
}
