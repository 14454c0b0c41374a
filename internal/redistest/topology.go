package redistest

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

// ClusterTopology is a Redis Cluster a test started: masters, each with one
// replica, all redis-server processes on loopback ports in temporary
// directories, made into a cluster by redis-cli --cluster create (Redis
// docs, "Scale with Redis Cluster"), with a node timeout of 1 s so that a
// replica takes over a killed master within a few seconds. Every process
// is stopped when the test ends. Its nodes, like SentinelTopology's, run
// without min-replicas-to-write, so that a master left without a replica
// still takes writes: the tests on them hold the epoch fence alone
// (examples/loadbalanced/redis-replicated.conf sets it for deployments;
// examples/bookflight's TestRedisIsolatedOldMasterRunsNothing runs it).
type ClusterTopology struct {
	t     testing.TB
	Nodes []*Server // masters first (as created), then their replicas
}

// StartCluster starts a cluster of masters masters and one replica each
// (2×masters processes) and waits until every node reports
// cluster_state:ok. Persistence is off.
func StartCluster(t testing.TB, masters int) *ClusterTopology {
	t.Helper()
	cli := binary(t, "redis-cli")
	c := &ClusterTopology{t: t}
	args := []string{"--cluster", "create"}
	for range 2 * masters {
		s := StartWith(t, Config{Args: []string{"--cluster-enabled", "yes", "--cluster-config-file", "nodes.conf",
			"--cluster-node-timeout", "1000", "--cluster-replica-validity-factor", "0"}})
		c.Nodes = append(c.Nodes, s)
		args = append(args, s.Addr())
	}
	args = append(args, "--cluster-replicas", "1", "--cluster-yes")
	if out, err := exec.Command(cli, args...).CombinedOutput(); err != nil {
		t.Fatalf("redis-cli %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	deadline := time.Now().Add(20 * time.Second)
	for _, n := range c.Nodes {
		for !strings.Contains(n.Do("CLUSTER", "INFO"), "cluster_state:ok") {
			if time.Now().After(deadline) {
				t.Fatalf("the cluster on %s never reached cluster_state:ok", n.Addr())
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
	return c
}

// URL returns the cluster's URL in go-redis's cluster form (every node a
// seed): redis://127.0.0.1:p1?addr=127.0.0.1:p2&addr=….
func (c *ClusterTopology) URL() string {
	u := "redis://" + c.Nodes[0].Addr()
	for i, n := range c.Nodes[1:] {
		sep := "&"
		if i == 0 {
			sep = "?"
		}
		u += sep + "addr=" + n.Addr()
	}
	return u
}

// Masters returns the nodes that are masters now (INFO replication), in
// Nodes' order; a stopped node is none.
func (c *ClusterTopology) Masters() []*Server {
	var out []*Server
	for _, n := range c.Nodes {
		if n.cmd != nil && strings.Contains(n.info("replication"), "role:master") {
			out = append(out, n)
		}
	}
	return out
}

// WaitHealthy waits until every running node reports cluster_state:ok and
// there are masters masters: after a master was killed, its replica has
// taken over.
func (c *ClusterTopology) WaitHealthy(masters int, within time.Duration) {
	c.t.Helper()
	deadline := time.Now().Add(within)
	for {
		ok := len(c.Masters()) == masters
		for _, n := range c.Nodes {
			if n.cmd != nil && !strings.Contains(n.Do("CLUSTER", "INFO"), "cluster_state:ok") {
				ok = false
			}
		}
		if ok {
			return
		}
		if time.Now().After(deadline) {
			c.t.Fatalf("the cluster did not recover %d masters within %s", masters, within)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// StartReplica starts a replica of master (REPLICAOF, persistence off) and
// waits until the master counts it online and both are at the same
// replication offset: every write the master took before is on the replica.
// It is stopped when the test ends.
func StartReplica(t testing.TB, master *Server) *Server {
	t.Helper()
	r := StartWith(t, Config{Args: []string{"--replicaof", "127.0.0.1", strconv.Itoa(master.Port)}})
	deadline := time.Now().Add(20 * time.Second)
	for {
		m := master.InfoField("replication", "master_repl_offset")
		if strings.Contains(master.info("replication"), "state=online") && m != "" && m == r.InfoField("replication", "master_repl_offset") {
			return r
		}
		if time.Now().After(deadline) {
			t.Fatalf("the replica %s of %s never caught up", r.Addr(), master.Addr())
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// WaitReplicated waits until every replica connected to master has
// acknowledged all it wrote (INFO replication: each slaveN line's offset
// equals master_repl_offset), failing the test after within.
func (s *Server) WaitReplicated(within time.Duration) {
	s.t.Helper()
	deadline := time.Now().Add(within)
	for {
		want := s.InfoField("replication", "master_repl_offset")
		n, _ := strconv.Atoi(s.InfoField("replication", "connected_slaves"))
		ok := want != "" && n > 0
		for i := range n {
			ok = ok && slices.Contains(strings.Split(s.InfoField("replication", "slave"+strconv.Itoa(i)), ","), "offset="+want)
		}
		if ok {
			return
		}
		if time.Now().After(deadline) {
			s.t.Fatalf("the replicas of %s did not acknowledge offset %s within %s", s.Addr(), want, within)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// InfoField returns the value of one field of INFO section (e.g.
// "replication", "connected_slaves"), or "" when the server does not answer
// or has no such field.
func (s *Server) InfoField(section, name string) string {
	for line := range strings.Lines(s.info(section)) {
		if v, ok := strings.CutPrefix(strings.TrimSpace(line), name+":"); ok {
			return v
		}
	}
	return ""
}

// SentinelTopology is a master with replicas watched by sentinels, all
// redis-server processes (the sentinels run redis-server sentinel.conf
// --sentinel) on loopback ports in temporary directories, with a master
// declared down after 1 s (quorum 2), so that a killed master is replaced
// within a few seconds (Redis docs, "High availability with Redis
// Sentinel"). Every process is stopped when the test ends.
type SentinelTopology struct {
	t         testing.TB
	Name      string    // the master's name: "mymaster"
	Data      []*Server // the master as started, then its replicas
	Sentinels []*Server
}

// StartSentinel starts a master, replicas replicas of it and sentinels
// sentinels, and waits until every replica is in sync and every sentinel
// knows every replica and the other sentinels. Persistence is off.
func StartSentinel(t testing.TB, replicas, sentinels int) *SentinelTopology {
	t.Helper()
	st := &SentinelTopology{t: t, Name: "mymaster"}
	master := StartWith(t, Config{})
	st.Data = append(st.Data, master)
	for range replicas {
		st.Data = append(st.Data, StartWith(t, Config{Args: []string{"--replicaof", "127.0.0.1", strconv.Itoa(master.Port)}}))
	}
	deadline := time.Now().Add(20 * time.Second)
	for !strings.Contains(master.info("replication"), "connected_slaves:"+strconv.Itoa(replicas)) ||
		strings.Count(master.info("replication"), "state=online") != replicas {
		if time.Now().After(deadline) {
			t.Fatalf("the replicas of %s never came online", master.Addr())
		}
		time.Sleep(50 * time.Millisecond)
	}
	for range sentinels {
		dir := t.TempDir()
		conf := filepath.Join(dir, "sentinel.conf")
		text := fmt.Sprintf("sentinel monitor %s 127.0.0.1 %d 2\n"+
			"sentinel down-after-milliseconds %[1]s 1000\n"+
			"sentinel failover-timeout %[1]s 4000\n"+
			"sentinel parallel-syncs %[1]s 1\n", st.Name, master.Port)
		if err := os.WriteFile(conf, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
		s := StartWith(t, Config{ConfFile: conf, Args: []string{"--sentinel"}})
		st.Sentinels = append(st.Sentinels, s)
	}
	for _, s := range st.Sentinels {
		for {
			out := s.Do("SENTINEL", "MASTER", st.Name)
			if field(out, "num-slaves") == strconv.Itoa(replicas) && field(out, "num-other-sentinels") == strconv.Itoa(sentinels-1) {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("sentinel %s never saw the %d replicas and %d other sentinels: %q", s.Addr(), replicas, sentinels-1, out)
			}
			time.Sleep(100 * time.Millisecond)
		}
	}
	return st
}

// URL returns the topology's URL in go-redis's Sentinel form:
// redis://127.0.0.1:s1?master_name=mymaster&addr=127.0.0.1:s2&….
func (st *SentinelTopology) URL() string {
	u := "redis://" + st.Sentinels[0].Addr() + "?master_name=" + st.Name
	for _, s := range st.Sentinels[1:] {
		u += "&addr=" + s.Addr()
	}
	return u
}

// Master returns the data node the sentinels name as master now.
func (st *SentinelTopology) Master() *Server {
	st.t.Helper()
	for _, s := range st.Sentinels {
		if s.cmd == nil {
			continue
		}
		lines := strings.Split(strings.TrimSpace(s.Do("SENTINEL", "GET-MASTER-ADDR-BY-NAME", st.Name)), "\n")
		if len(lines) < 2 {
			continue
		}
		for _, d := range st.Data {
			if strconv.Itoa(d.Port) == strings.TrimSpace(lines[len(lines)-1]) {
				return d
			}
		}
	}
	st.t.Fatal("no sentinel names a master")
	return nil
}

// WaitFailover waits until the sentinels name a master other than old and
// that node reports role:master.
func (st *SentinelTopology) WaitFailover(old *Server, within time.Duration) *Server {
	st.t.Helper()
	deadline := time.Now().Add(within)
	for {
		if m := st.Master(); m != old && strings.Contains(m.info("replication"), "role:master") {
			return m
		}
		if time.Now().After(deadline) {
			st.t.Fatalf("no failover from %s within %s", old.Addr(), within)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// info returns INFO section of a running server, or "" when it does not
// answer.
func (s *Server) info(section string) string { return s.Do("INFO", section) }

// Do sends one command and returns its reply as text (an array's elements
// one per line), or "" when the server does not answer within a second.
func (s *Server) Do(args ...any) string {
	c := redis.NewClient(&redis.Options{Addr: s.Addr(), DialTimeout: time.Second, ReadTimeout: time.Second, MaxRetries: -1, Protocol: 2})
	defer c.Close()
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	v, err := c.Do(ctx, args...).Result()
	if err != nil {
		return ""
	}
	switch v := v.(type) {
	case []any:
		var parts []string
		for _, p := range v {
			parts = append(parts, fmt.Sprint(p))
		}
		return strings.Join(parts, "\n")
	}
	return fmt.Sprint(v)
}

// field returns the value after name in a flat name/value reply (one per
// line), as SENTINEL MASTER gives it.
func field(reply, name string) string {
	lines := strings.Split(reply, "\n")
	for i := 0; i+1 < len(lines); i += 2 {
		if lines[i] == name {
			return lines[i+1]
		}
	}
	return ""
}
