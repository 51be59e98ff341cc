package framework

import (
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/metronome-go/metronome/audio"
	"github.com/metronome-go/metronome/audio/otoaudio"
	"github.com/metronome-go/metronome/input"
	"github.com/metronome-go/metronome/internal/xvfb"
	"github.com/metronome-go/metronome/recording"

	"github.com/metronome-go/metronome/framework/config"
	"github.com/metronome-go/metronome/runtime"
	"github.com/metronome-go/metronome/timing"
)

// RunOptions are what [Run] takes besides the game and its configuration.
type RunOptions struct {
	// Source names the configuration's origin in messages, such as
	// "config.toml"; "" means "configuration".
	Source string
	// Ticks stops the game after this many simulation ticks: the update
	// numbered Ticks-1 (tick numbers count from 0) requests the stop, so
	// exactly Ticks updates run. In a networked match it counts ticks
	// confirmed on every peer instead, so peers stop on the same tick
	// (held updates do not count). 0 = no limit.
	Ticks uint64
	// Frames stops the game after this many presented frames; 0 = no
	// limit. Presents are not ticks: an uncapped (headless) window
	// presents as fast as it can, so Frames says nothing about how many
	// ticks ran.
	Frames int
	// RunFor stops the game after this much real time; 0 = no limit.
	RunFor time.Duration
	// Started, if set, runs on the platform thread after the game's Setup
	// with the session's runtime: attach services, keep the runtime for
	// telemetry.
	Started func(rt *runtime.GameRuntime) error
	// Screenshot, if set, is a PNG file the final state of the game is
	// drawn into when the session ends (before the game's Shutdown).
	Screenshot string
	// Record, if set, is a file the session is recorded to (package
	// recording): everything the runtime hands the simulation, with
	// world-hash checkpoints (every second, after every stop or shutdown
	// request and after the last update), handed to the disk every half
	// second, so a crash loses less than the last second, and an end
	// marker with the session's outcome. Replay it with [Replay].
	Record string
	// SyncTest runs the game in sync-test mode going back this many ticks
	// after each ([Session.UseSyncTest]); 0 is off.
	SyncTest int
	// Match, if set, plays this machine's side of a networked match
	// ([Session.UseMatch]) instead of a local game. A headless match ends
	// with one line on Stdout giving its last confirmed tick and world
	// hash ([ConfirmedLine]).
	Match *Match
	// Bot, if not zero, plays every seat but the first of a local game
	// of several players (Game.Net, no Match) with input drawn from this
	// seed (--bot SEED): one player against a bot, or a soak run. A
	// match's bot is Match.Bot.
	Bot uint64
	// NoWindow plays the Match with no window, GPU, X server, sound
	// device or input, the simulation only (--no-window): for a machine
	// whose players are all Match.Bot. A Match that gives this machine
	// no player (a dedicated host) always plays so.
	NoWindow bool
	// RecordTo, if set, receives the session's recording as Record's
	// file does (as well as the file, or alone when Record is ""), from
	// the recording's own goroutine, never the tick's: the inspector of a
	// live game (--inspect without --replay) follows it. In a Match it
	// receives the match's recording, the confirmed ticks (see
	// [Session.RecordMatch]).
	RecordTo io.Writer
	// Stdout receives that line; nil is os.Stdout.
	Stdout io.Writer
	// Stderr receives a match's connection messages (a peer disconnected,
	// reconnected, left); nil is os.Stderr.
	Stderr io.Writer
}

