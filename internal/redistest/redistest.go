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
	"bytes"
	"fmt"
	"math/rand/v2"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
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
	done chan struct{} // closed when cmd has exited (its Wait returned)
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

// Ports are handed out from below the kernel's ephemeral range (Linux:
// 32768–60999), so that no socket the system numbers itself (an outgoing
// connection, a listener on port 0) can take one between freePort and the
// server's start. A Redis Cluster node also listens on its port + 10000
// (the cluster bus): portLow+portSpan+busOffset stays below that range too.
const (
	portLow   = 10000
	portSpan  = 12000
	busOffset = 10000
)

var (
	portMu sync.Mutex
	ports  = map[int]bool{} // handed out in this process: never handed out again
)

// freePort returns a loopback TCP port, and the port 10000 above it, both
// free a moment ago and never handed out before in this process (a stopped
// server keeps its port for Restart). Other processes (packages' tests run
// at once) pick at random from the same range: a clash is unlikely, and
// bind-checked.
func freePort(t testing.TB) int {
	t.Helper()
	portMu.Lock()
	defer portMu.Unlock()
	for range 1000 {
		p := portLow + rand.IntN(portSpan)
		if ports[p] || !bindable(p) || !bindable(p+busOffset) {
			continue
		}
		ports[p] = true
		return p
	}
	t.Fatalf("redistest: no free loopback port pair (P, P+%d) in %d–%d after 1000 tries", busOffset, portLow, portLow+portSpan-1)
	return 0
}

// bindable reports whether 127.0.0.1:port could be listened on just now.
func bindable(port int) bool {
	l, err := net.Listen("tcp", "127.0.0.1:"+strconv.Itoa(port))
	if err != nil {
		return false
	}
	l.Close()
	return true
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
	logPath := filepath.Join(s.dir, "redis-server.log")
	log, err := os.OpenFile(logPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		s.t.Fatalf("redistest: %v", err)
	}
	defer log.Close() // the child holds its own copy
	cmd := exec.Command(s.bin, args...)
	cmd.Stdout, cmd.Stderr = log, log
	if err := cmd.Start(); err != nil {
		s.t.Fatalf("starting redis-server: %v", err)
	}
	done := make(chan struct{})
	go func() { _ = cmd.Wait(); close(done) }()
	s.cmd, s.done = cmd, done
	deadline := time.Now().Add(10 * time.Second)
	for {
		err := ping(s.Addr())
		if err == nil {
			return
		}
		select {
		case <-done:
			s.cmd = nil
			s.t.Fatalf("redis-server on %s exited at start (%v); its output ends:\n%s", s.Addr(), cmd.ProcessState, tail(logPath))
		default:
		}
		if time.Now().After(deadline) {
			s.Stop()
			s.t.Fatalf("redis-server on %s does not answer PING: %v; its output ends:\n%s", s.Addr(), err, tail(logPath))
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// tail returns the last lines of the file at path (at most 2 KB), for an
// error message.
func tail(path string) string {
	b, err := os.ReadFile(path)
	if err != nil {
		return err.Error()
	}
	if len(b) > 2048 {
		b = b[len(b)-2048:]
		if i := bytes.IndexByte(b, '\n'); i >= 0 {
			b = b[i+1:]
		}
	}
	return string(b)
}

// Stop kills the server (SIGKILL: no shutdown save) and waits for it to
// exit; Restart starts it again.
func (s *Server) Stop() {
	if s.cmd == nil {
		return
	}
	_ = s.cmd.Process.Signal(syscall.SIGCONT)
	_ = s.cmd.Process.Kill()
	<-s.done
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
