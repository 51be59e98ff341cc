// Package assetsrt runs background asset loads ([assets.Library.StartLoad])
// on a runtime session. Package assets sits below the runtime and cannot
// import it, so a load asks for its work to be run through the small
// [assets.Executor] interface; this package implements it with the
// session's own machinery:
//
//   - decode jobs run in a worker group of the session
//     ([work.Session.Group]), so they count in its progress, are
//     canceled with it and settle at shutdown in the runtime's order;
//   - results reach the simulation owner through the session's mailbox,
//     before an update, where the load places them in the atlas;
//   - the final upload runs on the platform thread through the dispatcher,
//     with the session's renderer.
//
// A game polls the load from its updates:
//
//	exec := assetsrt.New(rt, rt.Workers().Group("assets"))
//	load, err := lib.StartLoad(exec, gameFS, files, assets.LoadOptions{})
//	// each update:
//	done, total := load.Progress() // draw the bar
//	if load.Done() { hero, err := load.Image(0) ... }
package assetsrt

import (
	"context"
	"errors"

	"github.com/metronome-go/metronome/assets"
	"github.com/metronome-go/metronome/runtime"
	"github.com/metronome-go/metronome/runtime/work"
)

// Executor is an [assets.Executor] on a runtime session. Its methods are
// safe from any goroutine.
type Executor struct {
	rt    *runtime.GameRuntime
	group *work.Group
}

// New returns an executor whose jobs run in g, a group of rt's
// ([work.Session.Group]); its results go to rt's simulation owner and
// its graphics work to rt's platform thread, with the renderer of rt's
// context (the framework's is an [assets.UploadingRenderer]). Cancel g to
// cancel every load started on it; its Stats count the loads' files.
func New(rt *runtime.GameRuntime, g *work.Group) *Executor {
	return &Executor{rt: rt, group: g}
}

// Group returns the executor's worker group.
func (e *Executor) Group() *work.Group { return e.group }

// Go submits job to the group: [work.ErrClosed] once the group no
// longer accepts work (canceled, failed, the session stopping).
func (e *Executor) Go(job func(ctx context.Context)) error {
	return e.group.Submit(work.JobFunc(job))
}

// Post queues fn on the session's mailbox: it runs on the simulation owner
// before the next update; [work.ErrClosed] once the simulation stopped.
func (e *Executor) Post(fn func()) error { return e.rt.Mailbox().Post(fn) }

// Graphics queues fn on the platform dispatcher, which runs it on the
// platform thread with the context's renderer; [work.ErrClosed] once
// the dispatcher is closed.
func (e *Executor) Graphics(fn func(assets.Uploader)) error {
	r := e.rt.Context().Renderer
	f := e.rt.Dispatcher().Do(func() error { fn(r); return nil })
	select {
	case <-f.Done():
		// Settled at once: refused (the platform runs queued work later,
		// so a future done here was never queued).
		if _, err := f.Result(); errors.Is(err, work.ErrClosed) || errors.Is(err, runtime.ErrCanceled) {
			return err
		}
	default:
	}
	return nil
}