// Run runs g's Setup, checks the configuration against it (a binding for
// an action Setup never registered is an error before any window opens),
// then opens the window the configuration describes, with its renderer and
// input, and runs g until it stops: the window is closed, the game
// requests a stop, a RunOptions limit is reached, or the process gets a
// stop signal (SIGINT, SIGTERM, SIGHUP: a shutdown request with
// [ReasonSignal], which the game's policy may defer once; a second signal
// stops at once). Every way out runs the whole shutdown: the recording
// gets its end marker, the screenshot is taken, the audio device and any
// private X server close. It blocks on the calling goroutine, which must
// be the main thread locked in the program's init (the framework's
// package init does this), and returns nil after a clean stop or one by a
// signal, otherwise the session's failures, including a recording that
// could not be written in full.
func Run(g Game, cfg config.Config, opts RunOptions) (err error) {
	source := opts.Source
	if source == "" {
		source = "configuration"
	}
	rtOpts, err := cfg.RuntimeOptions(source)
	if err != nil {
		return err
	}
	if err := platformAllows(rtOpts, source); err != nil {
		return err
	}
	if opts.Frames < 0 || opts.RunFor < 0 {
		return fmt.Errorf("framework: RunOptions: Frames %d and RunFor %v must be 0 (no limit) or positive", opts.Frames, opts.RunFor)
	}
	if g.Title != "" && cfg.Source("window.title").Origin == config.FromDefaults {
		cfg.Window.Title = g.Title
	}
	sess, err := NewSession(g, cfg, source)
	if err != nil {
		return err
	}
	sigs := newSignals()
	defer sigs.stop()
	sess.started = func(rt *runtime.GameRuntime) error {
		sigs.attach(rt)
		if err := attachLimits(rt, opts.Frames, opts.RunFor); err != nil {
			return err
		}
		if opts.Match != nil && cfg.Window.Headless {
			if err := sess.reportMatch(rt); err != nil {
				return err
			}
		}
		if opts.Started != nil {
			return opts.Started(rt)
		}
		return nil
	}

	sess.stopAfter = opts.Ticks
	sess.localBot = opts.Bot
	sess.stderr = opts.Stderr
	if err := sess.UseSyncTest(opts.SyncTest); err != nil {
		return err
	}
	if opts.SyncTest > 0 {
		defer func() {
			if st, ok := sess.SyncTestStats(); ok && err == nil {
				out := opts.Stdout
				if out == nil {
					out = os.Stdout
				}
				fmt.Fprintln(out, syncTestLine(st, opts.SyncTest))
			}
		}()
	}
	if opts.Match != nil {
		if err := sess.UseMatch(opts.Match); err != nil {
			return err
		}
		rtOpts.Timing = sess.MatchTiming(rtOpts.Timing)
		defer opts.Match.Transport.Close()
		// A page writes them too: its stdout is the console, which a
		// player opens to compare the end with a desktop peer's.
		if cfg.Window.Headless || opts.Match.seatless() || opts.NoWindow || inPage {
			defer func() {
				out := opts.Stdout
				if out == nil {
					out = os.Stdout
				}
				sess.writeEnd(out)
			}()
		}
	}
	if (opts.Record != "" || opts.RecordTo != nil) && opts.Match != nil {
		// A match records its confirmed timeline once Setup has declared
		// the seats (netrecord.go), not this machine's devices: with a
		// window or without (a dedicated host, a spectator or bots with
		// --no-window).
		if err := sess.recordMatchTo(opts.Record, opts.RecordTo); err != nil {
			return err
		}
		defer func() {
			p := recover()
			o, msg := outcome(p, err, sigs.stopped())
			err = errors.Join(err, sess.matchRec.close(o, msg))
			if p != nil {
				panic(p)
			}
		}()
	}
	if opts.Match != nil && (opts.Match.seatless() || opts.NoWindow) {
		return sess.runWindowless(rtOpts, opts.Screenshot)
	}
	sess.screenshot = opts.Screenshot
	if (opts.Record != "" || opts.RecordTo != nil) && opts.Match == nil {
		rec, rerr := openRecording(opts.Record, opts.RecordTo, RecordingHeader(g, cfg, rtOpts.Mode))
		if rerr != nil {
			return rerr
		}
		rtOpts.Record = runtime.RecordOptions{Writer: rec.w, Hash: sess.HashWorld, Every: recording.DefaultCheckpointEvery}
		sess.recording = rec.w
		defer func() {
			p := recover()
			o, msg := outcome(p, err, sigs.stopped())
			err = errors.Join(err, rec.close(o, msg))
			if p != nil {
				panic(p)
			}
		}()
	}
	if err := prepareAudio(sess, cfg); err != nil {
		return err
	}
	// The runtime is built on the window's stand-ins: the game's Setup and
	// the checks of the configuration against it run before the sound
	// device, the window and any X server open.
	sess.window = newWindow(cfg, sess.lib, true)
	defer sess.closePlatform()
	if rtOpts.Actions == nil {
		rtOpts.Actions = input.NewActions()
	}
	rt, err := runtime.New(sess, sess.window.ctx, rtOpts)
	if err != nil {
		return err
	}
	if sess.recording != nil {
		WatchPresents(sess.recording, rt)
	}
	sess.setUpAndOpen(rt, sess.window.ctx, rtOpts.Actions)
	return rt.Run()
}

