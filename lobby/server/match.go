package server

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"sync"
	"time"

	"github.com/metronome-go/metronome/lobby"
)

// maxRound bounds the requests one round of a matcher takes, so that its
// commit stays far below JetStream's batch limit (1,000 messages): each
// request writes its record, at most one waiting client's record, at
// most one room and at most one dedicated host's record.
const maxRound = 128

// matcher serves the quick-match requests of one queue that reach this
// instance, in rounds: a round takes every request that arrived while the
// last one ran, pairs them with the queue's waiting clients and with each
// other, and stores the queue, the rooms and every record it changed in
// one atomic commit. A busy instance so makes one write where it had many
// requests, and the instances of a cluster contend for a queue's record
// once each, not once per client. Its goroutine runs while requests are
// pending and ends when none are.
type matcher struct {
	s       *Server
	key     string
	mu      sync.Mutex // after Server.mu
	pending []*quickReq
}

// quickReq is one client's request, answered on done.
type quickReq struct {
	c       *conn
	game    string
	players int
	done    chan quickRes
	rec     client // read by the round
	rev     uint64
	found   bool
}

type quickRes struct {
	m   match
	err error
}

// match is what a round stored for one client: a place in the queue
// (code empty), a new room (seats by id, the client's own seat, and the
// seats whose clients are not in the round and hear of the room from this
// one), or a room an earlier pairing had already put the client in
// (seats nil). A room with a dedicated host has one seat more than the
// queue's player count, the host's, seat 0.
type match struct {
	code, secret string
	seats        []string
	seat         int
	tell         []int
	moved        bool // the client went on in another connection
}

// matchQuick hands the request to the queue's matcher and waits for its
// round.
func (s *Server) matchQuick(c *conn, key, game string, players int) (match, error) {
	r := &quickReq{c: c, game: game, players: players, done: make(chan quickRes, 1)}
	s.mu.Lock()
	m := s.matchers[key]
	if m == nil {
		m = &matcher{s: s, key: key}
		s.matchers[key] = m
	}
	m.mu.Lock()
	m.pending = append(m.pending, r)
	if len(m.pending) == 1 {
		s.wg.Go(m.run)
	}
	m.mu.Unlock()
	s.mu.Unlock()
	if h := s.hooks.queued; h != nil {
		h()
	}
	res := <-r.done
	return res.m, res.err
}

func (m *matcher) run() {
	for {
		m.mu.Lock()
		round := slices.Clone(m.pending[:min(len(m.pending), maxRound)])
		m.mu.Unlock()
		m.round(round)
		m.s.mu.Lock()
		m.mu.Lock()
		m.pending = slices.Delete(m.pending, 0, len(round))
		idle := len(m.pending) == 0
		if idle {
			// Under both locks: the next request starts a new goroutine.
			delete(m.s.matchers, m.key)
		}
		m.mu.Unlock()
		m.s.mu.Unlock()
		if idle {
			return
		}
	}
}

// round stores one round and answers its requests. Until the round is
// answered, its requests stay pending: a request arriving meanwhile does
// not start another goroutine.
func (m *matcher) round(round []*quickReq) {
	if h := m.s.hooks.round; h != nil {
		h()
	}
	ctx, cancel := context.WithTimeout(context.Background(), storeTimeout)
	defer cancel()
	var ms []match
	err := errConflict
	for try := 0; try < casTries && errors.Is(err, errConflict); try++ {
		if try > 0 {
			// Another instance's round got there first: step back a
			// random while, so that the next tries do not collide again.
			t := time.NewTimer(rand.N(time.Millisecond << min(try, 6)))
			select {
			case <-t.C:
			case <-ctx.Done():
			}
			t.Stop()
		}
		ms, err = m.try(ctx, round)
	}
	if errors.Is(err, errConflict) {
		err = fmt.Errorf("lobby: queue %s: %d writers in a row got there first", m.key, casTries)
	}
	for i, r := range round {
		var res quickRes
		if err != nil {
			res.err = err
		} else {
			res.m = ms[i]
		}
		r.done <- res
	}
}

