package otelmcp_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.opentelemetry.io/otel/attribute"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"

	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/otelmcp"
)

// brokenStore fails every method.
type brokenStore struct{ runtime.Store }

func (brokenStore) Claim(context.Context, string, string, string, time.Duration) ([]byte, error) {
	return nil, errors.New("connection refused")
}

// The timed store counts each claim by result and times every operation,
// a failure (not a sentinel answer) with error.type.
func TestStoreCountsClaimsAndTimesOperations(t *testing.T) {
	reader := sdkmetric.NewManualReader()
	tel := otelmcp.New(&otelmcp.Config{MeterProvider: sdkmetric.NewMeterProvider(sdkmetric.WithReader(reader))})
	ctx := context.Background()
	mem := runtime.NewMemoryStore()
	s := tel.Store(mem)
	const flow = "AAAAAAAAAAAAAAAAAAAAAA"
	epoch, err := s.Epoch(ctx, flow)
	require.NoError(t, err)
	_, err = s.Claim(ctx, flow, "t1", epoch, time.Minute)
	require.NoError(t, err)
	_, err = s.Claim(ctx, flow, "t2", epoch, time.Minute)
	require.ErrorIs(t, err, runtime.ErrClaimed)
	require.NoError(t, s.Record(ctx, flow, "t1", []byte(`{"t":"done"}`), time.Now().Add(time.Minute)))
	rec, err := s.Claim(ctx, flow, "t3", epoch, time.Minute)
	require.NoError(t, err)
	require.NotNil(t, rec)
	_, err = s.Claim(ctx, flow, "t4", "another epoch", time.Minute)
	require.ErrorIs(t, err, runtime.ErrEpoch)
	_, err = tel.Store(brokenStore{mem}).Claim(ctx, flow, "t5", epoch, time.Minute)
	require.Error(t, err)

	var rm metricdata.ResourceMetrics
	require.NoError(t, reader.Collect(ctx, &rm))
	claims := map[string]int64{}
	var claimTimes, failedClaims uint64
	for _, sm := range rm.ScopeMetrics {
		for _, m := range sm.Metrics {
			switch d := m.Data.(type) {
			case metricdata.Sum[int64]:
				if m.Name == "mcpgen.claims" {
					for _, p := range d.DataPoints {
						v, _ := p.Attributes.Value("mcpgen.claim.result")
						claims[v.AsString()] += p.Value
					}
				}
			case metricdata.Histogram[float64]:
				if m.Name == "mcpgen.store.duration" {
					for _, p := range d.DataPoints {
						if op, _ := p.Attributes.Value("mcpgen.store.operation"); op.AsString() == "claim" {
							claimTimes += p.Count
							if p.Attributes.HasValue(attribute.Key("error.type")) {
								failedClaims += p.Count
							}
						}
					}
				}
			}
		}
	}
	assert.Equal(t, map[string]int64{"claimed": 1, "busy": 1, "recorded": 1, "epoch": 1, "error": 1}, claims)
	assert.EqualValues(t, 5, claimTimes)
	assert.EqualValues(t, 1, failedClaims, "only the store's failure is an error")
}

// Hooks times the options' page store as well as their flow store: with
// neither set, both are the process's in-memory store, each wrapped once,
// and a page's operations are timed by name, a sentinel answer
// (ErrNoPage) not counted as a failure.
func TestHooksTimesThePageStore(t *testing.T) {
	reader := sdkmetric.NewManualReader()
	tel := otelmcp.New(&otelmcp.Config{MeterProvider: sdkmetric.NewMeterProvider(sdkmetric.WithReader(reader))})
	ctx := context.Background()
	var o runtime.Options
	tel.Hooks(&o)
	require.NotNil(t, o.Store)
	require.NotNil(t, o.PageStore)
	pages := o.PageStore
	tel.Hooks(&o)
	require.Same(t, pages, o.PageStore, "a second Hooks wraps nothing again")

	const id = "BBBBBBBBBBBBBBBBBBBBBB"
	require.NoError(t, o.FlowPageStore().PutPage(ctx, id, []byte("record"), time.Now().Add(time.Minute)))
	require.NoError(t, o.FlowPageStore().CompletePage(ctx, id, []byte("answer")))
	rec, answer, err := o.FlowPageStore().Page(ctx, id)
	require.NoError(t, err)
	assert.Equal(t, "record", string(rec))
	assert.Equal(t, "answer", string(answer))
	require.NoError(t, o.FlowPageStore().DeletePage(ctx, id))
	_, _, err = o.FlowPageStore().Page(ctx, id)
	require.ErrorIs(t, err, runtime.ErrNoPage)

	var rm metricdata.ResourceMetrics
	require.NoError(t, reader.Collect(ctx, &rm))
	times, failed := map[string]uint64{}, uint64(0)
	for _, sm := range rm.ScopeMetrics {
		for _, m := range sm.Metrics {
			if d, ok := m.Data.(metricdata.Histogram[float64]); ok && m.Name == "mcpgen.store.duration" {
				for _, p := range d.DataPoints {
					op, _ := p.Attributes.Value("mcpgen.store.operation")
					times[op.AsString()] += p.Count
					if p.Attributes.HasValue(attribute.Key("error.type")) {
						failed += p.Count
					}
				}
			}
		}
	}
	assert.Equal(t, map[string]uint64{"put_page": 1, "complete_page": 1, "page": 2, "delete_page": 1}, times)
	assert.Zero(t, failed, "ErrNoPage is an answer, not a failure")
}
