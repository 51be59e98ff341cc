// Package netsim simulates network conditions for tests: latency, jitter,
// loss, duplication, reordering and bandwidth on one-way links between
// peers, seeded and on virtual time, so two or more rollback sessions of a
// game can play against each other in one process and every run is the
// same run.
//
// # Time
//
// A link never reads a clock. Every call takes now, a [timing.Instant] of
// whatever timeline the test drives (a [timing.ManualClock], or a plain
// counter of ticks times the step); a packet sent at now is delivered by
// [Link.Receive] at the first call whose now reaches its arrival time.
//
// # Conditions
//
// Each packet sent draws, from the link's own seeded source and in this
// order: whether it is lost ([Options.Loss]), whether it is duplicated
// ([Options.Duplicate]), its jitter (uniform in ±[Options.Jitter]) and
// whether it is held back by up to one more [Options.Latency] so that later
// packets overtake it ([Options.Reorder]). [Options.Bandwidth] serialises
// packets: one leaves only when the one before it has been sent. A link
// holds at most [Options.QueueLimit] packets in flight and drops what does
// not fit, counting it, so memory never grows with a slow receiver.
//
//	net, err := netsim.NewNetwork(2, netsim.Options{Latency: 75 * time.Millisecond, Jitter: 20 * time.Millisecond, Loss: 0.05, Seed: 1})
//	net.Link(0, 1).Send(now, msg)
//	for n, ok := net.Link(0, 1).Receive(now, buf); ok; n, ok = net.Link(0, 1).Receive(now, buf) {
//		handle(buf[:n])
//	}
//
// A Link belongs to one goroutine (the test's); it is not safe for
// concurrent use.
package netsim
