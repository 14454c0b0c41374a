package impl

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"testing"
	"time"
	_ "time/tzdata" // the zones below, whatever the machine has installed
)

// TestParseDateTimeMatchesTimeParse holds ParseDateTime's single pass to
// what it replaced, IsDateTime then time.Parse(time.RFC3339Nano): the same
// instant, zone name, offset and location, under several time.Local
// settings (an offset equal to Local's gives time.Local, as time.Parse does),
// around DST changes, with fractions of 0 to 12 digits, whole-hour and
// other offsets, "-00:00", leap seconds and the spellings that take the
// slow path.
func TestParseDateTimeMatchesTimeParse(t *testing.T) {
	var inputs []string
	dates := []string{"2026-07-28", "0000-01-01", "9999-12-31", "2024-02-29", "2026-03-08", "2026-11-01", "2026-03-29", "2026-10-25"}
	times := []string{"00:00:00", "09:30:00", "01:59:59", "02:30:00", "23:59:59", "23:59:60", "+1:-0:+5", "12:00:60"}
	fracs := []string{"", ".5", ".123", ".123456789", ".1234567891", ".000000000001"}
	zones := []string{"Z", "z", "+00:00", "-00:00", "+02:00", "-05:00", "-04:00", "+05:30", "-09:45", "+14:00", "+23:59", "+01:00", "+-0:+3"}
	for _, d := range dates {
		for _, tm := range times {
			for _, f := range fracs {
				for _, z := range zones {
					inputs = append(inputs, d+"T"+tm+f+z)
				}
			}
			inputs = append(inputs, d+"t"+tm+"Z", d+"t"+tm+"+01:00")
		}
	}
	saved := time.Local
	t.Cleanup(func() { time.Local = saved })
	for _, zone := range []string{"UTC", "Europe/Paris", "America/New_York", "Asia/Kolkata", "Australia/Lord_Howe"} {
		loc, err := time.LoadLocation(zone)
		if err != nil {
			t.Fatal(err)
		}
		time.Local = loc
		for _, s := range inputs {
			got, gotOK := ParseDateTime(s)
			wantOK := IsDateTime(s)
			var w time.Time
			if wantOK {
				w, wantOK = parseDateTimeSlow(s)
			}
			if gotOK != wantOK {
				t.Fatalf("Local %s, %q: ok %v, time.Parse says %v", zone, s, gotOK, wantOK)
			}
			if !gotOK {
				continue
			}
			gn, goff := got.Zone()
			wn, woff := w.Zone()
			if !got.Equal(w) || gn != wn || goff != woff || got.Location().String() != w.Location().String() ||
				(w.Location() == time.Local) != (got.Location() == time.Local) {
				t.Fatalf("Local %s, %q: %s, time.Parse gives %s", zone, s, describe(got), describe(w))
			}
		}
	}
}

func describe(t time.Time) string {
	n, off := t.Zone()
	return fmt.Sprintf("%s (zone %q, offset %d, location %q)", t.Format(time.RFC3339Nano), n, off, t.Location())
}

// plainDateTimeSeeds are date-times of the spelling parsePlainDateTime reads
// and near misses of it, for TestPlainDateTimeFastPath and
// FuzzPlainDateTimeFastPath.
var plainDateTimeSeeds = []string{
	"2026-07-28T09:30:00Z", "2026-07-28T09:30:00+02:00", "2026-07-28T09:30:00.5-05:00",
	"0000-01-01T00:00:00Z", "0000-02-29T23:59:59.999999999+23:59", "9999-12-31T23:59:59-23:59",
	"1900-02-29T00:00:00Z", "2000-02-29T00:00:00Z", "2026-04-31T00:00:00Z", "2026-13-01T00:00:00Z",
	"2026-07-28T24:00:00Z", "2026-07-28T23:60:00Z", "2026-07-28T23:59:60Z", "2026-07-28T09:30:00.Z",
	"2026-07-28T09:30:00.1234567891Z", "2026-07-28T09:30:00+24:00", "2026-07-28T09:30:00+02:60",
	"2026-07-28t09:30:00z", "2026-07-28T+9:30:00Z", "2026-07-28T09:30:00+0200", "1969-12-31T23:59:59.1Z",
}

