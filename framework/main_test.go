package framework_test

import (
	"flag"
	"os"
	"testing"

	"github.com/metronome-go/metronome/framework"
	"github.com/metronome-go/metronome/internal/testdisplay"
)

// The framework package locks the main thread in its init; window tests run
// their GLFW work there through testdisplay.OnMain.
func TestMain(m *testing.M) {
	if os.Getenv(faultChildEnv) != "" {
		// The game a fault test starts, signals and kills.
		framework.Main(faultGame())
	}
	flag.Parse()
	os.Exit(testdisplay.ServeMain(m))
}
