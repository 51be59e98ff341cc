package runtime_test

import (
	"errors"
	"slices"
	"testing"
	"testing/synctest"
	"time"

	"github.com/metronome-go/metronome/input"
	"github.com/metronome-go/metronome/input/inputtest"
	"github.com/metronome-go/metronome/render2d"
	"github.com/metronome-go/metronome/runtime"
	"github.com/metronome-go/metronome/runtime/work"
	"github.com/metronome-go/metronome/timing"
)

// TestTickWindowBelongsToItsInput resizes the window every millisecond
// while the input source moves the cursor every millisecond to the same
// number: a poll at t sees width t and cursor x t. Under backlog delivery
// every tick's window must therefore equal its input's cursor; under
// timestamped delivery (records before the update's span end) the window
// must never come from a poll after the span's end. Both modes, whatever
// the platform did between the update taking its input and reading the
// window (issue 14, defect 1: ticks carried the window of a later poll than
// their input).
func TestTickWindowBelongsToItsInput(t *testing.T) {
	for _, mode := range modes {
		for _, delivery := range []input.Delivery{input.Backlog, input.Timestamped} {
			t.Run(mode.String()+"/"+delivery.String(), func(t *testing.T) {
				synctest.Test(t, func(t *testing.T) {
					script := inputtest.NewScript()
					r := newRig(mode, nil).withInput(script)
					r.opts.Timing.Mode = timing.FixedMode
					r.opts.Timing.FixedStep = 3 * time.Millisecond
					r.opts.Timing.MaxFixedUpdates = 4
					r.opts.Polling.Spacing = time.Millisecond
					r.opts.Polling.Delivery = delivery
					r.renderer.Cost = 2 * time.Millisecond
					r.game.updateCost = 1 * time.Millisecond
					const ms = 400
					for i := 1; i <= ms; i++ {
						at := r.clock.At(time.Duration(i) * time.Millisecond)
						w := input.Size{Width: 100 + i, Height: 100}
						r.display.Resize(at, w, w)
						script.Cursor(at, float64(100+i), 0)
					}
					var bad []string
					checked := 0
					r.game.onUpdate = func(_ *fakeGame, tk *runtime.TickContext) {
						x, _ := tk.Input.Cursor()
						if x == 0 {
							return // before the first scripted move
						}
						checked++
						w := tk.Window.Size.Width
						if delivery == input.Backlog && w != int(x) {
							bad = append(bad, time.Duration(tk.Number).String())
						}
						if end := int((tk.End - r.clock.At(0)) / timing.Instant(time.Millisecond)); delivery == input.Timestamped && w-100 > end {
							bad = append(bad, time.Duration(tk.Number).String())
						}
						if tk.Window.Size.Width >= 100+ms-10 {
							_ = tk.RequestStop()
						}
					}
					if _, err := r.run(); err != nil {
						t.Fatal(err)
					}
					if checked < 50 {
						t.Fatalf("only %d ticks saw scripted input", checked)
					}
					if len(bad) > 0 {
						t.Errorf("%d of %d ticks carried a window from another poll than their input", len(bad), checked)
					}
				})
			})
		}
	}
}

// TestPanicsOutsideHooksStillCleanUp makes the work the runtime runs on
// the game's behalf outside its hooks panic: the frame release hook (run
// by the slots when a frame is recycled) and the renderer's framebuffer
// resize. Each must fail the session with a PanicError in its phase and
// still run every cleanup (issue 14, defect 2).
func TestPanicsOutsideHooksStillCleanUp(t *testing.T) {
	tests := []struct {
		name  string
		setup func(r *rig)
		phase runtime.Phase
	}{
		{"frame release", func(r *rig) {
			released := 0
			r.opts.FrameRelease = func(*render2d.Frame) {
				if released++; released == 3 {
					panic(errInjected)
				}
			}
		}, runtime.PhaseRecycleFrames},
		{"framebuffer resize", func(r *rig) {
			r.f["renderer.SetFramebufferSize"] = fault{err: errInjected, panics: true}
			r.game.onPlatform = func(*fakeGame, *runtime.Platform) error { return errors.New("InitPlatform must not run") }
		}, runtime.PhaseInitGraphics},
		{"resize while running", func(r *rig) {
			r.display.Resize(r.clock.At(50*time.Millisecond), input.Size{Width: 100, Height: 100}, input.Size{Width: 200, Height: 200})
			r.game.onPlatform = func(g *fakeGame, plat *runtime.Platform) error {
				r.f["renderer.SetFramebufferSize"] = fault{err: errInjected, panics: true}
				return nil
			}
		}, runtime.PhasePoll},
	}
	for _, mode := range modes {
		for _, tc := range tests {
			t.Run(mode.String()+"/"+tc.name, func(t *testing.T) {
				synctest.Test(t, func(t *testing.T) {
					r := newRig(mode, nil).withInput(inputtest.NewScript())
					r.game.stopAfter = 100
					tc.setup(r)
					_, err := r.run()
					var pe *runtime.PhaseError
					var pan *work.PanicError
					if !errors.As(err, &pe) || pe.Phase != tc.phase || !errors.As(err, &pan) || !errors.Is(err, errInjected) {
						t.Fatalf("Run: got %v, want a PanicError of the injected value in phase %q", err, tc.phase)
					}
					events := r.j.list()
					want := []string{"DeinitPlatform", "input.Close", "renderer.Close", "presenter.Close", "display.Close"}
					if tc.phase == runtime.PhaseInitGraphics {
						want = want[1:] // no game hook was attempted, so none is cleaned up
					}
					for _, e := range want {
						if !slices.Contains(events, e) {
							t.Errorf("events %v: missing %s", without(events, loopEvents...), e)
						}
					}
				})
			})
		}
	}
}