// runWindowless runs a match with the simulation only, on the real
// clock, with no window, GPU, X server, sound device or input: a match
// this machine plays no seat in (a dedicated host), or one whose players
// here are bots (--no-window). With no frame cap configured the loop is
// paced at the tick rate, so it waits between ticks instead of spinning.
func (s *Session) runWindowless(rtOpts runtime.Options, screenshot string) error {
	if screenshot != "" {
		return errors.New("framework: --screenshot and a match with no window (--dedicated, --no-window): nothing is drawn")
	}
	ctx := s.windowless("a match with no window plays no sound")
	if rtOpts.FrameCap == 0 {
		step := rtOpts.Timing.FixedStep
		if r := rtOpts.Timing.Rate; !r.IsZero() {
			step = r.Step()
		}
		rtOpts.FrameCap = min(step, runtime.MaxFrameCap)
	}
	if rtOpts.Actions == nil {
		rtOpts.Actions = input.NewActions()
	}
	rt, err := runtime.New(s, ctx, rtOpts)
	if err != nil {
		return errors.Join(err, ctx.Close())
	}
	s.Bind(rt)
	return rt.Run()
}

// startXvfb starts a private X server for a headless run on a machine with
// no display: nothing to open even an invisible window on.
func startXvfb() (*xvfb.Display, error) {
	d, err := xvfb.Start()
	if err != nil {
		return nil, fmt.Errorf("framework: headless run without a display: %w", err)
	}
	return d, nil
}

// attachLimits stops the session after a number of frames or a duration,
// checked on every platform cycle.
func attachLimits(rt *runtime.GameRuntime, frames int, runFor time.Duration) error {
	if frames == 0 && runFor == 0 {
		return nil
	}
	var deadline timing.Deadline
	if runFor > 0 {
		if err := deadline.Arm(timing.Now(), runFor); err != nil {
			return err
		}
	}
	_, err := rt.Services().Attach(runtime.Maintenance, func(now timing.Instant) error {
		if (frames > 0 && rt.Stats().FramesPresented >= uint64(frames)) || (runFor > 0 && deadline.Due(now)) {
			rt.Stop()
		}
		return nil
	})
	return err
}

// prepareAudio gives the session's ECS app its sound before the game's
// Setup: a mixer, which openAudio puts on the default output device after
// Setup. With audio disabled the game runs silently (every sound request
// goes nowhere).
func prepareAudio(sess *Session, cfg config.Config) error {
	if !cfg.Audio.Enabled {
		sess.silence("disabled in the configuration (audio.enabled = false)")
		return nil
	}
	m, err := audio.NewMixer(cfg.AudioOptions())
	if err != nil {
		return fmt.Errorf("framework: [audio]: %w", err)
	}
	sess.UseMixer(m)
	sess.device = m
	return nil
}

// openAudio opens the default output device for the mixer prepareAudio
// made, on the real clock the session runs on; closePlatform closes it.
// With no device the game runs silently and one line on stderr says why: a
// sound system never stops a game. Platform thread, after the game's
// Setup: at once natively, at a page's first input in a browser
// (startAudio, audio_other.go and audio_js.go).
func (s *Session) openAudio() {
	m := s.device
	if m == nil {
		return
	}
	s.device = nil
	dev, err := openDevice(m, timing.SystemClock{})
	if err != nil {
		w := s.stderr
		if w == nil {
			w = os.Stderr
		}
		// One short line: what happened, in a few words, and what to do;
		// the system's own words (ALSA's run to hundreds of characters)
		// stay in the error, which Setup.Sound's Off gives whole.
		fmt.Fprintf(w, "%s: sound is off: %s; set audio.enabled = false to skip the device\n", programName(), otoaudio.Reason(err))
		s.mute("no audio device: " + err.Error())
		return
	}
	if d, ok := dev.(deviceStats); ok {
		s.sound.dev = d
	}
	s.closeAudio = dev
}

// openDevice starts m on the default output device, its timeline on
// clock. It is a variable so that the package's tests can put a device of
// their own in its place; nothing else changes it.
var openDevice = func(m *audio.Mixer, clock timing.Clock) (io.Closer, error) {
	return otoaudio.Open(m, otoaudio.Options{Clock: clock})
}
