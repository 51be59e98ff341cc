// Command webgame builds a Metronome game for the browser and serves it on
// this machine, or writes the files to publish it.
//
//	go run ./cmd/webgame ./examples/breakout              # build, serve on http://127.0.0.1:8080
//	go run ./cmd/webgame --out web/ ./examples/breakout   # write index.html, wasm_exec.js, game.wasm (and .gz copies)
//	go run ./cmd/webgame --out web/ --isolate ./examples/breakout  # also isolate.js, for a host without headers
//	go run ./cmd/webgame --zip breakout.zip ./examples/breakout  # the archive a game store takes
//	go run ./cmd/webgame --out web/ --rewind ./examples/breakout  # also rewind/, the inspector for a recording
//
// It builds the game's package with GOOS=js GOARCH=wasm (no cgo, no GLFW:
// the framework picks runtime/webplatform by build constraint), copies
// wasm_exec.js from the Go installation that built it, and writes an
// index.html that runs the game in a full-page canvas, with a message on
// the page when the browser has no WebGL2 or the .wasm file cannot load.
// It reports the .wasm size, raw and gzip-compressed.
//
// The page's address is the game's command line, one argument per arg
// parameter:
//
//	http://127.0.0.1:8080/?arg=--record&arg=session.rec&arg=--ticks=3600
//	http://127.0.0.1:8080/?arg=--bench=10000          # the demo's bunnymark
//	http://127.0.0.1:8080/?replay=session.rec         # fetch a recording and replay it
//
// (serve the recording with the game: --file session.rec).
//
// Files the game writes (a recording, a timing report) live in the page's
// memory and are offered as downloads when the game closes them; a
// recording named by ?replay= is fetched (from the same server, or any
// address that allows it) and replayed with --replay FILE --window.
//
// A page run with --record offers "Open in Rewind" beside the download:
// it opens rewind/, the time-travel inspector's page, in a new tab and
// hands it the recording. The server builds that page's module (the same
// game built with the metronome_inspect tag) at the first request under
// /rewind/; --out and --zip write it under rewind/ with --rewind.
//
// The server listens on the loopback interface only. It sends the .wasm
// file as application/wasm, gzip-compressed at build when the browser
// accepts gzip (--out writes the compressed copies beside the files, as
// NAME.gz), and every file with the COOP and COEP headers that make the
// page cross-origin isolated, which gives performance.now() (the game's
// clock) its finest resolution. A host that sets no headers gets the
// same with --isolate: the page registers a service worker that adds
// them and reloads once.
package main

import (
	"archive/zip"
	"bytes"
	"compress/gzip"
	"context"
	_ "embed"
	"errors"
	"flag"
	"fmt"
	"html/template"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"os/signal"
	"path"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/metronome-go/metronome/internal/shadersrc"
)

//go:embed index.html
var indexHTML string

//go:embed isolate.js
var isolateJS []byte

// wasmName is the game's file in the page.
const wasmName = "game.wasm"

// isolateName is the service worker that --isolate adds to the page.
const isolateName = "isolate.js"

// gzipMin is the size from which a file is worth sending compressed: below
// it the saving is a packet or less.
const gzipMin = 8 << 10

// site is a built game: the files of its page, by name, and beside each
// large one its gzip-compressed bytes, made once at build so no request
// pays for compression.
type site struct {
	files map[string][]byte
	gz    map[string][]byte
	order []string
}

// put adds a file to the site, compressing it when that saves.
func (s *site) put(name string, b []byte) {
	if s.files == nil {
		s.files = map[string][]byte{}
	}
	if s.gz == nil {
		s.gz = map[string][]byte{}
	}
	s.files[name] = b
	s.order = append(s.order, name)
	if len(b) >= gzipMin {
		if z := gzipBytes(b); len(z) < len(b) {
			s.gz[name] = z
		}
	}
}

// pageData is what the page template reads.
type pageData struct {
	Title, Name, Wasm string
	WasmSize          int  // the raw size, for the progress bar: the browser counts decompressed bytes
	Isolate           bool // register the isolation worker (--isolate)
	Rewind            bool // offer Open in Rewind beside a recording (rewind.go)
	// Programs are the renderer's built-in programs, which the page links
	// while the module downloads.
	Programs []shadersrc.Program
}

