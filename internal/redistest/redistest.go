// Package redistest starts a real redis-server for tests: on a free loopback
// port, in a temporary directory, configured as runtime/redisstore requires
// (maxmemory-policy noeviction, as in examples/loadbalanced/redis.conf),
// with persistence off unless [Config.AppendOnly], and DEBUG allowed from
// loopback (DEBUG SLEEP stalls it). Tests that use it
// are skipped (with a message saying so) only when no redis-server binary is
// found, and fail instead when MCPGEN_REQUIRE_REDIS is set (.ci/run sets
// it); nothing stands in for Redis.
package redistest

import (
	"bufio"
	"fmt"
	"net"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// Server is one redis-server process a test started.
type Server struct {
	t    testing.TB
	bin  string
	dir  string
	cfg  Config
	Port int
	cmd  *exec.Cmd
}

// Config is how [StartWith] configures the server.
type Config struct {
	// AppendOnly turns the append-only file on (appendonly yes,
	// appendfsync always), as examples/loadbalanced/redis.conf does (with
	// everysec there): a restart, even after SIGKILL, keeps every write.
	// Off, a restart starts empty.
	AppendOnly bool
	// ConfFile, when set, is a redis.conf the server reads first (e.g.
	// examples/loadbalanced/redis.conf): its persistence and eviction
	// settings are used instead of the ones above (AppendOnly is ignored);
	// the port, bind address, directory and DEBUG are still set here.
	ConfFile string
	// Args are more redis-server arguments, after the others (a later one
	// wins), e.g. "--maxmemory-policy", "allkeys-lru".
	Args []string
}

// Start is StartWith with the zero Config: no persistence.
func Start(t testing.TB) *Server {
	t.Helper()
	return StartWith(t, Config{})
}

// StartWith starts redis-server configured by cfg on a free loopback port
// and waits until it answers PING; it is stopped when the test ends.
// Without a redis-server binary (PATH, then /usr/bin, /usr/local/bin) the
// test is skipped.
func StartWith(t testing.TB, cfg Config) *Server {
	t.Helper()
	s := &Server{t: t, bin: binary(t, "redis-server"), dir: t.TempDir(), cfg: cfg, Port: freePort(t)}
	s.Restart()
	t.Cleanup(s.Stop)
	return s
}

// binary returns the path of name (redis-server, redis-cli): PATH, then
// /usr/bin, /usr/local/bin. Without it the test is skipped, or fails when
// MCPGEN_REQUIRE_REDIS is set.
func binary(t testing.TB, name string) string {
	t.Helper()
	bin, err := exec.LookPath(name)
	if err != nil {
		for _, p := range []string{"/usr/bin/" + name, "/usr/local/bin/" + name} {
			if _, serr := os.Stat(p); serr == nil {
				return p
			}
		}
		if os.Getenv("MCPGEN_REQUIRE_REDIS") != "" {
			t.Fatalf("%s not found, and MCPGEN_REQUIRE_REDIS is set (CI): install the Debian package redis-server", name)
		}
		t.Skipf("%s not found (install the Debian package redis-server): skipping a test that needs a real Redis", name)
	}
	return bin
}

// freePort returns a loopback TCP port that was free a moment ago.
func freePort(t testing.TB) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// Addr returns "127.0.0.1:<port>".
func (s *Server) Addr() string { return "127.0.0.1:" + strconv.Itoa(s.Port) }

// URL returns "redis://127.0.0.1:<port>/0", as MCPGEN_REDIS_URL takes it.
func (s *Server) URL() string { return "redis://" + s.Addr() + "/0" }

// Restart starts the server (again) on the same port and waits for PING:
// with an empty database, or with [Config.AppendOnly] the one its
// append-only file holds. It does nothing when it is running.
func (s *Server) Restart() {
	s.t.Helper()
	if s.cmd != nil {
		return
	}
	aof := "no"
	if s.cfg.AppendOnly {
		aof = "yes"
	}
	var args []string
	if s.cfg.ConfFile != "" {
		args = []string{s.cfg.ConfFile}
	} else {
		args = []string{"--save", "", "--appendonly", aof, "--appendfsync", "always", "--maxmemory-policy", "noeviction"}
	}
	args = append(args, "--port", strconv.Itoa(s.Port), "--bind", "127.0.0.1",
		"--enable-debug-command", "local", "--dir", s.dir, "--protected-mode", "yes")
	args = append(args, s.cfg.Args...)
	cmd := exec.Command(s.bin, args...)
	cmd.Stdout, cmd.Stderr = nil, nil
	if err := cmd.Start(); err != nil {
		s.t.Fatalf("starting redis-server: %v", err)
	}
	s.cmd = cmd
	deadline := time.Now().Add(10 * time.Second)
	for {
		if err := ping(s.Addr()); err == nil {
			return
		} else if time.Now().After(deadline) {
			s.Stop()
			s.t.Fatalf("redis-server on %s does not answer PING: %v", s.Addr(), err)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// Stop kills the server (SIGKILL: no shutdown save) and waits for it to
// exit; Restart starts it again.
func (s *Server) Stop() {
	if s.cmd == nil {
		return
	}
	_ = s.cmd.Process.Signal(syscall.SIGCONT)
	_ = s.cmd.Process.Kill()
	_ = s.cmd.Wait()
	s.cmd = nil
}

// Pause stops the server process (SIGSTOP) without closing its port: a
// stalled Redis, whose clients wait until their deadlines. Resume continues
// it; the test's end does too.
func (s *Server) Pause() {
	s.t.Helper()
	if err := s.cmd.Process.Signal(syscall.SIGSTOP); err != nil {
		s.t.Fatal(err)
	}
	s.t.Cleanup(s.Resume)
}

// Resume continues a paused server (SIGCONT).
func (s *Server) Resume() {
	if s.cmd != nil {
		_ = s.cmd.Process.Signal(syscall.SIGCONT)
	}
}

func ping(addr string) error {
	c, err := net.DialTimeout("tcp", addr, time.Second)
	if err != nil {
		return err
	}
	defer c.Close()
	_ = c.SetDeadline(time.Now().Add(time.Second))
	if _, err := c.Write([]byte("PING\r\n")); err != nil {
		return err
	}
	line, err := bufio.NewReader(c).ReadString('\n')
	if err != nil {
		return err
	}
	if line != "+PONG\r\n" && !strings.HasPrefix(line, "-NOAUTH") { // -NOAUTH: up, with requirepass in Config.Args
		return fmt.Errorf("PING answered %q", line)
	}
	return nil
}
