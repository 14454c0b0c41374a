package otelmcp

import (
	"context"
	"errors"
	"time"

	"go.opentelemetry.io/otel/metric"
	semconv "go.opentelemetry.io/otel/semconv/v1.41.0"

	"github.com/mcpgen/mcpgen/runtime"
)

// Store returns s with every method timed into mcpgen.store.duration (by
// mcpgen.store.operation: the method's name in lower case, and error.type
// "error" when it failed with anything but the store's sentinels, which are
// answers, not failures), and every Claim counted into mcpgen.claims by
// mcpgen.claim.result: claimed, recorded (the flow's record came back: a
// replay), busy ([runtime.ErrClaimed]), epoch ([runtime.ErrEpoch]) or
// error. [Telemetry.Hooks] wraps the options' store with it.
func (t *Telemetry) Store(s runtime.Store) runtime.Store { return &store{s: s, t: t} }

// PageStore returns s with every method timed into mcpgen.store.duration,
// as [Telemetry.Store] times a flow store's (the operations put_page,
// page, complete_page and delete_page). [Telemetry.Hooks] wraps the
// options' page store with it.
func (t *Telemetry) PageStore(s runtime.PageStore) runtime.PageStore {
	return &pageStore{s: s, t: t}
}

type store struct {
	s runtime.Store
	t *Telemetry
}

type pageStore struct {
	s runtime.PageStore
	t *Telemetry
}

var (
	opEpoch        = metric.WithAttributes(AttrStoreOp.String("epoch"))
	opClaim        = metric.WithAttributes(AttrStoreOp.String("claim"))
	opRenew        = metric.WithAttributes(AttrStoreOp.String("renew"))
	opRecord       = metric.WithAttributes(AttrStoreOp.String("record"))
	opRelease      = metric.WithAttributes(AttrStoreOp.String("release"))
	opPutPage      = metric.WithAttributes(AttrStoreOp.String("put_page"))
	opPage         = metric.WithAttributes(AttrStoreOp.String("page"))
	opCompletePage = metric.WithAttributes(AttrStoreOp.String("complete_page"))
	opDeletePage   = metric.WithAttributes(AttrStoreOp.String("delete_page"))
	failed         = semconv.ErrorTypeKey.String("error")
)

// time records the duration of the operation op that began at start and
// ended in err.
func (s *store) time(ctx context.Context, op metric.MeasurementOption, start time.Time, err error) {
	s.t.timeStore(ctx, op, start, err)
}

// time records the duration of the page operation op, as store.time does.
func (s *pageStore) time(ctx context.Context, op metric.MeasurementOption, start time.Time, err error) {
	s.t.timeStore(ctx, op, start, err)
}

// timeStore records into mcpgen.store.duration the duration of the store
// operation op that began at start and ended in err: "error" when err is
// a failure, not one of the stores' sentinel answers.
func (t *Telemetry) timeStore(ctx context.Context, op metric.MeasurementOption, start time.Time, err error) {
	d := time.Since(start).Seconds()
	if err == nil || errors.Is(err, runtime.ErrClaimed) || errors.Is(err, runtime.ErrClaimLost) || errors.Is(err, runtime.ErrEpoch) ||
		errors.Is(err, runtime.ErrNoPage) || errors.Is(err, runtime.ErrPageCompleted) || errors.Is(err, runtime.ErrPageExists) {
		t.storeTimes.Record(ctx, d, op)
		return
	}
	t.storeTimes.Record(ctx, d, op, metric.WithAttributes(failed))
}

func (s *store) Epoch(ctx context.Context, flow string) (string, error) {
	start := time.Now()
	e, err := s.s.Epoch(ctx, flow)
	s.time(ctx, opEpoch, start, err)
	return e, err
}

func (s *store) Claim(ctx context.Context, flow, token, epoch string, lease time.Duration) ([]byte, error) {
	start := time.Now()
	rec, err := s.s.Claim(ctx, flow, token, epoch, lease)
	s.time(ctx, opClaim, start, err)
	var result string
	switch {
	case err == nil && rec != nil:
		result = "recorded"
	case err == nil:
		result = "claimed"
	case errors.Is(err, runtime.ErrClaimed):
		result = "busy"
	case errors.Is(err, runtime.ErrEpoch):
		result = "epoch"
	default:
		result = "error"
	}
	s.t.claims.Add(ctx, 1, metric.WithAttributes(AttrClaimResult.String(result)))
	return rec, err
}

func (s *store) Renew(ctx context.Context, flow, token string, lease time.Duration) error {
	start := time.Now()
	err := s.s.Renew(ctx, flow, token, lease)
	s.time(ctx, opRenew, start, err)
	return err
}

func (s *store) Record(ctx context.Context, flow, token string, record []byte, expires time.Time) error {
	start := time.Now()
	err := s.s.Record(ctx, flow, token, record, expires)
	s.time(ctx, opRecord, start, err)
	return err
}

func (s *store) Release(ctx context.Context, flow, token string) error {
	start := time.Now()
	err := s.s.Release(ctx, flow, token)
	s.time(ctx, opRelease, start, err)
	return err
}

func (s *pageStore) PutPage(ctx context.Context, id string, record []byte, expires time.Time) error {
	start := time.Now()
	err := s.s.PutPage(ctx, id, record, expires)
	s.time(ctx, opPutPage, start, err)
	return err
}

func (s *pageStore) Page(ctx context.Context, id string) (record, answer []byte, err error) {
	start := time.Now()
	record, answer, err = s.s.Page(ctx, id)
	s.time(ctx, opPage, start, err)
	return record, answer, err
}

func (s *pageStore) CompletePage(ctx context.Context, id string, answer []byte) error {
	start := time.Now()
	err := s.s.CompletePage(ctx, id, answer)
	s.time(ctx, opCompletePage, start, err)
	return err
}

func (s *pageStore) DeletePage(ctx context.Context, id string) error {
	start := time.Now()
	err := s.s.DeletePage(ctx, id)
	s.time(ctx, opDeletePage, start, err)
	return err
}
