package main

import "math"

// acceptGoals are the goals for accepting a form answer, as speed-ups over
// santhosh-tekuri/jsonschema/v6 Validate (format assertions on) measured in
// the same run: issue 15's, and issue 19's 30× on everykind.
var acceptGoals = []struct {
	name    string
	speedup float64
}{
	{"bookflight", 40},
	{"allkinds", 25},
	{"everykind", 30},
}

// maxFullAnswerAllocs is the allocation goal of a full answer on everykind.
const maxFullAnswerAllocs = 2

// renderAccept adds the rows of accepting a form answer (bench/accept_test.go):
// for each case, the generated ApplyContent alone (what the flow runs) and
// ApplyContent+Validate against jsonschema/v6, ApplyContent+Validate against
// encoding/json, and Validate alone.
func renderAccept(r results, add func(what, mcpgen, baseline, ratio, goal string)) {
	for _, c := range acceptGoals {
		n := "Accept/" + c.name + "/"
		js := dur(r.get(n+"jsonschema", "ns/op")) + ", " + num(r.get(n+"jsonschema", "allocs/op"), "%.0f") + " allocs"
		for _, m := range []struct{ bench, what string }{
			{"apply", "ApplyContent (what the flow runs)"},
			{"mcpgen", "ApplyContent+Validate"},
		} {
			vs := r.ratio(r.at(n+"jsonschema", "ns/op"), r.at(n+m.bench, "ns/op"))
			allocs := r.get(n+m.bench, "allocs/op")
			g := goal(num(c.speedup, "≥ %.0f×"), vs >= c.speedup, !math.IsNaN(vs))
			if c.name == "everykind" {
				g += ", " + goal(num(maxFullAnswerAllocs, "≤ %.0f allocs"), allocs <= maxFullAnswerAllocs, !math.IsNaN(allocs))
			}
			add("accept a form answer, "+c.name+": "+m.what+" vs jsonschema/v6 Validate",
				dur(r.get(n+m.bench, "ns/op"))+", "+num(allocs, "%.0f")+" allocs", js,
				num(vs, "%.1f× faster"), g)
		}
		vsEJ := r.ratio(r.at(n+"encoding-json", "ns/op"), r.at(n+"mcpgen", "ns/op"))
		add("accept a form answer, "+c.name+": ApplyContent+Validate vs encoding/json decode",
			dur(r.get(n+"mcpgen", "ns/op"))+", "+num(r.get(n+"mcpgen", "allocs/op"), "%.0f")+" allocs",
			dur(r.get(n+"encoding-json", "ns/op"))+", "+num(r.get(n+"encoding-json", "allocs/op"), "%.0f")+" allocs",
			num(vsEJ, "%.1f× faster"), "")
		va := r.get("Validate/"+c.name, "allocs/op")
		add("Validate alone, "+c.name, dur(r.get("Validate/"+c.name, "ns/op"))+", "+num(va, "%.0f")+" allocs", "", "",
			goal("0 allocs/op", va == 0, !math.IsNaN(va)))
	}
}
