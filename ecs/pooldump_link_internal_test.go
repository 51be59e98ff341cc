//go:build !archesafe

package ecs

import (
	"bufio"
	"bytes"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// Decoding a snapshot links no JSON: Arche's JSON form of an entity,
// its only public way to make one from its parts, linked encoding/json's
// decoder (and through Entity's methods its encoder) into every game.
func TestDecodeLinksNoJSON(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a program")
	}
	cmd := exec.Command("go", "build", "-ldflags=-dumpdep", "-o", filepath.Join(t.TempDir(), "decode"), "./testdata/decodesnapshot")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("go build ./testdata/decodesnapshot: %v\n%s", err, stderr.Bytes())
	}
	decodes := false
	sc := bufio.NewScanner(&stderr)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		_, to, ok := strings.Cut(sc.Text(), " -> ")
		switch {
		case !ok:
		case to == "github.com/metronome-go/metronome/ecs.(*App).decodeBody":
			decodes = true
		case to == "encoding/json.Unmarshal", to == "encoding/json.Marshal", strings.HasSuffix(to, "arche/ecs.(*Entity).UnmarshalJSON"):
			t.Errorf("decoding a snapshot links %s", to)
		}
	}
	if !decodes {
		t.Error("the program links no decodeBody: the check above cannot see what decoding links")
	}
}
