package ecs

// AddStateResource stores r as the world's resource of type T and makes
// it game state: the world hash covers it, so a replay, a sync-test and a
// match's peers compare it, and every snapshot saves and restores it, so
// a rollback brings it back. It is [AddResource] and [HashResource] in
// one line, for the values a game keeps outside its entities (a score, a
// round's clock, a level's progress):
//
//	type Score struct{ Points [2]int32 }
//	score := ecs.AddStateResource(w, &Score{}) // in Setup; systems keep the pointer
//
// It returns r. T must be plain data (numbers, booleans, strings, and
// arrays, slices and structs of them): a type holding a pointer, map,
// interface, channel or function is reported, naming the field, by the
// first hash and when snapshots are enabled ([App.EnableSnapshots]). A
// resource that only shows the state (a HUD's layout) is not state:
// add it with AddResource alone.
func AddStateResource[T any](w *World, r *T) *T {
	AddResource(w, r)
	HashResource[T](w)
	return r
}
