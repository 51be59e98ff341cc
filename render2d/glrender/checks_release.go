//go:build !gldebug

package glrender

// debugChecks: without -tags gldebug, Render asks for GL errors only in
// the first frames after a change (checkFrames).
const debugChecks = false
