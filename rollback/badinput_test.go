package rollback_test

import (
	"encoding/binary"
	"errors"
	"strings"
	"testing"

	"github.com/metronome-go/metronome/option"
	"github.com/metronome-go/metronome/rollback"
)

func pair(t testing.TB, hashEvery int) (a, b *rollback.Session) {
	t.Helper()
	players := []rollback.Player{{Peer: 0, Delay: 2}, {Peer: 1, Delay: 2}}
	var ss [2]*rollback.Session
	for i := range ss {
		s, err := rollback.NewSession(newToy(8), rollback.Options{Self: i, Players: players, Actions: 2, Window: 8, HashEvery: hashEvery})
		if err != nil {
			t.Fatal(err)
		}
		ss[i] = s
	}
	return ss[0], ss[1]
}

// message builds peer 1's message by hand: inputs of player 1 from first,
// count ticks, all zero, and the given hashes.
func message(first, count uint64, hashes ...[2]uint64) []byte {
	return messageOwing(first, count, 0, hashes...)
}

// messageOwing is [message] from a peer that owes debt ticks.
func messageOwing(first, count uint64, debt int64, hashes ...[2]uint64) []byte {
	m := []byte{'M', 'R', 4}
	m = binary.AppendUvarint(m, 1) // sender
	m = binary.AppendUvarint(m, first)
	m = binary.AppendUvarint(m, 0) // advantage 0
	m = binary.AppendVarint(m, debt)
	m = binary.AppendUvarint(m, 2)
	m = binary.AppendVarint(m, -int64(first)) // player 0's frontier: 0
	m = binary.AppendVarint(m, int64(count))  // player 1's: first+count
	m = binary.AppendUvarint(m, 0)            // no fills
	m = binary.AppendUvarint(m, 1)            // one block
	m = binary.AppendUvarint(m, 1)            // of player 1
	m = binary.AppendUvarint(m, count)        // starting count ticks back
	m = append(m, byte(count))                // count ticks
	if count > 0 {
		m = binary.AppendUvarint(m, count) // every tick as predicted: zero
	}
	m = binary.AppendUvarint(m, uint64(len(hashes)))
	for _, h := range hashes {
		m = binary.AppendVarint(m, int64(first)-int64(h[0]))
		m = binary.LittleEndian.AppendUint64(m, h[1])
	}
	return m
}

func TestInputBeyondTheWindowIsRefusedAndCounted(t *testing.T) {
	a, _ := pair(t, 0)
	if err := a.Receive(message(1000, 1)); err != nil {
		t.Fatal(err)
	}
	if err := a.Receive(message(2, 3)); err != nil {
		t.Fatal(err)
	}
	st := a.Stats()
	if st.Refused != 1 {
		t.Errorf("refused %d inputs, want the one for tick 1000", st.Refused)
	}
	if err := a.Receive(message(2, 3)); err != nil {
		t.Fatal(err)
	}
	if st := a.Stats(); st.Duplicates != 3 {
		t.Errorf("%d duplicates, want 3", st.Duplicates)
	}
}

func TestStaleHashIsReported(t *testing.T) {
	a, _ := pair(t, 1)
	for range 100 {
		if _, err := a.Advance(); err != nil {
			t.Fatal(err)
		}
		if err := a.Receive(message(uint64(a.Tick()), 1)); err != nil {
			t.Fatal(err)
		}
	}
	if err := a.Receive(message(100, 0, [2]uint64{3, 42})); err != nil {
		t.Fatal(err)
	}
	if st := a.Stats(); st.StaleHashes != 1 || st.StaleHashTick != 3 {
		t.Errorf("stale hashes %d (latest tick %d), want 1 for tick 3", st.StaleHashes, st.StaleHashTick)
	}
}

