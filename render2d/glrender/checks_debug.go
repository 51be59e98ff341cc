//go:build gldebug

package glrender

// debugChecks: built with -tags gldebug, Render asks for GL errors after
// the clear and each pass of every frame.
const debugChecks = true