// checkPlainDateTime fails t when ParseDateTime, with its fast path, and
// parseDateTimeFields, the general path, read s differently: validity, or
// the time itself (the same instant in the same encoding, zone name and
// offset, and location: UTC, time.Local, or a fixed zone of the same name;
// a fixed zone that time.FixedZone does not cache is a new *Location each
// time).
func checkPlainDateTime(t *testing.T, s string) {
	t.Helper()
	got, gotOK := ParseDateTime(s)
	want, wantOK := parseDateTimeFields(s)
	gn, goff := got.Zone()
	wn, woff := want.Zone()
	same := got.UTC() == want.UTC() && gn == wn && goff == woff &&
		got.Location().String() == want.Location().String() &&
		(got.Location() == time.Local) == (want.Location() == time.Local) &&
		(got.Location() == time.UTC) == (want.Location() == time.UTC)
	if gotOK != wantOK || !same {
		t.Fatalf("Local %s, %q: %s (ok %v), the general path gives %s (ok %v)",
			time.Local, s, describe(got), gotOK, describe(want), wantOK)
	}
}

// TestPlainDateTimeFastPath holds parsePlainDateTime to the general path on
// every date of years around the calendar's edges and on random date-times
// of every shape the fast path reads (and single-byte mutations of them),
// under several time.Local settings.
func TestPlainDateTimeFastPath(t *testing.T) {
	saved := time.Local
	t.Cleanup(func() { time.Local = saved })
	for _, s := range plainDateTimeSeeds[:6] {
		if _, ok := parsePlainDateTime(s); !ok {
			t.Fatalf("%q does not take the fast path", s)
		}
	}
	r := rand.New(rand.NewPCG(19, 30))
	zones := []string{"Z", "+00:00", "-00:00", "+02:00", "-05:00", "+05:30", "-09:45", "+14:00", "+23:59", "-23:59"}
	for _, zone := range []string{"UTC", "Europe/Paris", "America/New_York", "Asia/Kolkata", "Australia/Lord_Howe"} {
		loc, err := time.LoadLocation(zone)
		if err != nil {
			t.Fatal(err)
		}
		time.Local = loc
		for _, s := range plainDateTimeSeeds {
			checkPlainDateTime(t, s)
		}
		for _, year := range []int{0, 1, 4, 99, 100, 399, 400, 1600, 1900, 1969, 1970, 2000, 2024, 2100, 9999} {
			for month := 0; month <= 13; month++ {
				for day := 0; day <= 32; day++ {
					checkPlainDateTime(t, fmt.Sprintf("%04d-%02d-%02dT12:00:00%s", year, month, day, zones[(month+day)%len(zones)]))
				}
			}
		}
		for range 20000 {
			s := fmt.Sprintf("%04d-%02d-%02dT%02d:%02d:%02d", r.IntN(10000), r.IntN(14), r.IntN(33), r.IntN(25), r.IntN(61), r.IntN(61))
			if r.IntN(2) == 0 {
				s += "." + strconv.FormatUint(r.Uint64(), 10)[:1+r.IntN(11)]
			}
			s += zones[r.IntN(len(zones))]
			checkPlainDateTime(t, s)
			b := []byte(s)
			b[r.IntN(len(b))] = "0123456789+-:.TtZz x"[r.IntN(20)]
			checkPlainDateTime(t, string(b))
		}
	}
}

// FuzzPlainDateTimeFastPath is TestPlainDateTimeFastPath's property on any
// input: `go test -fuzz FuzzPlainDateTimeFastPath ./runtime/impl`.
func FuzzPlainDateTimeFastPath(f *testing.F) {
	for _, s := range plainDateTimeSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) { checkPlainDateTime(t, s) })
}