func TestDesyncNamesTheTick(t *testing.T) {
	a, _ := pair(t, 1)
	for range 20 {
		if _, err := a.Advance(); err != nil {
			t.Fatal(err)
		}
		if err := a.Receive(message(uint64(a.Tick()), 1)); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := a.Advance(); err != nil { // finalises the hashes confirmed since
		t.Fatal(err)
	}
	if err := a.Receive(message(20, 0, [2]uint64{10, 42})); err != nil {
		t.Fatal(err)
	}
	d, ok := a.Desync()
	if !ok || d.Tick != 10 || d.Peer != 1 || d.Remote != 42 {
		t.Fatalf("desync %+v (%v), want one at tick 10 with peer 1's hash 42", d, ok)
	}
	if !strings.Contains(d.Error(), "tick 10") {
		t.Errorf("%q does not name the tick", d.Error())
	}
}

func TestMalformedMessagesAreRefusedWhole(t *testing.T) {
	good := message(2, 2)
	cut := good[:len(good)-3]
	wrongPlayer := append([]byte(nil), good...)
	own := append([]byte(nil), good...)
	own[3] = 0 // sender peer 0: the receiver's own
	bad := [][]byte{nil, []byte("XX1"), {'M', 'R', 9}, cut, own, append(append([]byte(nil), good...), 0), wrongPlayer[:0]}
	for i, m := range bad {
		a, _ := pair(t, 0)
		err := a.Receive(m)
		if !errors.Is(err, rollback.ErrMalformed) {
			t.Errorf("message %d: error %v, want ErrMalformed", i, err)
		}
		if st := a.Stats(); st.Malformed != 1 || st.Confirmed != 2 {
			t.Errorf("message %d: malformed %d, confirmed up to %d; want 1 and nothing taken", i, st.Malformed, st.Confirmed)
		}
	}
}

func TestOptionsNameEveryBadField(t *testing.T) {
	err := rollback.Options{Self: -1, Players: []rollback.Player{{Peer: 99, Delay: -1}}, Actions: 0, Window: -1, HashEvery: -1}.Validate()
	var fields []string
	for _, e := range err.(interface{ Unwrap() []error }).Unwrap() {
		var oe *option.Error
		if errors.As(e, &oe) {
			fields = append(fields, oe.Field)
		}
	}
	want := "Options.Self Options.Players[0].Peer Options.Players[0].Delay Options.Actions Options.Window Options.HashEvery"
	if got := strings.Join(fields, " "); got != want {
		t.Errorf("fields %q, want %q", got, want)
	}
}

func TestReceiveFromRefusesAnotherSender(t *testing.T) {
	a, _ := pair(t, 0)
	m := message(2, 2) // from peer 1
	if err := a.ReceiveFrom(2, m); !errors.Is(err, rollback.ErrMalformed) || !strings.Contains(err.Error(), "came from peer 2") {
		t.Errorf("error %v, want ErrMalformed naming both peers", err)
	}
	if st := a.Stats(); st.Malformed != 1 || st.Confirmed != 2 {
		t.Errorf("malformed %d, confirmed up to %d; want 1 and nothing taken", st.Malformed, st.Confirmed)
	}
	if err := a.ReceiveFrom(1, m); err != nil {
		t.Errorf("from its own sender: %v", err)
	}
}

// A peer's message carries what it owes; SharedDebt is the mean of what
// every peer heard from and this one owe, and a debt beyond the bound is
// malformed, taking nothing.
func TestPeersShareTheirDebt(t *testing.T) {
	a, _ := pair(t, 0)
	a.SetDebt(10)
	if got := a.SharedDebt(); got != 10 {
		t.Errorf("SharedDebt %v before hearing a peer, want its own 10", got)
	}
	if err := a.Receive(messageOwing(2, 3, -4)); err != nil {
		t.Fatal(err)
	}
	if got := a.SharedDebt(); got != 3 {
		t.Errorf("SharedDebt %v owing 10 with a peer owing -4, want 3", got)
	}
	before := a.Stats()
	err := a.Receive(messageOwing(5, 3, 1<<40))
	if !errors.Is(err, rollback.ErrMalformed) || !strings.Contains(err.Error(), "debt") {
		t.Errorf("a debt of 2^40 ticks: %v, want ErrMalformed naming the debt", err)
	}
	if got := a.SharedDebt(); got != 3 {
		t.Errorf("after the malformed message: SharedDebt %v, want 3", got)
	}
	// Had the malformed message been taken, its ticks would come again
	// as duplicates.
	if err := a.Receive(messageOwing(5, 3, 0)); err != nil {
		t.Fatal(err)
	}
	if st := a.Stats(); st.Duplicates != before.Duplicates {
		t.Errorf("%d duplicates after the same ticks again, want %d: the malformed message's were taken", st.Duplicates, before.Duplicates)
	}
}

// fillMessage builds a message of sender, at tick 2 with every frontier
// at 2 and no blocks, saying it fills player from tick from.
func fillMessage(sender, player uint64, from int64) []byte {
	m := []byte{'M', 'R', 4}
	m = binary.AppendUvarint(m, sender)
	m = binary.AppendUvarint(m, 2) // tick
	m = binary.AppendUvarint(m, 0) // advantage 0
	m = binary.AppendVarint(m, 0)  // debt
	m = binary.AppendUvarint(m, 2) // players
	m = binary.AppendVarint(m, 0)  // player 0's frontier: 2
	m = binary.AppendVarint(m, 0)  // player 1's
	m = binary.AppendUvarint(m, 1) // one fill
	m = binary.AppendUvarint(m, player)
	m = binary.AppendVarint(m, from-2)
	m = binary.AppendUvarint(m, 0) // no blocks
	return binary.AppendUvarint(m, 0)
}

// Only the host fills, and only another peer's player: any other fill
// is refused whole. The host's word that it fills this peer's player
// makes it resynchronise, though the host's frontier for that player is
// not past its own.
func TestAFillIsTheHostsWord(t *testing.T) {
	for _, c := range []struct {
		name     string
		to       int
		msg      []byte
		mentions string
	}{
		{"from a peer that is not the host", 0, fillMessage(1, 1, 2), "only the host"},
		{"of the host's own player", 1, fillMessage(0, 0, 2), "its own player 0"},
	} {
		t.Run(c.name, func(t *testing.T) {
			a, b := pair(t, 0)
			s := [2]*rollback.Session{a, b}[c.to]
			if err := s.Receive(c.msg); !errors.Is(err, rollback.ErrMalformed) || !strings.Contains(err.Error(), c.mentions) {
				t.Errorf("error %v, want ErrMalformed saying %q", err, c.mentions)
			}
			if st := s.Stats(); st.Malformed != 1 {
				t.Errorf("malformed %d, want 1", st.Malformed)
			}
		})
	}
	_, b := pair(t, 0)
	if _, err := b.Advance(); err != nil {
		t.Fatal(err)
	}
	if err := b.Receive(fillMessage(0, 1, 2)); err != nil {
		t.Fatal(err)
	}
	if _, err := b.Advance(); !errors.Is(err, rollback.ErrResync) || !strings.Contains(err.Error(), "fills this peer's player 1 from tick 2") {
		t.Errorf("Advance after the host said it fills player 1: %v, want ErrResync naming the fill", err)
	}
}
