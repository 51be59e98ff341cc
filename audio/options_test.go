package audio_test

import (
	"errors"
	"math"
	"testing"
	"time"

	"github.com/metronome-go/metronome/audio"
	"github.com/metronome-go/metronome/media"
	"github.com/metronome-go/metronome/option"
)

// Every rejected option is an *option.Error naming the package, the Go
// field, the value and the allowed range, and wrapping ErrInvalid, so a
// configuration loader can translate it to its own key.
func TestValidateReportsOptionErrors(t *testing.T) {
	tests := []struct {
		name   string
		change func(o *audio.Options)
		field  string
		allow  string
		msg    string
	}{
		{"rate", func(o *audio.Options) { o.Rate = 100 }, "Options.Rate", "8000 to 192000",
			"audio: Options.Rate 100 is out of range; allowed: 8000 to 192000"},
		{"latency", func(o *audio.Options) { o.Latency = 2*time.Second + 1 }, "Options.Latency", "0s to 2s",
			"audio: Options.Latency 2.000000001s is out of range; allowed: 0s to 2s"},
		{"tolerance", func(o *audio.Options) { o.Tolerance = -1 }, "Options.Tolerance", "0s to 10s",
			"audio: Options.Tolerance -1ns is out of range; allowed: 0s to 10s"},
		{"voices", func(o *audio.Options) { o.MaxVoices = 1025 }, "Options.MaxVoices", "1 to 1024",
			"audio: Options.MaxVoices 1025 is out of range; allowed: 1 to 1024"},
		{"streams", func(o *audio.Options) { o.MaxStreams = 65 }, "Options.MaxStreams", "0 to 64",
			"audio: Options.MaxStreams 65 is out of range; allowed: 0 to 64"},
		{"queue", func(o *audio.Options) { o.QueueSize = 15 }, "Options.QueueSize", "16 to 65536",
			"audio: Options.QueueSize 15 is out of range; allowed: 16 to 65536"},
		{"stream buffer", func(o *audio.Options) { o.StreamBuffer = 11 * time.Second }, "Options.StreamBuffer", "20ms to 10s",
			"audio: Options.StreamBuffer 11s is out of range; allowed: 20ms to 10s"},
		{"master volume", func(o *audio.Options) { o.Volumes[audio.Master] = 4.5 }, "Options.Volumes[Master]", "0 to 4",
			"audio: Options.Volumes[Master] 4.5 is out of range; allowed: 0 to 4"},
		{"music volume", func(o *audio.Options) { o.Volumes[audio.Music] = -0.25 }, "Options.Volumes[Music]", "0 to 4",
			"audio: Options.Volumes[Music] -0.25 is out of range; allowed: 0 to 4"},
		{"effects volume NaN", func(o *audio.Options) { o.Volumes[audio.Effects] = float32(math.NaN()) }, "Options.Volumes[Effects]", "0 to 4",
			"audio: Options.Volumes[Effects] NaN is out of range; allowed: 0 to 4"},
		{"ui volume", func(o *audio.Options) { o.Volumes[audio.UI] = 5 }, "Options.Volumes[UI]", "0 to 4",
			"audio: Options.Volumes[UI] 5 is out of range; allowed: 0 to 4"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := audio.DefaultOptions()
			tt.change(&o)
			err := o.Validate()
			var fe *option.Error
			if !errors.As(err, &fe) {
				t.Fatalf("Validate() = %v, want an *option.Error", err)
			}
			if fe.Pkg != "audio" || fe.Field != tt.field || fe.Allowed != tt.allow || fe.Error() != tt.msg {
				t.Errorf("got {%q, %q, %q, %q}, want {audio, %q, %q, %q}", fe.Pkg, fe.Field, fe.Allowed, fe.Error(), tt.field, tt.allow, tt.msg)
			}
			if !errors.Is(err, media.ErrInvalid) {
				t.Errorf("Validate() = %v, want it to wrap ErrInvalid", err)
			}
		})
	}
	if err := audio.DefaultOptions().Validate(); err != nil {
		t.Errorf("defaults: %v", err)
	}
}

// The start volumes of Options.Volumes are the buses' volumes from the
// first frame, Master on top of the voice's bus.
func TestStartVolumes(t *testing.T) {
	o := options()
	o.Volumes[audio.Music] = 0.5
	o.Volumes[audio.Master] = 0.5
	m := newMixer(t, o)
	s := constant(t, 10, 0.5)
	music := audio.DefaultParams()
	music.Bus = audio.Music
	if _, err := m.Player().Play(s, atFrame(0), music); err != nil {
		t.Fatal(err)
	}
	if _, err := m.Player().Play(s, atFrame(20), audio.DefaultParams()); err != nil {
		t.Fatal(err)
	}
	left, _ := render(m, 40, 256)
	if got, want := left[0], float32(0.125); got != want {
		t.Errorf("music frame = %g, want 0.5 × music 0.5 × master 0.5 = %g", got, want)
	}
	if got, want := left[20], float32(0.25); got != want {
		t.Errorf("effects frame = %g, want 0.5 × effects 1 × master 0.5 = %g", got, want)
	}
}
