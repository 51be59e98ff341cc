package audio

import "math"

// voice is one busy slot of the mixer: a sound or a stream, where it is in
// its source, its gains and its scheduled start and stop.
type voice struct {
	slot     int32
	id       uint64
	sound    *Sound
	stream   *Stream
	bus      Bus
	priority int8
	loop     bool
	stopping bool
	start    int64  // first output frame
	stopAt   int64  // output frame where the stop fade begins
	stopFade int64  // its length in frames
	pos      uint64 // source position, 32.32 fixed point (sounds)
	step     uint64 // source frames per output frame, 32.32
	gl, gr   float32
	env      ramp // volume, fades in and out
}

const one = 1 << 32

func stepFor(srcRate, outRate int, speed float32) uint64 {
	if srcRate == outRate && speed == 1 {
		return one // exact: no interpolation error at all
	}
	return uint64(math.Round(float64(srcRate) / float64(outRate) * float64(speed) * one))
}

func (v *voice) init(slot int32, c *command, start int64, rate int) {
	p := &c.params
	*v = voice{
		slot:     slot,
		id:       c.id,
		sound:    c.sound,
		stream:   c.stream,
		bus:      p.Bus,
		priority: p.Priority,
		loop:     p.Loop,
		start:    start,
		stopAt:   math.MaxInt64,
	}
	if c.sound != nil {
		v.step = stepFor(c.sound.rate, rate, p.Speed)
	}
	v.setPan(p.Pan)
	if f := DurationFrames(p.FadeIn, rate); f > 0 {
		v.env.set(0)
		v.env.to(p.Volume, f)
	} else {
		v.env.set(p.Volume)
	}
}

func (v *voice) setPan(pan float32) {
	v.gl, v.gr = min(1, 1-pan), min(1, 1+pan)
}

// render adds the voice's frames of the block [b0, b0+n) into out (stereo,
// 2n samples). It reports whether the voice has ended, how many frames a
// stream could not supply, and whether a stream's buffer is running low.
func (v *voice) render(out []float32, b0 int64, n int) (done bool, starved int, low bool) {
	from := 0
	if v.start > b0 {
		from = int(v.start - b0)
	}
	for from < n {
		end := n
		if !v.stopping && v.stopAt < b0+int64(n) {
			at := int(max(v.stopAt-b0, int64(from)))
			if at == from {
				v.stopping = true
				if v.stopFade <= 0 {
					return true, starved, low
				}
				v.env.to(0, v.stopFade)
				continue
			}
			end = at
		}
		seg := end - from
		g, dg := v.env.value, float32(0)
		if v.env.ramping() {
			seg = int(min(int64(seg), v.env.left))
			dg = v.env.step
		}
		var produced int
		var ended bool
		if v.stream != nil {
			var s int
			var l bool
			produced, s, ended, l = v.mixStream(out[2*from:2*(from+seg)], g, dg)
			starved += s
			low = low || l
		} else {
			produced, ended = v.mixSound(out[2*from:2*(from+seg)], g, dg)
		}
		v.env.finish(int64(produced))
		from += produced
		if ended || v.stopping && !v.env.ramping() {
			return true, starved, low
		}
	}
	return false, starved, low
}

// mixSound adds len(out)/2 frames of the sound, with gain g changing by dg
// per frame. It returns the frames produced and whether the sound ended.
func (v *voice) mixSound(out []float32, g, dg float32) (int, bool) {
	d := v.sound.data
	stereo := v.sound.channels == 2
	frames := uint64(len(d))
	if stereo {
		frames /= 2
	}
	nOut := len(out) / 2
	gl, gr := v.gl, v.gr
	k := 0
	if v.step == one {
		for k < nOut {
			i := v.pos >> 32
			if i >= frames {
				if !v.loop {
					return k, true
				}
				v.pos, i = 0, 0
			}
			run := min(nOut-k, int(frames-i))
			o := out[2*k : 2*(k+run)]
			if stereo {
				src := d[2*i : 2*(i+uint64(run))]
				for j := 0; j < len(o); j += 2 {
					o[j] += src[j] * g * gl
					o[j+1] += src[j+1] * g * gr
					g += dg
				}
			} else {
				src := d[i : i+uint64(run)]
				for j, x := range src {
					y := x * g
					o[2*j] += y * gl
					o[2*j+1] += y * gr
					g += dg
				}
			}
			k += run
			v.pos += uint64(run) << 32
		}
		return k, !v.loop && v.pos>>32 >= frames
	}
	span := frames << 32
	for ; k < nOut; k++ {
		if v.pos >= span {
			if !v.loop {
				return k, true
			}
			v.pos %= span
		}
		i := v.pos >> 32
		frac := float32(uint32(v.pos)) * (1.0 / one)
		j := i + 1
		if j >= frames {
			if v.loop {
				j = 0
			} else {
				j = i
			}
		}
		if stereo {
			l0, r0 := d[2*i], d[2*i+1]
			l := l0 + (d[2*j]-l0)*frac
			r := r0 + (d[2*j+1]-r0)*frac
			out[2*k] += l * g * gl
			out[2*k+1] += r * g * gr
		} else {
			x0 := d[i]
			y := (x0 + (d[j]-x0)*frac) * g
			out[2*k] += y * gl
			out[2*k+1] += y * gr
		}
		g += dg
		v.pos += v.step
	}
	return k, !v.loop && v.pos >= span
}

// mixStream adds up to len(out)/2 frames from the stream's ring. A ring
// that runs dry before the stream's end is filled with silence (counted
// as starved) so the voice keeps its place on the timeline.
func (v *voice) mixStream(out []float32, g, dg float32) (produced, starved int, ended, low bool) {
	st := v.stream
	eof := st.eof.Load() // before reading the fill level: all of it was written first
	r := &st.ring
	avail := r.readable()
	nOut := len(out) / 2
	take := min(avail, nOut)
	gl, gr := v.gl, v.gr
	a, b := r.peek(take)
	o := out
	for _, part := range [2][]float32{a, b} {
		for j := 0; j < len(part); j += 2 {
			o[j] += part[j] * g * gl
			o[j+1] += part[j+1] * g * gr
			g += dg
		}
		o = o[len(part):]
	}
	r.advance(take)
	low = avail-take < r.frames()/2 && !eof
	if take < nOut {
		if eof {
			return take, 0, true, false
		}
		return nOut, nOut - take, false, low
	}
	return nOut, 0, false, low
}
