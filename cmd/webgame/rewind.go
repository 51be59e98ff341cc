package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
)

// Rewind, the inspector, for a game in the page: the game's page offers
// Open in Rewind beside its recording, which opens rewind/ in a new tab
// and hands the recording over. rewind/ is the inspector's own page
// (inspect/page) with a second build of the same game, made with
// rewindTag, in which --replay FILE --inspect page answers the page's
// requests in the page (framework/inspect_page_js.go). The tag is this
// command's business: the game's own module stays without package
// inspect and net/http.

// rewindTag is the build tag of the game's inspect build.
const rewindTag = "metronome_inspect"

// rewindDir is where the inspector's page lives beside the game's.
const rewindDir = "rewind"

// buildRewind builds the inspector's page for the game o builds: the
// inspect build of the game, wasm_exec.js, and inspect/page/index.html of
// the framework version the game builds with.
func buildRewind(ctx context.Context, o buildOptions, stderr io.Writer) (*site, error) {
	o.Tags = strings.Trim(o.Tags+","+rewindTag, ",")
	o.Isolate, o.Rewind = false, false
	s, err := build(ctx, o, stderr)
	if err != nil {
		return nil, err
	}
	goCmd := o.Go
	if goCmd == "" {
		goCmd = "go"
	}
	cmd := exec.CommandContext(ctx, goCmd, "list", "-tags", o.Tags, "-f", "{{.Dir}}", "github.com/metronome-go/metronome/inspect")
	cmd.Dir = o.Dir
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm", "CGO_ENABLED=0")
	cmd.Stderr = stderr
	dir, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("webgame: finding the inspector's page for %s (go list github.com/metronome-go/metronome/inspect): %w", o.Dir, err)
	}
	page, err := os.ReadFile(filepath.Join(strings.TrimSpace(string(dir)), "page", "index.html"))
	if err != nil {
		return nil, fmt.Errorf("webgame: the game's framework has no inspector page: %w", err)
	}
	r := &site{}
	r.put("index.html", page)
	for _, name := range s.order {
		if name != "index.html" {
			r.put(name, s.files[name])
		}
	}
	return r, nil
}

// addRewind builds the inspector's page for the game and adds its files
// to s under rewind/, for --out and --zip.
func (s *site) addRewind(ctx context.Context, o buildOptions, stderr io.Writer) error {
	r, err := buildRewind(ctx, o, stderr)
	if err != nil {
		return err
	}
	for _, name := range r.order {
		s.put(rewindDir+"/"+name, r.files[name])
	}
	return nil
}

// rewind builds the inspector's page at its first request, once: a game
// served for play seldom opens it, and the build takes as long as the
// game's. A build that fails is answered with its error until the
// server restarts, so a broken game is not rebuilt at every request.
type rewind struct {
	ctx    context.Context // the server's: a request that goes away does not stop the build
	opts   buildOptions
	stderr io.Writer
	once   sync.Once
	site   *site
	err    error
}

func newRewind(ctx context.Context, o buildOptions, stderr io.Writer) *rewind {
	return &rewind{ctx: ctx, opts: o, stderr: stderr}
}

// get returns the inspector's page, building it on the first call; every
// caller waits for that build.
func (r *rewind) get() (*site, error) {
	r.once.Do(func() { r.site, r.err = buildRewind(r.ctx, r.opts, r.stderr) })
	return r.site, r.err
}

// rewindHandler serves the game's page with h, and under /rewind/ the
// inspector's page from r.
func rewindHandler(h http.Handler, r *rewind) http.Handler {
	mux := http.NewServeMux()
	mux.Handle("/", h)
	mux.Handle("/"+rewindDir+"/", http.StripPrefix("/"+rewindDir, http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		s, err := r.get()
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		s.handler().ServeHTTP(w, req)
	})))
	return mux
}
