package audio_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/metronome-go/metronome/audio"
)

// BenchmarkMix renders 512-frame buffers with n busy voices. Besides ns/op
// it reports core-fraction (CPU time of the mixing thread to mix one
// second of audio / one second: 0.05 is 5% of one core) and CPU ns per
// voice per second of audio. CPU time, not wall time, because the machine
// is shared.
func BenchmarkMix(b *testing.B) {
	for _, n := range []int{0, 1, 16, 64} {
		b.Run(fmt.Sprintf("voices=%d", n), func(b *testing.B) {
			var m *audio.Mixer
			var buf []float32
			if n == 0 {
				m = newMixer(b, options())
				buf = make([]float32, 2*512)
			} else {
				m, buf = busyMixer(b, n)
			}
			b.ReportAllocs()
			lockThread()
			defer unlockThread()
			b.ResetTimer()
			start := threadCPU()
			for i := 0; i < b.N; i++ {
				if i%32 == 0 {
					m.Pump() // keep the stream fed, as the pump goroutine would
				}
				m.Render(buf)
			}
			elapsed := threadCPU() - start
			audioTime := time.Duration(b.N) * 512 * time.Second / rate
			frac := elapsed.Seconds() / audioTime.Seconds()
			b.ReportMetric(frac, "core-fraction")
			if n > 0 {
				b.ReportMetric(frac*1e9/float64(n), "ns/voice/s")
			}
		})
	}
}

func BenchmarkPlay(b *testing.B) {
	m := newMixer(b, options())
	p := m.Player()
	s := constant(b, 10, 0.1)
	buf := make([]float32, 2*64)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		p.Play(s, atFrame(i), audio.DefaultParams())
		if i%256 == 255 {
			m.Render(buf)
		}
	}
}
