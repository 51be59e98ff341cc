//go:build !unix

package soundserver

import (
	"fmt"
	"os"
	"runtime"
)

// stopProcess fails: only Unix systems can stop a process and resume it
// later.
func stopProcess(*os.Process) error {
	return fmt.Errorf("soundserver: Freeze needs SIGSTOP, which %s does not have", runtime.GOOS)
}

// continueProcess does nothing: stopProcess never stopped anything here.
func continueProcess(*os.Process) error { return nil }
