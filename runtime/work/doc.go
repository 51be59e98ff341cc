// Package work runs CPU jobs on worker goroutines for a game session:
// decoding a level, building a navigation mesh, generating a chunk.
//
// A [Pool] runs jobs on at most a fixed number of goroutines, started as
// jobs arrive. Jobs are submitted through a [Group], which gives them one
// context, counts them ([Group.Stats]: Finished out of Accepted), cancels
// them ([Group.Cancel]) and reports the first panic ([Group.Err], a
// [*PanicError]); a panicking job fails its group, not the program.
//
// A [Session] is the pool of one game session, owned by its runtime: the
// runtime makes it with [NewSession] from the game's [Options], closes it
// first at shutdown (its groups refuse new jobs, their contexts are done)
// and settles it after the simulation has stopped ([Session.Settle]),
// before the platform frees what the jobs may use. A session's groups
// deliver results where they may be used:
//
//	g := workers.Group("levels")
//	err := work.Go(g, func(ctx context.Context) (*Level, error) {
//		return decode(ctx, data) // on a worker
//	}, func(l *Level, err error) {
//		game.level = l // on the simulation owner, before an update
//	})
//
// With [Options.Background] the owned pool's workers run at a lower OS
// priority, on Go processors of their own (GOMAXPROCS rises by the pool's
// capacity from its first job until it is closed), so a long load yields
// the CPU to the game's threads without ever holding a processor the
// platform thread waits for.
//
// [GoPlatform] first hands the job's value to the platform thread (a
// decoded image becomes a texture there). A [Job] type the caller reuses
// is submitted and completed without allocating.
//
// The package is pure Go and knows nothing of the runtime: the session is
// given the two functions that carry work to the simulation owner and the
// platform thread.
package work
