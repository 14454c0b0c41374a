package engine_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpgen/mcpgen/runtime/internal/engine"
	"github.com/mcpgen/mcpgen/runtime/protocol"
)

// deployEnv is a hand-written exchange, "deploy", that asks for a
// confirmation and then runs its handler: branch, which counts its runs.
type deployEnv struct {
	opts   *engine.Options
	runs   atomic.Int32
	branch func(ctx context.Context, n int32) (*engine.Response, error)
}

func newDeployEnv(store engine.Store) *deployEnv {
	d := &deployEnv{opts: &engine.Options{Keys: engine.EphemeralKeyRing(), Store: store}}
	d.branch = func(_ context.Context, n int32) (*engine.Response, error) {
		return &engine.Response{Result: &engine.Result{Text: fmt.Sprintf("deployed, run %d", n)}}, nil
	}
	return d
}

var confirm = map[string]protocol.InputResponse{"ok": &protocol.ElicitResult{Action: engine.Accept, Content: map[string]any{"ok": true}}}

// first runs a first call, which asks, and returns its state.
func (d *deployEnv) first(t *testing.T, opts *engine.Options) string {
	st, _ := d.firstWithID(t, opts)
	return st
}

// firstWithID is first, also returning the flow id.
func (d *deployEnv) firstWithID(t *testing.T, opts *engine.Options) (string, string) {
	t.Helper()
	x, err := engine.NewExchange("deploy", opts, &protocol.Request{Method: "tools/call", Arguments: json.RawMessage(`{}`),
		FormElicitation: true, ProtocolVersion: protocol.VersionMRTR})
	require.NoError(t, err)
	var id string
	resp, err := x.Run(context.Background(), func(ctx context.Context) (*engine.Response, error) {
		id = engine.FlowID(ctx)
		return x.InputRequired(map[string]protocol.InputRequest{"ok": &protocol.ElicitRequest{Mode: "form", Message: "Deploy?"}}, nil)
	})
	require.NoError(t, err)
	require.NotEmpty(t, resp.RequestState)
	return resp.RequestState, id
}

// retry sends the confirmed retry of state to an instance with opts.
func (d *deployEnv) retry(ctx context.Context, opts *engine.Options, state string) (*engine.Response, error) {
	x, err := engine.NewExchange("deploy", opts, &protocol.Request{Method: "tools/call", Arguments: json.RawMessage(`{}`),
		RequestState: state, InputResponses: confirm, FormElicitation: true, ProtocolVersion: protocol.VersionMRTR})
	if err != nil {
		return nil, err
	}
	return x.Run(ctx, func(ctx context.Context) (*engine.Response, error) {
		return d.branch(ctx, d.runs.Add(1))
	})
}

func requireCode(t *testing.T, err error, code int64) *protocol.Error {
	t.Helper()
	var pe *protocol.Error
	require.ErrorAs(t, err, &pe)
	require.EqualValues(t, code, pe.Code, "%v", err)
	return pe
}

// A process restart gives the in-memory store a new epoch: a flow begun
// before it, completed or not, is refused with -32602 "start the call
// again" and runs nothing; a flow begun after it runs as usual.
func TestMemoryStoreRestartRefusesOldFlows(t *testing.T) {
	before := engine.NewMemoryStore()
	d := newDeployEnv(before)
	var rejected []engine.Rejection
	d.opts.OnReject = func(_ context.Context, r engine.Rejection) { rejected = append(rejected, r) }
	done, pending := d.first(t, d.opts), d.first(t, d.opts)
	resp, err := d.retry(context.Background(), d.opts, done)
	require.NoError(t, err)
	require.Equal(t, "deployed, run 1", resp.Result.Text)

	after := *d.opts
	after.Store = engine.NewMemoryStore() // the restarted process's
	for _, st := range []string{done, pending} {
		_, err := d.retry(context.Background(), &after, st)
		pe := requireCode(t, err, -32602)
		assert.Contains(t, pe.Message, "start the call again")
	}
	assert.EqualValues(t, 1, d.runs.Load(), "no branch ran again")
	require.Len(t, rejected, 2)
	assert.ErrorIs(t, rejected[1].Err, engine.ErrEpoch)

	fresh := d.first(t, &after)
	resp, err = d.retry(context.Background(), &after, fresh)
	require.NoError(t, err)
	assert.Equal(t, "deployed, run 2", resp.Result.Text)
}