// renderPage writes index.html.
func renderPage(d pageData) ([]byte, error) {
	d.Programs = shadersrc.Builtins(shadersrc.ESPrelude)
	var page bytes.Buffer
	t := template.Must(template.New("index").Parse(indexHTML))
	if err := t.Execute(&page, d); err != nil {
		return nil, fmt.Errorf("webgame: writing index.html: %w", err)
	}
	return page.Bytes(), nil
}

// buildOptions say how to build a game for the browser.
type buildOptions struct {
	Dir   string // the game's package directory
	Title string // the page's title until the game sets its own
	Go    string // the go command; default "go"
	Tags  string // build tags, comma-separated (go build -tags); default none
	// Isolate adds a service worker that makes the page cross-origin
	// isolated on a host that sends no COOP and COEP headers.
	Isolate bool
	// Rewind offers Open in Rewind beside the game's recording, which
	// needs the inspector under rewind/ (rewind.go).
	Rewind bool
}

// build compiles the game in o.Dir to WebAssembly and returns its page.
func build(ctx context.Context, o buildOptions, stderr io.Writer) (*site, error) {
	goCmd := o.Go
	if goCmd == "" {
		goCmd = "go"
	}
	if st, err := os.Stat(o.Dir); err != nil || !st.IsDir() {
		return nil, fmt.Errorf("webgame: %s is not a directory (allowed: the directory of a game's main package, such as ./examples/breakout)", o.Dir)
	}
	tmp, err := os.MkdirTemp("", "webgame-")
	if err != nil {
		return nil, fmt.Errorf("webgame: %w", err)
	}
	defer os.RemoveAll(tmp)
	out := filepath.Join(tmp, wasmName)
	abs, err := filepath.Abs(out)
	if err != nil {
		return nil, err
	}
	// -s -w: no symbol table or DWARF, which the browser never reads.
	args := []string{"build", "-trimpath", "-ldflags=-s -w", "-o", abs}
	if o.Tags != "" {
		args = append(args, "-tags", o.Tags)
	}
	cmd := exec.CommandContext(ctx, goCmd, append(args, ".")...)
	cmd.Dir = o.Dir
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm", "CGO_ENABLED=0")
	cmd.Stdout, cmd.Stderr = stderr, stderr
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("webgame: building %s for the browser (GOOS=js GOARCH=wasm): %w", o.Dir, err)
	}
	wasm, err := os.ReadFile(abs)
	if err != nil {
		return nil, fmt.Errorf("webgame: %w", err)
	}
	root, err := exec.CommandContext(ctx, goCmd, "env", "GOROOT").Output()
	if err != nil {
		return nil, fmt.Errorf("webgame: asking %s for GOROOT: %w", goCmd, err)
	}
	execJS, err := os.ReadFile(filepath.Join(strings.TrimSpace(string(root)), "lib", "wasm", "wasm_exec.js"))
	if err != nil {
		return nil, fmt.Errorf("webgame: the Go installation has no wasm_exec.js: %w", err)
	}
	title := o.Title
	if title == "" {
		title = filepath.Base(filepath.Clean(o.Dir))
	}
	name := filepath.Base(filepath.Clean(o.Dir))
	page, err := renderPage(pageData{Title: title, Name: name, Wasm: wasmName, WasmSize: len(wasm), Isolate: o.Isolate, Rewind: o.Rewind})
	if err != nil {
		return nil, err
	}
	s := &site{}
	s.put("index.html", page)
	s.put("wasm_exec.js", execJS)
	s.put(wasmName, wasm)
	if o.Isolate {
		s.put(isolateName, isolateJS)
	}
	return s, nil
}

// add puts the file at path into the site under its base name, beside
// the game (a recording for ?replay=, say). It refuses a name the page
// already has.
func (s *site) add(path string) error {
	name := filepath.Base(path)
	if _, ok := s.files[name]; ok {
		return fmt.Errorf("webgame: --file %s: the page already has a file named %s (allowed: any other name; index.html, wasm_exec.js and %s are the page's)", path, name, wasmName)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("webgame: --file: %w", err)
	}
	s.put(name, b)
	return nil
}

// gzipBytes compresses b as the site sends it.
func gzipBytes(b []byte) []byte {
	var buf bytes.Buffer
	w, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	w.Write(b)
	w.Close()
	return buf.Bytes()
}

