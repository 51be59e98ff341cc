// Package apicheck holds the module's exported API to its last release, for
// scripts/apicheck (run by scripts/test.sh).
//
// # API files
//
// [Extract] lists every exported name of the module's packages (not
// commands, internal/ or cmd/ and examples/) over the desktop and browser
// platforms, one [Line] each in the form of Go's own api/ files:
//
//	pkg timing, func NewFramePacer(PacingPolicy, Clock, Waiter) (*FramePacer, error)
//	pkg timing, method (*FramePacer) Pace() PaceResult
//	pkg timing, type PacingPolicy struct, Interval time.Duration
//
// A release's list is committed as api/vX.Y.Z.txt ([Baseline]), so the
// check needs neither git nor the release's tag. It is built from the
// source alone (go/parser, no type checking), so it needs no dependency
// either; signatures are written as the source spells them.
//
// # The check
//
// [Removed] lists the release's names the tree no longer offers: not under
// its own name, nor through an alias or an embedded type. A name kept as a
// deprecated wrapper is offered. [ReadChangelog] collects what the Adapt
// entries of later releases name, and [Report] lists the removals none
// names, with what to do. [DocLeaks] finds exported names whose doc
// comments name an unexported identifier, which readers of go doc cannot
// look up.
package apicheck
