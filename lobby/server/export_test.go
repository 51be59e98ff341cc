package server

import (
	"context"
	"time"
)

// OnPaired calls f in the pairing client's goroutine once a pairing is
// stored, before any of its events is sent.
func OnPaired(s *Server, f func()) { s.hooks.paired = f }

// OnCleanup calls f(false) when a connection has ended, before it leaves
// the queue, and f(true) when it is done.
func OnCleanup(s *Server, f func(after bool)) { s.hooks.cleanup = f }

// RefreshQueues runs every connection's queue check now, as its next ping
// would.
func RefreshQueues(s *Server) {
	s.mu.Lock()
	cs := make([]*conn, 0, len(s.conns))
	for c := range s.conns {
		cs = append(cs, c)
	}
	s.mu.Unlock()
	for _, c := range cs {
		c.refreshQueue(context.Background())
	}
}

// OnQueued calls f when a quick-match request is pending with its
// matcher, and OnRound when a matcher starts a round.
func OnQueued(s *Server, f func()) { s.hooks.queued = f }
func OnRound(s *Server, f func())  { s.hooks.round = f }

// Commits returns how many atomic commits the instance stored.
func Commits(s *Server) int64 { return s.st.commits.Load() }

// FailRoomRead makes the read of a room a client is told of from its
// record fail with what f returns.
func FailRoomRead(s *Server, f func() error) { s.hooks.roomRead = f }

// OnSignalPath calls delivering before a NATS delivery to a client is
// handled, kept after a signal went to a mailbox, and drained after the
// mailbox watch handled a change; the relay waits wait for an answer.
func OnSignalPath(s *Server, wait time.Duration, delivering, kept, drained func()) {
	s.hooks.signalWait, s.hooks.delivering, s.hooks.kept, s.hooks.drained = wait, delivering, kept, drained
}

// OnResume calls f once a resume has subscribed under the client's id,
// before it reads the client's record again.
func OnResume(s *Server, f func()) { s.hooks.resuming = f }

// OnWatchEnded calls f when the mailbox watch ends before Close.
func OnWatchEnded(s *Server, f func()) { s.hooks.watchEnded = f }