// A claim whose holder never ran its branch (its store call timed out after
// the claim was taken) or died mid-branch lapses after the lease: the next
// retry runs the branch, once.
func TestAbandonedClaimLapsesAfterTheLease(t *testing.T) {
	m := engine.NewMemoryStore()
	d := newDeployEnv(m)
	d.opts.ClaimLease, d.opts.ClaimWait = 300*time.Millisecond, 50*time.Millisecond
	st, flow := d.firstWithID(t, d.opts)
	epoch, _ := m.Epoch(context.Background(), flow)
	_, err := m.Claim(context.Background(), flow, "dead-holder", epoch, d.opts.ClaimLease)
	require.NoError(t, err)

	_, err = d.retry(context.Background(), d.opts, st)
	pe := requireCode(t, err, -32603)
	assert.Contains(t, pe.Message, "being completed by another request")
	time.Sleep(d.opts.ClaimLease)
	resp, err := d.retry(context.Background(), d.opts, st)
	require.NoError(t, err, "after the lease the next retry proceeds")
	assert.Equal(t, "deployed, run 1", resp.Result.Text)
	resp, err = d.retry(context.Background(), d.opts, st)
	require.NoError(t, err)
	assert.Equal(t, "deployed, run 1", resp.Result.Text, "and is recorded")
	assert.EqualValues(t, 1, d.runs.Load())
}

// A branch that runs for several leases keeps its claim: a duplicate sent
// meanwhile waits for the record instead of running the branch again.
func TestLongBranchRenewsItsClaim(t *testing.T) {
	d := newDeployEnv(engine.NewMemoryStore())
	d.opts.ClaimLease, d.opts.ClaimWait = 400*time.Millisecond, 5*time.Second
	started := make(chan struct{})
	d.branch = func(ctx context.Context, n int32) (*engine.Response, error) {
		close(started)
		time.Sleep(1500 * time.Millisecond)
		if ctx.Err() != nil {
			return nil, context.Cause(ctx)
		}
		return &engine.Response{Result: &engine.Result{Text: fmt.Sprintf("deployed, run %d", n)}}, nil
	}
	st := d.first(t, d.opts)
	var wg sync.WaitGroup
	var first *engine.Response
	wg.Go(func() {
		var err error
		first, err = d.retry(context.Background(), d.opts, st)
		assert.NoError(t, err)
	})
	<-started
	time.Sleep(900 * time.Millisecond) // past two leases
	dup, err := d.retry(context.Background(), d.opts, st)
	require.NoError(t, err)
	wg.Wait()
	assert.Equal(t, "deployed, run 1", first.Result.Text, "the branch's context was not cancelled")
	assert.Equal(t, "deployed, run 1", dup.Result.Text, "the duplicate got the record")
	assert.EqualValues(t, 1, d.runs.Load())
}

// renewless fails every renewal: a store that cannot be reached while the
// branch runs.
type renewless struct{ *engine.MemoryStore }

func (renewless) Renew(context.Context, string, string, time.Duration) error {
	return errors.New("store is down")
}

// When a whole lease passes without a confirmed renewal, another retry may
// claim the flow: the holder's branch context is cancelled with
// ErrClaimLost, and its record is fenced by its token (the later holder's
// record stands).
func TestUnrenewedClaimCancelsTheBranchAndFencesItsRecord(t *testing.T) {
	m := engine.NewMemoryStore()
	d := newDeployEnv(renewless{m})
	d.opts.ClaimLease, d.opts.ClaimWait = 150*time.Millisecond, 20*time.Millisecond
	cause := make(chan error, 1)
	release := make(chan struct{})
	d.branch = func(ctx context.Context, n int32) (*engine.Response, error) {
		if n == 1 {
			<-ctx.Done()
			cause <- context.Cause(ctx)
			<-release // finishes its work anyway
		}
		return &engine.Response{Result: &engine.Result{Text: fmt.Sprintf("deployed, run %d", n)}}, nil
	}
	st := d.first(t, d.opts)
	var wg sync.WaitGroup
	wg.Go(func() {
		resp, err := d.retry(context.Background(), d.opts, st)
		if assert.NoError(t, err) {
			assert.Equal(t, "deployed, run 1", resp.Result.Text)
		}
	})
	select {
	case err := <-cause:
		assert.ErrorIs(t, err, engine.ErrClaimLost)
	case <-time.After(2 * time.Second):
		t.Fatal("the branch's context was not cancelled after the lease")
	}
	resp, err := d.retry(context.Background(), d.opts, st)
	require.NoError(t, err, "the lapsed claim lets the next retry proceed")
	assert.Equal(t, "deployed, run 2", resp.Result.Text)
	close(release)
	wg.Wait()
	resp, err = d.retry(context.Background(), d.opts, st)
	require.NoError(t, err)
	assert.Equal(t, "deployed, run 2", resp.Result.Text, "the first holder could not record over the second's")
}

