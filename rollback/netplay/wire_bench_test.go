package netplay_test

import (
	"testing"
	"time"

	"github.com/metronome-go/metronome/internal/toysim"
	"github.com/metronome-go/metronome/rollback"
	"github.com/metronome-go/metronome/rollback/netplay"
)

// BenchmarkWireRate plays a two-player match at 60 ticks a second of
// real time for 5 seconds per iteration, on loopback, and reports what
// the joiner puts on the wire each second (headers and, over QUIC,
// QUIC's own packets included):
//
//	go test ./rollback/netplay -run '^$' -bench WireRate -benchtime 1x
func BenchmarkWireRate(b *testing.B) {
	for _, tr := range transports {
		b.Run(tr, func(b *testing.B) {
			for b.Loop() {
				ms := open(b, tr, 2, netplay.Options{Networks: udpOnly})
				ss := make([]*rollback.Session, 2)
				players := []rollback.Player{{Peer: 0, Delay: 2}, {Peer: 1, Delay: 2}}
				for i := range ss {
					s, err := rollback.NewSession(&toysim.Toy{}, rollback.Options{Self: i, Players: players, Actions: 2, Window: 8, HashEvery: 60})
					if err != nil {
						b.Fatal(err)
					}
					ss[i] = s
				}
				before := ms[1].Stats()
				tick := time.NewTicker(time.Second / 60)
				var msg []byte
				buf := make([]byte, rollback.MaxMessage)
				const ticks = 300
				for range ticks {
					<-tick.C
					for i, s := range ss {
						for n, from, ok := ms[i].Receive(buf); ok; n, from, ok = ms[i].Receive(buf) {
							if err := s.ReceiveFrom(from, buf[:n]); err != nil {
								b.Fatal(err)
							}
						}
						toysim.Bot(i, s.Tick()+2, s.Local(i))
						if _, err := s.Advance(); err != nil {
							b.Fatal(err)
						}
						msg = s.AppendMessage(msg[:0])
						if err := ms[i].Send(1-i, msg); err != nil {
							b.Fatal(err)
						}
					}
				}
				tick.Stop()
				after := ms[1].Stats()
				secs := float64(ticks) / 60
				b.ReportMetric(float64(after.WireSent.Bytes-before.WireSent.Bytes)/secs, "wire-B/s")
				b.ReportMetric(float64(after.WireSent.Packets-before.WireSent.Packets)/secs, "datagrams/s")
				b.ReportMetric(float64(after.Sent.Bytes-before.Sent.Bytes)/secs, "payload-B/s")
				for _, m := range ms {
					m.Close()
				}
			}
		})
	}
}
