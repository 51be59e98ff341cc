package main

import (
	"archive/zip"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/metronome-go/metronome/internal/shadersrc"
)

// TestAddFile: a file added with --file is served beside the game, as
// bytes, with the page's headers; a name the page already has is refused.
func TestAddFile(t *testing.T) {
	dir := t.TempDir()
	rec := filepath.Join(dir, "session.rec")
	if err := os.WriteFile(rec, []byte("recorded"), 0o644); err != nil {
		t.Fatal(err)
	}
	s := &site{files: map[string][]byte{"index.html": []byte("<p>"), wasmName: []byte("\x00asm")}, order: []string{"index.html", wasmName}}
	if err := s.add(rec); err != nil {
		t.Fatal(err)
	}
	w := httptest.NewRecorder()
	s.handler().ServeHTTP(w, httptest.NewRequest(http.MethodGet, "/session.rec", nil))
	if got := w.Body.String(); w.Code != http.StatusOK || got != "recorded" {
		t.Errorf("GET /session.rec: %d %q, want 200 \"recorded\"", w.Code, got)
	}
	if got := w.Header().Get("Content-Type"); got != "application/octet-stream" {
		t.Errorf("Content-Type %q, want application/octet-stream", got)
	}
	if got := w.Header().Get("Cross-Origin-Embedder-Policy"); got != "require-corp" {
		t.Errorf("Cross-Origin-Embedder-Policy %q, want require-corp", got)
	}
	if got := s.order[len(s.order)-1]; got != "session.rec" {
		t.Errorf("the last file written is %q, want session.rec", got)
	}
	clash := filepath.Join(dir, "index.html")
	if err := os.WriteFile(clash, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := s.add(clash); err == nil || !strings.Contains(err.Error(), "already has a file named index.html") {
		t.Errorf("adding a second index.html: %v, want it refused by name", err)
	}
	if err := s.add(filepath.Join(dir, "missing.rec")); err == nil || !strings.Contains(err.Error(), "missing.rec") {
		t.Errorf("adding a missing file: %v, want an error naming it", err)
	}
}

// TestPrecompressed: a large file goes gzip-compressed, with its own
// Content-Type and Vary: Accept-Encoding, to a request that accepts gzip,
// and plain otherwise; both bodies are the same bytes.
func TestPrecompressed(t *testing.T) {
	wasm := bytes.Repeat([]byte("\x00asm module bytes "), 4096)
	s := &site{}
	s.put("index.html", []byte("<p>small"))
	s.put(wasmName, wasm)
	tests := []struct {
		accept string
		gzip   bool
	}{
		{"gzip, deflate, br", true},
		{"br;q=1.0, gzip;q=0.8", true},
		{"*", true},
		{"", false},
		{"identity", false},
		{"br", false},
		{"gzip;q=0", false},
		{"*, gzip;q=0", false},
		{"x-gzip", true},
	}
	for _, tt := range tests {
		r := httptest.NewRequest(http.MethodGet, "/"+wasmName, nil)
		if tt.accept != "" {
			r.Header.Set("Accept-Encoding", tt.accept)
		}
		w := httptest.NewRecorder()
		s.handler().ServeHTTP(w, r)
		h := w.Header()
		if got := h.Get("Content-Type"); got != "application/wasm" {
			t.Errorf("Accept-Encoding %q: Content-Type %q, want application/wasm", tt.accept, got)
		}
		if got := h.Get("Vary"); got != "Accept-Encoding" {
			t.Errorf("Accept-Encoding %q: Vary %q, want Accept-Encoding", tt.accept, got)
		}
		body := w.Body.Bytes()
		if got := h.Get("Content-Length"); got != strconv.Itoa(len(body)) {
			t.Errorf("Accept-Encoding %q: Content-Length %s, want %d", tt.accept, got, len(body))
		}
		enc := h.Get("Content-Encoding")
		if tt.gzip {
			if enc != "gzip" {
				t.Errorf("Accept-Encoding %q: Content-Encoding %q, want gzip", tt.accept, enc)
				continue
			}
			if len(body) >= len(wasm) {
				t.Errorf("Accept-Encoding %q: %d bytes, want fewer than the raw %d", tt.accept, len(body), len(wasm))
			}
			zr, err := gzip.NewReader(bytes.NewReader(body))
			if err != nil {
				t.Fatalf("Accept-Encoding %q: %v", tt.accept, err)
			}
			if body, err = io.ReadAll(zr); err != nil {
				t.Fatalf("Accept-Encoding %q: %v", tt.accept, err)
			}
		} else if enc != "" {
			t.Errorf("Accept-Encoding %q: Content-Encoding %q, want none", tt.accept, enc)
		}
		if !bytes.Equal(body, wasm) {
			t.Errorf("Accept-Encoding %q: the body (decompressed) differs from the module", tt.accept)
		}
	}
	// A small file is not worth compressing: sent plain, without Vary.
	r := httptest.NewRequest(http.MethodGet, "/", nil)
	r.Header.Set("Accept-Encoding", "gzip")
	w := httptest.NewRecorder()
	s.handler().ServeHTTP(w, r)
	if got := w.Header().Get("Content-Encoding"); got != "" || w.Body.String() != "<p>small" {
		t.Errorf("GET / accepting gzip: Content-Encoding %q, body %q; want the small page plain", got, w.Body.String())
	}
}

// TestWriteGz: --out writes each compressed copy beside its file, and
// the copy decompresses to the file; --zip leaves the copies out.
func TestWriteGz(t *testing.T) {
	wasm := bytes.Repeat([]byte("module "), 8192)
	s := &site{}
	s.put("index.html", []byte("<p>"))
	s.put(wasmName, wasm)
	dir := t.TempDir()
	if err := s.write(dir); err != nil {
		t.Fatal(err)
	}
	z, err := os.ReadFile(filepath.Join(dir, wasmName+".gz"))
	if err != nil {
		t.Fatal(err)
	}
	zr, err := gzip.NewReader(bytes.NewReader(z))
	if err != nil {
		t.Fatal(err)
	}
	if got, err := io.ReadAll(zr); err != nil || !bytes.Equal(got, wasm) {
		t.Errorf("%s.gz decompresses to %d bytes (%v), want the %d of %s", wasmName, len(got), err, len(wasm), wasmName)
	}
	if _, err := os.Stat(filepath.Join(dir, "index.html.gz")); !os.IsNotExist(err) {
		t.Errorf("index.html.gz: %v, want none for a small file", err)
	}
	file := filepath.Join(dir, "page.zip")
	if err := s.zip(file); err != nil {
		t.Fatal(err)
	}
	zf, err := zip.OpenReader(file)
	if err != nil {
		t.Fatal(err)
	}
	defer zf.Close()
	var names []string
	for _, f := range zf.File {
		names = append(names, f.Name)
	}
	if want := []string{"index.html", wasmName}; !slices.Equal(names, want) {
		t.Errorf("zip holds %q, want %q", names, want)
	}
}

// TestPageTemplate: the page streams the module's compilation, sizes its
// progress bar by the raw module, and registers the isolation worker only
// when asked to.
func TestPageTemplate(t *testing.T) {
	for _, isolate := range []bool{false, true} {
		page, err := renderPage(pageData{Title: "t", Name: "n", Wasm: wasmName, WasmSize: 1234567, Isolate: isolate})
		if err != nil {
			t.Fatal(err)
		}
		for _, want := range []string{"WebAssembly.instantiateStreaming(", `go.argv.push("--join", join, "--token", token`, `max="1234567"`, `fetchWasm("game.wasm",  1234567 , abort.signal)`, "self.crossOriginIsolated"} {
			if !bytes.Contains(page, []byte(want)) {
				t.Errorf("isolate %v: the page has no %s", isolate, want)
			}
		}
		if want := fmt.Sprintf("if (! %v  ||", isolate); !bytes.Contains(page, []byte(want)) {
			t.Errorf("isolate %v: the page has no %q", isolate, want)
		}
	}
}

// TestPageLinksTheRenderersPrograms: the page's programs, read back from
// it, are the renderer's built-in ones for WebGL2 (shadersrc.Builtins), which
// the renderer compiles from the same functions.
func TestPageLinksTheRenderersPrograms(t *testing.T) {
	page, err := renderPage(pageData{Title: "t", Name: "n", Wasm: wasmName, WasmSize: 1})
	if err != nil {
		t.Fatal(err)
	}
	const at = "programs: prelink(check, "
	i := bytes.Index(page, []byte(at))
	if i < 0 {
		t.Fatalf("the page has no %q", at)
	}
	var got []shadersrc.Program
	if err := json.NewDecoder(bytes.NewReader(page[i+len(at):])).Decode(&got); err != nil {
		t.Fatalf("reading the page's programs: %v", err)
	}
	want := shadersrc.Builtins(shadersrc.ESPrelude)
	if len(got) != len(want) {
		t.Fatalf("the page links %d programs, the renderer %d", len(got), len(want))
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("program %d: the page's source differs from the renderer's", i)
		}
	}
}
