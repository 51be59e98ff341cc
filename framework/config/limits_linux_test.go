package config_test

import (
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/metronome-go/metronome/framework/config"
)

// TestFileNotRegular: a FIFO (which would block for ever), a device such
// as /dev/zero (which never ends) and a directory are refused unopened.
func TestFileNotRegular(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	cases := map[string]string{dir: "a directory", fifo: "a named pipe (FIFO)", "/dev/zero": "a character device"}
	for path, what := range cases {
		_, err := config.Build(config.Layers{File: path})
		if err == nil || !strings.Contains(err.Error(), "config: "+path+": cannot read the file: it is "+what+", not a regular file") {
			t.Errorf("%s: got %v, want it refused as %s", path, err, what)
		}
	}
}
