// Package metronome is the framework module's root. It holds no code: a
// game imports the subpackages, starting with package framework. Its one
// line of work is for the framework's own developers:
//
//	go generate .
//
// writes the SHA-256 of the framework's simulation source into package
// internal/srcid, which a networked match's identity hashes in place of
// the source itself, so no game links the framework's source files. Run
// it after editing one of those packages; until then the module's tests
// fail (TestFrameworkSumIsCurrent in internal/srcid), and a build keeps
// the identity of the source as it was last generated.
package metronome

//go:generate go run ./internal/srcid/gensum
