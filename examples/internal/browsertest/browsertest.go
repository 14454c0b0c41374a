// Package browsertest drives a real headless Chromium from Go tests
// (github.com/chromedp/chromedp, the Chrome DevTools Protocol), for the
// pages of URL-mode questions (package runtime/page): open a URL, fill a
// form's fields by name, submit it, read what the page says, and keep a
// full-page screenshot of each page as test output.
//
// Tests that use it are skipped (with a message saying so) only when no
// Chromium is found (chromium, chromium-browser on PATH, then /usr/bin), and
// fail instead when MCPGEN_REQUIRE_BROWSER is set (.ci/run sets it and
// installs the Debian package chromium), as package internal/redistest does
// for redis-server. Screenshots go to MCPGEN_SCREENSHOTS when it is set (CI
// keeps .ci/out/screenshots), else to the test's temporary directory; each
// path is logged.
package browsertest

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

// Timeout bounds each browser step (a navigation, a submit, a read), so a
// page that never loads fails its test instead of hanging it.
const Timeout = 20 * time.Second

// Browser is a test's headless Chromium (see [Start]).
type Browser struct {
	t   testing.TB
	ctx context.Context // the browser's first tab: the process lives as long as it
	dir string          // where screenshots go

	mu    sync.Mutex
	shots int // screenshots taken, numbering the files
}

// Chromium returns the path of the Chromium binary: chromium or
// chromium-browser on PATH, else in /usr/bin; "" when there is none.
func Chromium() string {
	for _, name := range []string{"chromium", "chromium-browser"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
		if p := "/usr/bin/" + name; isExec(p) {
			return p
		}
	}
	return ""
}

func isExec(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && !fi.IsDir() && fi.Mode()&0o111 != 0
}

// Start returns the browser for t: the one [Main] started for the test
// binary (on first use), else one started for t alone and stopped when t
// ends. Chromium runs headless, with --no-sandbox when the tests run as root
// (where Chromium's sandbox refuses to start). Without Chromium, t is
// skipped, or fails when MCPGEN_REQUIRE_BROWSER is set. Call it in the
// test or subtest that uses its pages: their helpers fail that test, from
// its own goroutine.
func Start(t testing.TB) *Browser {
	t.Helper()
	bin := Chromium()
	if bin == "" {
		if os.Getenv("MCPGEN_REQUIRE_BROWSER") != "" {
			t.Fatal("chromium not found, and MCPGEN_REQUIRE_BROWSER is set (CI): install the Debian package chromium")
		}
		t.Skip("chromium not found (install the Debian package chromium): skipping a test that needs a real browser")
	}
	dir := os.Getenv("MCPGEN_SCREENSHOTS")
	if dir == "" {
		dir = t.TempDir()
	} else if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if !shared.main {
		ctx, stop, err := launch(bin)
		t.Cleanup(stop)
		if err != nil {
			t.Fatal(err)
		}
		return &Browser{t: t, ctx: ctx, dir: dir}
	}
	shared.Lock()
	defer shared.Unlock()
	if shared.ctx == nil && shared.err == nil {
		shared.ctx, shared.stop, shared.err = launch(bin)
	}
	if shared.err != nil {
		t.Fatal(shared.err)
	}
	return &Browser{t: t, ctx: shared.ctx, dir: dir}
}

// shared is the browser [Main] keeps for the whole test binary: starting
// Chromium takes seconds, a new tab in a new browser context a fraction.
var shared struct {
	sync.Mutex
	main bool
	ctx  context.Context
	stop func()
	err  error
}

// Main runs the tests of m with one browser shared by all of them, started
// by the first [Start], and stops it when they are done. Use it as
//
//	func TestMain(m *testing.M) { os.Exit(browsertest.Main(m)) }
func Main(m *testing.M) int {
	shared.main = true
	code := m.Run()
	shared.Lock()
	if shared.stop != nil {
		shared.stop()
	}
	shared.Unlock()
	return code
}

// launch starts Chromium at bin and waits until it answers; stop ends it
// (and removes its profile directory).
func launch(bin string) (ctx context.Context, stop func(), err error) {
	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(bin),
		chromedp.WindowSize(800, 600), chromedp.Flag("disable-gpu", true))
	if os.Geteuid() == 0 {
		opts = append(opts, chromedp.NoSandbox)
	}
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancel := chromedp.NewContext(actx)
	stop = func() {
		cancel()
		cancelAlloc()
	}
	// The first Run starts the process; it must not carry a timeout (that
	// would stop the browser), so the start is bounded from outside.
	started := make(chan error, 1)
	go func() { started <- chromedp.Do(ctx) }()
	select {
	case err = <-started:
	case <-time.After(Timeout):
		err = fmt.Errorf("no answer in %v", Timeout)
	}
	if err != nil {
		return nil, stop, fmt.Errorf("starting %s: %w", bin, err)
	}
	return ctx, stop, nil
}

// Page is one tab in a browser context of its own (its own cookies: one
// user's browser). Its methods fail the test on any browser error.
type Page struct {
	t   testing.TB
	b   *Browser
	ctx context.Context
}

// NewPage opens a tab in a new browser context, closed when the test ends.
func (b *Browser) NewPage() *Page {
	b.t.Helper()
	ctx, cancel := chromedp.NewContext(b.ctx, chromedp.WithNewBrowserContext())
	b.t.Cleanup(cancel)
	if err := chromedp.Do(ctx); err != nil {
		b.t.Fatalf("opening a tab: %v", err)
	}
	return &Page{t: b.t, b: b, ctx: ctx}
}