// A client that goes away while the branch runs does not keep its result
// from being recorded.
func TestCancelledRequestStillRecords(t *testing.T) {
	d := newDeployEnv(engine.NewMemoryStore())
	ctx, cancel := context.WithCancel(context.Background())
	d.branch = func(_ context.Context, n int32) (*engine.Response, error) {
		cancel()
		return &engine.Response{Result: &engine.Result{Text: fmt.Sprintf("deployed, run %d", n)}}, nil
	}
	st := d.first(t, d.opts)
	_, err := d.retry(ctx, d.opts, st)
	require.NoError(t, err)
	resp, err := d.retry(context.Background(), d.opts, st)
	require.NoError(t, err)
	assert.Equal(t, "deployed, run 1", resp.Result.Text)
	assert.EqualValues(t, 1, d.runs.Load())
}

// A first call that must seal the store's epoch, with the store down, is
// refused with -32603 and seals nothing.
func TestFirstCallWithoutEpochFailsClosed(t *testing.T) {
	d := newDeployEnv(failingStore{})
	x, err := engine.NewExchange("deploy", d.opts, &protocol.Request{Method: "tools/call", Arguments: json.RawMessage(`{}`),
		FormElicitation: true, ProtocolVersion: protocol.VersionMRTR})
	require.NoError(t, err)
	_, err = x.InputRequired(map[string]protocol.InputRequest{"ok": &protocol.ElicitRequest{Mode: "form", Message: "Deploy?"}}, nil)
	requireCode(t, err, -32603)
}

// failingRecords is a MemoryStore whose Record refuses the first n calls,
// as a Redis at maxmemory (noeviction) or one restarting refuses a write.
type failingRecords struct {
	*engine.MemoryStore
	left     atomic.Int32
	once     sync.Once
	recorded chan struct{} // closed when a Record is taken
}

func newFailingRecords(failures int32) *failingRecords {
	s := &failingRecords{MemoryStore: engine.NewMemoryStore(), recorded: make(chan struct{})}
	s.left.Store(failures)
	return s
}

func (s *failingRecords) Record(ctx context.Context, flow, token string, record []byte, expires time.Time) error {
	if s.left.Add(-1) >= 0 {
		return errors.New("OOM command not allowed when used memory > 'maxmemory'")
	}
	err := s.MemoryStore.Record(ctx, flow, token, record, expires)
	if err == nil {
		s.once.Do(func() { close(s.recorded) })
	}
	return err
}

// A branch whose result the store refuses to record never runs again: its
// claim is held past the lease for the flow's lifetime (replays are told to
// retry later), and the record is written once the store takes it, after
// which every replay gets it (found by review: Redis at maxmemory let every
// replay after the lease run the branch again).
func TestUnrecordedResultHoldsTheClaim(t *testing.T) {
	for _, c := range []struct {
		name     string
		failures int32
		recorded bool
	}{
		{"store refuses for good", 1 << 30, false},
		{"store takes it later", 3, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			store := newFailingRecords(c.failures)
			d := newDeployEnv(store)
			opts := *d.opts
			opts.ClaimLease = 200 * time.Millisecond
			opts.ClaimWait = -1
			state := d.first(t, &opts)
			resp, err := d.retry(context.Background(), &opts, state)
			require.NoError(t, err)
			require.Equal(t, "deployed, run 1", resp.Result.Text)

			// Several leases pass (a lapsed claim would let the replay run
			// the branch again), and in the second case the record is
			// taken after its failed attempts (100+200+400 ms of back-off).
			time.Sleep(5 * opts.ClaimLease)
			if c.recorded {
				select {
				case <-store.recorded:
				case <-time.After(10 * time.Second):
					t.Fatal("the result was never recorded after the store took writes again")
				}
			}
			resp, err = d.retry(context.Background(), &opts, state)
			if c.recorded {
				require.NoError(t, err)
				assert.Equal(t, "deployed, run 1", resp.Result.Text, "the replay gets the record")
			} else {
				requireCode(t, err, protocol.CodeInternalError)
			}
			assert.EqualValues(t, 1, d.runs.Load(), "the branch ran once")
		})
	}
}
