package ecs

// Snapshot exposes the per-tick snapshot to the external tests.
func Snapshot(t *Transform) { t.snapshot() }
