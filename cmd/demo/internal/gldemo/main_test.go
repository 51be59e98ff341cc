package gldemo_test

import (
	"flag"
	"os"
	"testing"

	"github.com/metronome-go/metronome/cmd/demo/internal/gldemo"
	"github.com/metronome-go/metronome/internal/testdisplay"
)

// childEnv makes the test binary run the demo instead of the tests.
const childEnv = "GLDEMO_CHILD"

var update = flag.Bool("update", false, "rewrite the golden screenshot in testdata")

// The framework's init locks the main goroutine to the main thread; the
// demo's window runs there through testdisplay.OnMain while TestMain serves
// requests.
func TestMain(m *testing.M) {
	if os.Getenv(childEnv) != "" {
		// A demo process a test starts and signals: the arguments are the
		// demo's.
		os.Exit(gldemo.Main(os.Args[1:], os.Stdout, os.Stderr))
	}
	flag.Parse()
	os.Exit(testdisplay.ServeMain(m))
}
