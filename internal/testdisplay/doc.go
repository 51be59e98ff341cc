// Package testdisplay gives tests an X display: the one in DISPLAY when it
// answers, otherwise a private Xvfb server started for the test binary.
// On Windows and macOS it is the desktop the tests run in.
//
// GL and window tests call [Start] from TestMain and [Unavailable] when it
// fails: outside CI a test without a display skips, but with the CI
// environment variable set it fails, so a missing install step can never turn
// into a green run that tested nothing.
//
//	func TestMain(m *testing.M) {
//		d, err := testdisplay.Start()
//		if err == nil {
//			defer d.Close()
//		}
//		displayErr = err
//		os.Exit(m.Run())
//	}
package testdisplay
