package netplay

import (
	"net"
	"net/netip"
	"slices"
	"testing"
	"time"

	"github.com/metronome-go/metronome/rollback"
)

// FuzzToken: any string parses or is refused with an error, and a token
// that parses prints back as itself.
func FuzzToken(f *testing.F) {
	for _, tr := range []string{UDP, QUIC} {
		t := token{transport: tr}
		if tr == QUIC {
			t.pinLen = 32
		}
		for i := range t.secret {
			t.secret[i] = byte(i)
		}
		f.Add(t.String())
	}
	f.Add("udp:")
	f.Add("quic:AAAA")
	f.Add("tcp:AQ")
	f.Fuzz(func(t *testing.T, s string) {
		tok, err := parseToken(s)
		if err != nil {
			return
		}
		again, err := parseToken(tok.String())
		if err != nil || again != tok {
			t.Fatalf("%q parsed as %+v, which prints %q and parses as %+v, %v", s, tok, tok.String(), again, err)
		}
	})
}

// fakeConduit records what a match writes and never delivers anything by
// itself.
type fakeConduit struct{ sent int }

func (f *fakeConduit) ReadFrom(buf []byte) (int, netip.AddrPort, error) {
	return 0, netip.AddrPort{}, net.ErrClosed
}
func (f *fakeConduit) WriteTo(b []byte, to netip.AddrPort) error { f.sent++; return nil }
func (f *fakeConduit) LocalAddr() net.Addr                       { return &net.UDPAddr{} }
func (f *fakeConduit) Close() error                              { return nil }
func (f *fakeConduit) Wire() *Wire                               { return &Wire{} }

// FuzzPacket feeds arbitrary packets to a host with one joiner and to
// that joiner, from the peer's address and from a stranger's, sealed with
// the right key or not: nothing panics, the queues stay bounded, and a
// packet that is not a sealed one of the right shape is counted as
// dropped.
func FuzzPacket(f *testing.F) {
	key := []byte("0123456789abcdef")
	s := newSealer(key)
	seed := func(k kind, from int, payload ...byte) []byte {
		b := s.begin(k, from, 1<<40)
		return append([]byte(nil), s.seal(append(b, payload...))...)
	}
	f.Add(seed(kindData, 1, 0, 'x'), true, false)
	f.Add(seed(kindJoin, noSlot, appendJoin(nil, rollback.Identity{Game: "g"}, 0, rolePlayer)...), true, true)
	f.Add(seed(kindJoin, noSlot, appendJoin(nil, rollback.Identity{Game: "g"}, 0, roleSpectator)...), true, true)
	f.Add(seed(kindPing, 1, 1, 2, 3, 4, 5, 6, 7, 8), false, false)
	f.Add(seed(kindAccept, 0, 1, 2, 1), true, false)
	f.Add(seed(kindRefuse, 0, refuseFull, 2, 'n', 'o'), false, true)
	f.Add([]byte{0x17, 0}, true, false)
	f.Fuzz(func(t *testing.T, pkt []byte, reseal, stranger bool) {
		if reseal && len(pkt) >= headerLen+macLen && len(pkt) <= maxPacket {
			// Give the fuzzer packets that pass the MAC.
			pkt = append(append([]byte(nil), pkt[:len(pkt)-macLen]...), make([]byte, macLen)...)
			s.mac.Reset()
			s.mac.Write(pkt[:len(pkt)-macLen])
			copy(pkt[len(pkt)-macLen:], s.mac.Sum(nil))
		}
		peerAddr := netip.MustParseAddrPort("127.0.0.1:1000")
		hostAddr := netip.MustParseAddrPort("127.0.0.1:2000")
		from := peerAddr
		if stranger {
			from = netip.MustParseAddrPort("127.0.0.1:3000")
		}
		opts := Options{Players: 2, Networks: []Network{UDPNetwork()}}.withDefaults()
		host := newMatch(&fakeConduit{}, key, opts, rollback.Identity{Game: "g"}, true)
		host.peers[1] = endpoint{addr: peerAddr, joined: true, connected: true}
		joiner := newMatch(&fakeConduit{}, key, opts, rollback.Identity{Game: "g"}, false)
		joiner.peers[0] = endpoint{addr: hostAddr, joined: true}
		joiner.self = 1
		for i := range 3 {
			host.handle(pkt, from, time.Duration(i))
			jf := hostAddr
			if stranger {
				jf = from
			}
			joiner.handle(pkt, jf, time.Duration(i))
		}
		for _, m := range []*Match{host, joiner} {
			st := m.Stats()
			if len(m.inbox) > queueLen || len(m.events) > eventLen {
				t.Fatalf("queues %d and %d, over their bounds", len(m.inbox), len(m.events))
			}
			if st.Received.Packets != 3 {
				t.Fatalf("%d packets counted, want 3", st.Received.Packets)
			}
			if !reseal && len(pkt) > 0 {
				if _, _, r := m.loop.parse(pkt); r != okPacket {
					d := st.Dropped
					if d.Auth+d.Malformed+d.Oversized != 3 {
						t.Fatalf("a packet that does not parse (%d) was not dropped 3 times: %+v", r, d)
					}
				}
			}
		}
	})
}

// FuzzJoin decodes arbitrary join payloads: nothing panics, and what
// decodes codes back to a payload that decodes to the same join.
func FuzzJoin(f *testing.F) {
	f.Add(appendJoin(nil, rollback.Identity{Game: "g", Version: "1", Config: 7}, 1, rolePlayer))
	f.Add(appendJoin(nil, rollback.Identity{Game: "g"}, 0, roleSpectator))
	f.Add(appendJoin(nil, rollback.Identity{Game: "g"}, 2, roleSpectator))
	f.Add(appendJoin(nil, rollback.Identity{Game: "g", Settings: []rollback.Setting{{Key: "game.ship_speed", Value: "260"}, {Key: "net.delay", Value: "2"}}}, 0, rolePlayer))
	f.Fuzz(func(t *testing.T, p []byte) {
		id, slot, role, ok := parseJoin(p)
		if !ok {
			return
		}
		if role == roleSpectator && slot != 0 {
			t.Fatalf("a spectator's join asking for slot %d decoded", slot)
		}
		id2, slot2, role2, ok2 := parseJoin(appendJoin(nil, id, slot, role))
		same := id2.Game == id.Game && id2.Version == id.Version && id2.Config == id.Config && slices.Equal(id2.Settings, id.Settings)
		if !ok2 || !same || slot2 != slot || role2 != role {
			t.Fatalf("join %+v slot %d role %d codes back to %+v slot %d role %d (ok %v)", id, slot, role, id2, slot2, role2, ok2)
		}
	})
}
