package render2d_test

import (
	"testing"

	"github.com/metronome-go/metronome/render2d"
)

// FuzzSlots drives the slots with an arbitrary interleaving of simulation
// and platform steps and checks the publication contract after each one:
// the platform's frame is the newest published one it could have seen,
// never changes while held, frames are never torn, Begin fails only when
// no slot is free, and the counters balance.
func FuzzSlots(f *testing.F) {
	f.Add([]byte{0, 0, 0, 0, 1, 0, 1, 2, 0, 3, 1})
	f.Add([]byte{0, 1, 0, 0, 0, 0, 1, 1, 4, 1})
	f.Add([]byte{5, 0, 1, 5, 1, 0, 2, 0})
	f.Fuzz(func(t *testing.T, ops []byte) {
		for _, mode := range []render2d.SlotMode{render2d.Sequential, render2d.Concurrent} {
			s := render2d.NewSlots(mode, render2d.SlotOptions{})
			var writing *render2d.FrameWriter
			var published, heldSeq uint64
			var heldTag float32
			for i, o := range ops {
				switch o % 6 {
				case 0, 5: // begin (if idle) and write
					if writing != nil {
						writing.BeginPass(render2d.PassDesc{}).Draw(render2d.DrawPacket2D{Params: [4]float32{float32(published + 1)}})
						continue
					}
					w, ok := s.Begin()
					if ok {
						writing = w
						if mode == render2d.Sequential {
							heldSeq = 0 // the single slot was taken back from the platform
						}
						if n := w.Frame().PacketCount(); n != 0 {
							t.Fatalf("op %d: lent frame has %d packets", i, n)
						}
						w.BeginPass(render2d.PassDesc{}).Draw(render2d.DrawPacket2D{Params: [4]float32{float32(published + 1)}})
					} else if mode == render2d.Sequential {
						t.Fatalf("op %d: sequential Begin failed", i)
					}
				case 1: // publish
					if writing != nil {
						s.Publish(writing)
						writing = nil
						published++
					}
				case 2: // discard
					if writing != nil {
						s.Discard(writing)
						writing = nil
					}
				case 3, 4: // platform
					if mode == render2d.Sequential && writing != nil {
						continue // sequential: one thread, never mid-preparation
					}
					fr, fresh := s.Acquire()
					if fr == nil {
						if published != 0 && heldSeq != 0 {
							t.Fatalf("op %d: Acquire returned nil after frames were claimed", i)
						}
						continue
					}
					tag := fr.Passes[0].Packets[0].Params[0]
					for _, p := range fr.Passes {
						for _, q := range p.Packets {
							if q.Params[0] != tag {
								t.Fatalf("op %d: torn frame", i)
							}
						}
					}
					if fresh {
						if fr.Sequence != published {
							t.Fatalf("op %d: claimed frame %d, newest published is %d", i, fr.Sequence, published)
						}
						heldSeq, heldTag = fr.Sequence, tag
					} else if fr.Sequence != heldSeq || tag != heldTag {
						t.Fatalf("op %d: held frame changed from %d to %d", i, heldSeq, fr.Sequence)
					}
				}
			}
			st := s.Stats()
			if st.Published != published {
				t.Fatalf("Stats.Published = %d, want %d", st.Published, published)
			}
			if st.Claimed+st.Superseded > st.Published {
				t.Fatalf("claimed %d + superseded %d > published %d", st.Claimed, st.Superseded, st.Published)
			}
		}
	})
}
