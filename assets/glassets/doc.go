// Package glassets holds the tests that draw package assets through the
// OpenGL renderer: golden images of atlas-packed sprites, animation frames
// and text (the Go fonts, and a font with CFF outlines), read back from a
// real GL 4.1 context under Xvfb. It has no API;
// it exists so that the pure assets package never imports GL code, not even
// from a test.
//
// Regenerate the images after an intended change with
//
//	go test ./assets/glassets -run Golden -update
//
// and look at every PNG in testdata before committing it.
package glassets
