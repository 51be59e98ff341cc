package srcid_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/metronome-go/metronome/internal/srcid"
	"github.com/metronome-go/metronome/internal/srcid/srctree"
)

// root is the framework module's root, from this package's directory.
var root = filepath.Join("..", "..")

// The committed sum is the framework's simulation source as it is on
// disk: editing one of its packages without go generate fails here, and
// so does editing the generated file by hand.
func TestFrameworkSumIsCurrent(t *testing.T) {
	fsys := os.DirFS(root)
	sum, files, err := srctree.Framework(fsys)
	if err != nil {
		t.Fatal(err)
	}
	got, err := srcid.Framework()
	if err != nil {
		t.Fatal(err)
	}
	if got.Sum != sum || got.Files != files {
		t.Fatalf("%s is stale: it holds the sum %x of %d files, but the framework's simulation source on disk hashes to %x (%d files); "+
			"run go generate . at the module's root and commit the file", srctree.GeneratedFile, got.Sum, got.Files, sum, files)
	}
	want, err := srctree.Generate(fsys)
	if err != nil {
		t.Fatal(err)
	}
	have, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(srctree.GeneratedFile)))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(have, want) {
		t.Errorf("%s is not what go generate writes (edited by hand?): run go generate . at the module's root\nhave:\n%s\nwant:\n%s", srctree.GeneratedFile, have, want)
	}
}

// A damaged generated sum is an error that says how to mend it, not a
// panic or a zero sum.
func TestDamagedFrameworkSum(t *testing.T) {
	good := strings.Repeat("0f", 32)
	if tree, err := srcid.DecodeTree(good, 3); err != nil || tree.Sum[0] != 0x0f || tree.Files != 3 {
		t.Fatalf("DecodeTree(%q, 3) = %v, %v", good, tree, err)
	}
	for _, digits := range []string{"", good[:62], good + "00", strings.Repeat("zz", 32)} {
		_, err := srcid.DecodeTree(digits, 3)
		if err == nil || !strings.HasPrefix(err.Error(), "srcid: the generated framework sum") || !strings.Contains(err.Error(), "run go generate . at the framework module's root") {
			t.Errorf("DecodeTree(%q): %v, want an error saying to run go generate", digits, err)
		}
	}
}
