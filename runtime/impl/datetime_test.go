package impl

import (
	"fmt"
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
