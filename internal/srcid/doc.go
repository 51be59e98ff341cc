// Package srcid computes the identity of a build's simulation code, which
// a networked match compares before it lets a peer in: two builds whose
// simulation code differs get different identities, and two builds of the
// same source get the same one on every platform.
//
// # What is hashed
//
// [Compute] hashes, with SHA-256:
//
//   - the Go version (the standard library runs in the simulation too);
//   - the framework's simulation source: every non-test Go file of the
//     packages srctree.Packages lists, whatever its build constraints, so
//     every platform hashes the same files. No game links those files:
//     go generate at the module's root hashes them once into a constant
//     of this package ([Framework]), and TestFrameworkSumIsCurrent fails
//     while the constant is stale;
//   - the content sum (h1) of every module the binary links, but the
//     framework's own (its source is hashed) and the few the framework
//     links on some platforms only ([PlatformModules]: window, OpenGL,
//     sound device, system calls);
//   - the game's code: its embedded source ([Build.Game]) when it gives
//     it; else its module's content sum when it was built from a module
//     version (go install game@v1.2.0); else, weakly, its build stamps
//     (module version, VCS revision, modified flag).
//
// Sources are hashed as package srctree says (files in path order, test
// files left out, CRLF read as LF). An [Identity] says which of the three
// knew the game ([Kind]) and [Identity.Warnings] says, in words, what it
// cannot tell apart.
//
//	id, err := srcid.Of(gameSource)
//	if err != nil {
//		return err
//	}
//	fmt.Println(id.Version()) // simulation code 5f0c…
package srcid
