package schedule

// SetSequence sets the next sequence number, to reach its end in a test.
func SetSequence[T any](q *Queue[T], seq uint64) { q.seq = seq }

// SetFreeGeneration sets the generation of the free slot the next entry will
// take, to reach the end of the generation range in a test.
func SetFreeGeneration[T any](q *Queue[T], gen uint32) {
	q.slots[q.free[len(q.free)-1]].gen = gen
}
