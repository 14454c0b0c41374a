package main

import "math"

// generationRows are the table's rows for generation (section 3): mcpgen
// on one synthetic package of 100 structs against packages.Load of it
// (BenchmarkGenerate), and go generate on a tree of 20 annotated packages,
// per-package directives against the one root directive docs/tags.md recommends against
// packages.Load of those packages, and both against stringer's per-package
// directives on the same packages (BenchmarkGenerateTree).
func generationRows(r results) []row {
	var rows []row
	add := func(what, m, b, ratio, g string) { rows = append(rows, row{what, m, b, ratio, g}) }
	ms := func(name, unit string) string { return dur(1e6 * r.get(name, unit)) }

	for _, c := range []struct{ name, what string }{
		{"rerun", "generation, 100 structs in one package, rerun (output current: nothing rendered or written) vs packages.Load alone"},
		{"fresh", "generation, 100 structs in one package, first run (200 files written) vs packages.Load alone"},
	} {
		n := "Generate/" + c.name
		x := r.get(n, "x-floor")
		add(c.what, ms(n, "mcpgen-ms"), ms(n, "floor-ms"), num(x, "%.2f×"), goal("≤ 1.3×", x <= 1.3, !math.IsNaN(x)))
	}

	const tree = "GenerateTree"
	one := r.get(tree, "one-x-floor")
	add("go generate ./..., 20 annotated packages, rerun (output current), the recommended setup: one //go:generate go run …/mcpgen ./... at the root (go run builds mcpgen once, then its cache serves it) vs packages.Load of the 20 packages",
		ms(tree, "one-ms"), ms(tree, "floor-ms"), num(one, "%.2f×"), goal("≤ 1.5×", one <= 1.5, !math.IsNaN(one)))
	pre := r.get(tree, "prebuilt-x-floor")
	add("the same rerun, a prebuilt mcpgen binary run on ./... directly (no go generate, no go run) vs packages.Load of the 20 packages",
		ms(tree, "prebuilt-ms"), ms(tree, "floor-ms"), num(pre, "%.2f×"), "")
	add("what go run costs before mcpgen starts (go run …/mcpgen -version, cached build) vs packages.Load of the 20 packages",
		ms(tree, "gorun-ms"), ms(tree, "floor-ms"), num(r.ratio(r.at(tree, "gorun-ms"), r.at(tree, "floor-ms")), "%.2f×"), "")
	ps := r.get(tree, "perpkg-x-stringer")
	add("go generate ./..., 20 packages, rerun (output current): one //go:generate go run …/mcpgen -type TripN per package vs one go run …/stringer -type=Level per package (golang.org/x/tools/cmd/stringer, the idiom users copy; it always rewrites) on the same packages",
		ms(tree, "perpkg-ms"), ms(tree, "stringer-ms"), num(ps, "%.2f×"), goal("≤ 1.0×", ps <= 1.0, !math.IsNaN(ps)))
	rs := r.get(tree, "one-x-stringer")
	add("go generate ./..., 20 packages, rerun: the one line at the root that docs/tags.md recommends vs one stringer line per package",
		ms(tree, "one-ms"), ms(tree, "stringer-ms"), num(rs, "%.2f×"), goal("≤ 0.1×", rs <= 0.1, !math.IsNaN(rs)))
	add("go generate ./..., 20 packages, rerun: one //go:generate line per package (20 go runs) vs the recommended one line",
		ms(tree, "perpkg-ms"), ms(tree, "one-ms"), num(r.get(tree, "perpkg-x-one"), "%.1f× slower"), "")
	add("go generate ./..., 20 packages, the recommended setup: first run (40 files rendered, type-checked, written) vs rerun",
		ms(tree, "fresh-ms"), ms(tree, "one-ms"), num(r.get(tree, "fresh-x-one"), "%.1f× slower"), "")
	return rows
}
