// Package srctree says how a tree of Go source is hashed into a match's
// identity, and which of the framework's packages are hashed: one home
// for package srcid, which hashes a game's embedded source when a match
// starts, and for its generator (internal/srcid/gensum), which hashes the
// framework's source once, at go generate, so that no game links the
// framework's source files.
//
// # How a tree is hashed
//
// Every file but Go test files (*_test.go) counts, sorted by path
// (bytewise, slash-separated, relative to the tree's root). [File] writes
// each as two length-prefixed [Field]s, its path and its content; in a Go
// file a carriage return before a line feed is dropped (the compiler
// ignores it, in raw strings too, and a Windows checkout adds it).
//
// # The framework's simulation source
//
// [Packages] lists the framework's packages whose code can change a
// world's state or what the simulation is given; [Framework] hashes their
// non-test Go files, whatever their build constraints, so every platform
// hashes the same files, and [Generate] writes the result as package
// srcid's generated file:
//
//	src, err := srctree.Generate(os.DirFS(moduleRoot))
package srctree