// write puts the site's files into dir, creating it, each large one with
// its compressed copy NAME.gz beside it for a server that serves those
// (nginx's gzip_static, Caddy's precompressed).
func (s *site) write(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("webgame: --out: %w", err)
	}
	for _, name := range s.order {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755); err != nil {
			return fmt.Errorf("webgame: --out: %w", err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), s.files[name], 0o644); err != nil {
			return fmt.Errorf("webgame: --out: %w", err)
		}
		if z, ok := s.gz[name]; ok {
			if err := os.WriteFile(filepath.Join(dir, name+".gz"), z, 0o644); err != nil {
				return fmt.Errorf("webgame: --out: %w", err)
			}
		}
	}
	return nil
}

// zip writes the site as an archive with index.html at its root, the
// layout game stores (itch.io's HTML games) take. It holds no .gz
// copies: the stores compress what they serve themselves.
func (s *site) zip(file string) error {
	f, err := os.Create(file)
	if err != nil {
		return fmt.Errorf("webgame: --zip: %w", err)
	}
	zw := zip.NewWriter(f)
	for _, name := range s.order {
		w, err := zw.Create(name)
		if err == nil {
			_, err = w.Write(s.files[name])
		}
		if err != nil {
			f.Close()
			return fmt.Errorf("webgame: --zip: %w", err)
		}
	}
	if err := zw.Close(); err != nil {
		f.Close()
		return fmt.Errorf("webgame: --zip: %w", err)
	}
	return f.Close()
}

// handler serves the site: the .wasm file as application/wasm, every
// response cross-origin isolated and never cached (a rebuilt game must
// not meet an old wasm_exec.js). A file with a compressed copy goes
// compressed (Content-Encoding: gzip, its own Content-Type) to a browser
// that accepts gzip, which every browser does.
func (s *site) handler() http.Handler {
	types := map[string]string{"index.html": "text/html; charset=utf-8", "wasm_exec.js": "text/javascript; charset=utf-8", wasmName: "application/wasm"}
	// Files added with --file go as bytes.
	const other = "application/octet-stream"
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		name := strings.TrimPrefix(r.URL.Path, "/")
		if name == "" || strings.HasSuffix(name, "/") {
			name += "index.html"
		}
		b, ok := s.files[name]
		if !ok {
			http.NotFound(w, r)
			return
		}
		h := w.Header()
		ct, ok := types[path.Base(name)]
		if !ok {
			ct = other
		}
		h.Set("Content-Type", ct)
		h.Set("Cross-Origin-Opener-Policy", "same-origin")
		h.Set("Cross-Origin-Embedder-Policy", "require-corp")
		h.Set("Cache-Control", "no-store")
		if z, ok := s.gz[name]; ok {
			h.Add("Vary", "Accept-Encoding")
			if acceptsGzip(r.Header.Values("Accept-Encoding")) {
				h.Set("Content-Encoding", "gzip")
				b = z
			}
		}
		h.Set("Content-Length", strconv.Itoa(len(b)))
		if r.Method != http.MethodHead {
			w.Write(b)
		}
	})
}

// acceptsGzip reports whether an Accept-Encoding header allows gzip: it
// names gzip (or *) without q=0.
func acceptsGzip(values []string) bool {
	gzip, star := -1, -1 // -1 not named, 0 refused, 1 allowed
	for _, v := range values {
		for _, part := range strings.Split(v, ",") {
			coding, params, _ := strings.Cut(part, ";")
			allowed := 1
			for _, p := range strings.Split(params, ";") {
				k, q, ok := strings.Cut(strings.TrimSpace(p), "=")
				if ok && strings.EqualFold(strings.TrimSpace(k), "q") {
					if f, err := strconv.ParseFloat(strings.TrimSpace(q), 64); err == nil && f == 0 {
						allowed = 0
					}
				}
			}
			switch c := strings.ToLower(strings.TrimSpace(coding)); c {
			case "gzip", "x-gzip":
				gzip = allowed
			case "*":
				star = allowed
			}
		}
	}
	if gzip >= 0 {
		return gzip == 1
	}
	return star == 1
}

