// Package metronome holds the framework's own simulation source, compiled
// into every game so that a networked match tells apart two builds whose
// code differs, even two unstamped (devel) builds, and takes two builds of
// one source on different platforms for one game (see [Source]). The
// framework itself is in the subpackages: start with package framework.
//
//	fsys := metronome.Source()
//	data, err := fs.ReadFile(fsys, "ecs/doc.go")
package metronome
