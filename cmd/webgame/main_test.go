package main

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
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
