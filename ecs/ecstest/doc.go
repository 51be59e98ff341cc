// Package ecstest checks, in a game's tests, that the game's snapshots
// travel to another process (the binary form of
// [ecs.Snapshot.AppendBinary] and [ecs.App.DecodeSnapshot]), and what its
// rollbacks cost:
//
//   - [Travel] sends one App's state to another App of the game and
//     checks that the receiver then has the sender's hash; [SameHash]
//     checks that both keep it as they run the same ticks.
//   - [FuzzDecode] is the body of a game's FuzzSnapshotDecode: random and
//     corrupt bytes decode to an error or to a snapshot that restores,
//     never a panic, with allocation bounded by the input's length.
//   - [BenchWire] measures encoding and decoding a game's snapshot, per
//     entity, beside the in-memory save.
//   - [Rollback] is one rollback of a game (a restore, ticks run again, a
//     save): [Rollback.Bench] measures it and [Rollback.Allocs] counts
//     its allocations for the game's allocation test.
//
// Each game's test sets up its own App (its input, its seeds, the ticks
// at which to send) and makes one of these calls:
//
//	func FuzzSnapshotDecode(f *testing.F) {
//		sim := playedSim(f) // the game after some seeded play
//		ecstest.FuzzDecode(f, func(t testing.TB) *ecs.App { return freshSim(t).App }, ecstest.Encode(f, sim.App))
//	}
//
// Production code never imports it.
package ecstest