// Context returns the tab's chromedp context, for actions this package
// has no helper for: chromedp.Run(p.Context(), …).
func (p *Page) Context() context.Context { return p.ctx }

// Do runs steps in the tab within [Timeout]; an error fails the test.
func (p *Page) Do(steps ...chromedp.Action[chromedp.Void]) {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, Timeout)
	defer cancel()
	if err := chromedp.Do(ctx, steps...); err != nil {
		p.t.Fatalf("browser: %v", err)
	}
}

// Eval evaluates the JavaScript expression in the page (from the
// DevTools side: the page's Content-Security-Policy does not apply) and
// returns its value as a string.
func (p *Page) Eval(expr string) string {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, Timeout)
	defer cancel()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[string](expr))
	if err != nil {
		p.t.Fatalf("browser: evaluating %s: %v", expr, err)
	}
	return v
}

// Open navigates to url and returns the HTTP status of the document the
// navigation ends on (after redirects).
func (p *Page) Open(url string) int {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, Timeout)
	defer cancel()
	resp, err := chromedp.Run(ctx, chromedp.NavigateResponse(url))
	if err != nil {
		p.t.Fatalf("browser: opening %s: %v", url, err)
	}
	return int(resp.Status)
}

// Headers opens url and returns the response headers of its document, by
// lowercase name (DevTools reports them as the server wrote them).
func (p *Page) Headers(url string) map[string]string {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, Timeout)
	defer cancel()
	resp, err := chromedp.Run(ctx, chromedp.NavigateResponse(url))
	if err != nil {
		p.t.Fatalf("browser: opening %s: %v", url, err)
	}
	h := map[string]string{}
	for k, v := range resp.Headers {
		h[strings.ToLower(k)] = fmt.Sprint(v)
	}
	return h
}

// Fill sets the form field named name (an input, a select, a textarea) to
// value.
func (p *Page) Fill(name, value string) {
	p.t.Helper()
	p.Do(chromedp.SetValue(chromedp.CSS(`[name="`+name+`"]`), value))
}

// Submit clicks the page's submit button and returns the HTTP status of the
// page the post leads to (after redirects).
func (p *Page) Submit() int {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, Timeout)
	defer cancel()
	resp, err := chromedp.RunResponse(ctx, chromedp.Click(chromedp.CSS(`form [type="submit"]`)))
	if err != nil {
		p.t.Fatalf("browser: submitting the form: %v", err)
	}
	return int(resp.Status)
}

// Text returns the visible text of the first element that matches the CSS
// selector sel, waiting for it within [Timeout].
func (p *Page) Text(sel string) string {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, Timeout)
	defer cancel()
	s, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS(sel)))
	if err != nil {
		p.t.Fatalf("browser: reading %s: %v", sel, err)
	}
	return s
}

// Heading returns the text of the page's h1.
func (p *Page) Heading() string {
	p.t.Helper()
	return p.Text("h1")
}

// Has reports whether an element matches the CSS selector sel now.
func (p *Page) Has(sel string) bool {
	p.t.Helper()
	return p.Eval(`document.querySelector(`+strconv.Quote(sel)+`) ? "yes" : ""`) == "yes"
}

// Location returns the URL the tab shows.
func (p *Page) Location() string {
	p.t.Helper()
	return p.Eval(`location.href`)
}

// Frame is one frame inside the tab's page, as the browser reports it.
type Frame struct {
	URL string // the document the frame shows (Chromium's error page when it refused one)
	// Unreachable is the URL the frame failed to show ("" when it shows it):
	// for example a page whose Content-Security-Policy frame-ancestors or
	// X-Frame-Options forbid the framing.
	Unreachable string
}

// Frames returns the frames inside the tab's page (not the page itself),
// in document order, depth first.
func (p *Page) Frames() []Frame {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, Timeout)
	defer cancel()
	res, err := chromedp.Call(ctx, page.GetFrameTree, cdp.Empty{})
	if err != nil {
		p.t.Fatalf("browser: reading the frame tree: %v", err)
	}
	var out []Frame
	var walk func(*page.FrameTree)
	walk = func(ft *page.FrameTree) {
		for _, c := range ft.ChildFrames {
			out = append(out, Frame{URL: c.Frame.URL, Unreachable: c.Frame.UnreachableURL})
			walk(c)
		}
	}
	if res.FrameTree != nil {
		walk(res.FrameTree)
	}
	return out
}

var unsafeName = regexp.MustCompile(`[^A-Za-z0-9._-]+`)

// Screenshot saves a full-page PNG of the tab as
// <dir>/<test name>-<n>-<name>.png (n counts the test's screenshots, so
// files sort in the order they were taken), logs its path and returns it.
func (p *Page) Screenshot(name string) string {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, Timeout)
	defer cancel()
	png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		p.t.Fatalf("browser: screenshot %s: %v", name, err)
	}
	p.b.mu.Lock()
	p.b.shots++
	n := p.b.shots
	p.b.mu.Unlock()
	file := filepath.Join(p.b.dir, unsafeName.ReplaceAllString(p.t.Name(), "_")+"-"+strconv.Itoa(n)+"-"+unsafeName.ReplaceAllString(name, "_")+".png")
	if err := os.WriteFile(file, png, 0o644); err != nil {
		p.t.Fatal(err)
	}
	p.t.Logf("screenshot %s: %s", name, file)
	return file
}
