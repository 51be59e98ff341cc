package gldemo_test

import (
	"flag"
	"os"
	"testing"

	"github.com/metronome-go/metronome/internal/testdisplay"
)

var update = flag.Bool("update", false, "rewrite the golden screenshot in testdata")

// The framework's init locks the main goroutine to the main thread; the
// demo's window runs there through testdisplay.OnMain while TestMain serves
// requests.
func TestMain(m *testing.M) {
	flag.Parse()
	os.Exit(testdisplay.ServeMain(m))
}