// try reads the queue and the records a round needs and commits it; it
// returns errConflict when a record changed since it was read.
func (m *matcher) try(ctx context.Context, round []*quickReq) ([]match, error) {
	s, kv, now := m.s, m.s.st.kv, m.s.o.Now()
	ms := make([]match, len(round))
	q, qrev, _, err := get[queue](ctx, kv, m.key)
	if err != nil {
		return nil, err
	}
	ws := []write{{key: m.key, rev: qrev}}
	inRound := make(map[string]bool, len(round))
	keys := make([]string, len(round))
	for i, r := range round {
		inRound[r.c.id] = true
		keys[i] = "c." + r.c.id
	}
	recs, err := getAll[client](ctx, kv, keys)
	if err != nil {
		return nil, err
	}
	var joining []*quickReq
	for i, r := range round {
		r.rec, r.rev, r.found = recs[i].v, recs[i].rev, recs[i].found
		if r.found && r.rec.Instance != "" && r.rec.Instance != s.o.Instance {
			// The client resumed elsewhere (or gave its id up): this is
			// the request of a connection it left.
			ms[i] = match{moved: true}
			continue
		}
		if r.found && r.rec.Room != "" {
			// A pairing took the entry of this client's earlier
			// connection (it is resuming) before this one queued it.
			ms[i] = match{code: r.rec.Room}
			continue
		}
		if !r.found {
			r.rec.Secret = hashSecret(r.c.secret)
		}
		r.rec.Instance = s.o.Instance
		r.rec.Room, r.rec.Queue, r.rec.Game, r.rec.Players = "", m.key, r.game, r.players
		joining = append(joining, r)
	}
	var live []waiting
	for _, w := range q.Waiting {
		if w.Until > now.UnixNano() && !inRound[w.ID] {
			live = append(live, w)
		}
	}
	if len(joining) == 0 {
		return ms, nil
	}
	players := joining[0].players
	groups := (len(live) + len(joining)) / players
	taken := min(len(live), groups*players)

	// The waiting clients taken, oldest first, with their records.
	type member struct {
		id  string
		req *quickReq // nil: a waiting client, told by a member of the round
		rec client
		rev uint64
	}
	var members []member
	var stale []string
	keys = keys[:0]
	for _, w := range live[:taken] {
		keys = append(keys, "c."+w.ID)
	}
	if recs, err = getAll[client](ctx, kv, keys); err != nil {
		return nil, err
	}
	for i, w := range live[:taken] {
		r := recs[i]
		if !r.found || r.v.Room != "" || r.v.Queue != m.key {
			stale = append(stale, w.ID) // it left, or is in a room already
			continue
		}
		members = append(members, member{id: w.ID, rec: r.v, rev: r.rev})
	}
	if len(stale) > 0 {
		q.Waiting = slices.DeleteFunc(live, func(w waiting) bool { return slices.Contains(stale, w.ID) })
		if err := s.st.commit(ctx, []write{{m.key, q, qrev}}); err != nil && !errors.Is(err, errConflict) {
			return nil, err
		}
		return nil, errConflict // read again without them
	}
	q.Waiting = live[taken:]
	for _, r := range joining {
		members = append(members, member{id: r.c.id, req: r, rec: r.rec, rev: r.rev})
	}
	// The dedicated hosts waiting for this game's rooms, longest first:
	// each group formed takes one as seat 0, with the host's record and
	// its queue in this same commit, so that a host is never handed two
	// rooms and a failed commit hands it none.
	var hosts []member
	if groups > 0 {
		dkey := dedicatedKey(joining[0].game, players)
		dq, dqrev, _, err := get[queue](ctx, kv, dkey)
		if err != nil {
			return nil, err
		}
		var dlive []waiting
		keys = keys[:0]
		for _, w := range dq.Waiting {
			if w.Until > now.UnixNano() && !inRound[w.ID] {
				dlive = append(dlive, w)
				keys = append(keys, "c."+w.ID)
			}
		}
		if recs, err = getAll[client](ctx, kv, keys); err != nil {
			return nil, err
		}
		var keep []waiting
		for i, w := range dlive {
			r := recs[i]
			switch {
			case !r.found || r.v.Room != "" || r.v.Queue != dkey:
				// It left, or is in a room or another queue now.
			case len(hosts) < groups:
				hosts = append(hosts, member{id: w.ID, rec: r.v, rev: r.rev})
			default:
				keep = append(keep, w)
			}
		}
		if len(keep) != len(dq.Waiting) {
			dq.Waiting = keep
			ws = append(ws, write{dkey, dq, dqrev})
		}
	}
	index := make(map[*quickReq]int, len(round))
	for i, r := range round {
		index[r] = i
	}
	for g := range groups {
		grp := members[g*players : (g+1)*players]
		if g < len(hosts) {
			grp = append([]member{hosts[g]}, grp...)
		}
		code, secret := lobby.NewCode(), lobby.NewID()
		seats := make([]string, len(grp))
		var tell []int
		for i, mb := range grp {
			seats[i] = mb.id
			if mb.req == nil {
				tell = append(tell, i)
			}
		}
		ws = append(ws, write{roomKey(code), room{Game: grp[0].rec.Game, Players: len(grp), Seats: seats,
			Secret: hashSecret(secret), Expires: now.Add(s.o.RoomTTL).UnixNano()}, 0})
		teller := true
		for i, mb := range grp {
			mb.rec.Room, mb.rec.Queue = code, ""
			ws = append(ws, write{"c." + mb.id, mb.rec, mb.rev})
			if mb.req != nil {
				ms[index[mb.req]] = match{code: code, secret: secret, seats: seats, seat: i}
				if teller {
					ms[index[mb.req]].tell, teller = tell, false
				}
			}
		}
	}
	for _, mb := range members[groups*players:] {
		r := mb.req
		q.Waiting = append(q.Waiting, waiting{ID: r.c.id, Conn: r.c.nonce, Until: now.Add(s.o.QueueTTL).UnixNano()})
		ws = append(ws, write{"c." + r.c.id, r.rec, r.rev})
	}
	ws[0].val = q
	return ms, s.st.commit(ctx, ws)
}