// listen opens a listener on addr, which must be a loopback address: the
// development server is for this machine only.
func listen(addr string) (net.Listener, error) {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, fmt.Errorf("webgame: --addr %q: %v (allowed: a loopback host:port such as 127.0.0.1:8080)", addr, err)
	}
	if ip := net.ParseIP(host); host != "localhost" && (ip == nil || !ip.IsLoopback()) {
		return nil, fmt.Errorf("webgame: --addr %q is not a loopback address (allowed: 127.0.0.1, ::1 or localhost, any port); publish with --out or --zip instead", addr)
	}
	return net.Listen("tcp", addr)
}

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

func run(args []string, stdout, stderr io.Writer) int {
	fl := flag.NewFlagSet("webgame", flag.ContinueOnError)
	fl.SetOutput(stderr)
	out := fl.String("out", "", "write index.html, wasm_exec.js and "+wasmName+" into this directory instead of serving")
	zipFile := fl.String("zip", "", "write the page as a zip archive with index.html at its root (for a game store) instead of serving")
	addr := fl.String("addr", "127.0.0.1:8080", "serve on this loopback address")
	title := fl.String("title", "", "the page's title until the game sets its own (default: the directory's name)")
	isolate := fl.Bool("isolate", false, "add a service worker ("+isolateName+") that makes the page cross-origin isolated on a host that sends no COOP and COEP headers (GitHub Pages, itch.io), for performance.now()'s finest resolution; the page reloads itself once on the first visit")
	tags := fl.String("tags", "", "build `tags`, comma-separated, passed to go build (gldebug: the renderer checks for GL errors in every frame; metronome_testhook: the page's metronome object that browser tests and measurements read)")
	withRewind := fl.Bool("rewind", false, "with --out or --zip: also write the inspector's page for the game under rewind/ (a second build, "+rewindTag+"), so the page offers Open in Rewind beside a recording; served, it is built at the first request under /rewind/")
	var extra []string
	fl.Func("file", "serve (or write, or zip) this `file` beside the game under its own name, such as a recording to open with ?replay=NAME (repeatable)", func(v string) error {
		extra = append(extra, v)
		return nil
	})
	fl.Usage = func() {
		fmt.Fprintln(stderr, "usage: webgame [--out DIR] [--zip FILE] [--isolate] [--addr 127.0.0.1:8080] [--file FILE]... GAMEDIR")
		fl.PrintDefaults()
	}
	if err := fl.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if fl.NArg() != 1 {
		fmt.Fprintln(stderr, "webgame: want one argument, the game's directory, such as ./examples/breakout")
		return 2
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	serving := *out == "" && *zipFile == ""
	bo := buildOptions{Dir: fl.Arg(0), Title: *title, Tags: *tags, Isolate: *isolate, Rewind: serving || *withRewind}
	s, err := build(ctx, bo, stderr)
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 1
	}
	for _, f := range extra {
		if err := s.add(f); err != nil {
			fmt.Fprintln(stderr, err)
			return 1
		}
	}
	if !serving && *withRewind {
		if err := s.addRewind(ctx, bo, stderr); err != nil {
			fmt.Fprintln(stderr, err)
			return 1
		}
	}
	wasm := s.files[wasmName]
	fmt.Fprintf(stdout, "%s: %.2f MB, %.2f MB gzip\n", wasmName, float64(len(wasm))/1e6, float64(len(s.gz[wasmName]))/1e6)
	if *out != "" {
		if err := s.write(*out); err != nil {
			fmt.Fprintln(stderr, err)
			return 1
		}
		fmt.Fprintf(stdout, "wrote %s\n", *out)
	}
	if *zipFile != "" {
		if err := s.zip(*zipFile); err != nil {
			fmt.Fprintln(stderr, err)
			return 1
		}
		fmt.Fprintf(stdout, "wrote %s\n", *zipFile)
	}
	if *out != "" || *zipFile != "" {
		return 0
	}
	ln, err := listen(*addr)
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 1
	}
	srv := &http.Server{Handler: rewindHandler(s.handler(), newRewind(ctx, bo, stderr))}
	go func() {
		<-ctx.Done()
		srv.Close()
	}()
	fmt.Fprintf(stdout, "serving on http://%s/ (Ctrl+C stops)\n", ln.Addr())
	if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
		fmt.Fprintln(stderr, "webgame:", err)
		return 1
	}
	return 0
}
