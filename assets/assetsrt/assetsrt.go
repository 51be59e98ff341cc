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
//	// InitPlatform kept p.Adapters.Renderer in g.renderer; in InitSimulation:
//	exec := assetsrt.New(sim, g.renderer, sim.Workers.Group("assets"))
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
	sim   *runtime.Simulation
	up    assets.Uploader
	group *work.Group
}

// New returns an executor whose jobs run in g, a group of the session's
// ([work.Session.Group]); its results go to the simulation owner through
// sim's mailbox and its graphics work to the platform thread through sim's
// dispatcher, where it runs with up: the session's renderer, which
// InitPlatform finds in [runtime.Platform.Adapters] (the framework's is an
// [assets.UploadingRenderer]). Cancel g to cancel every load started on
// it; its Stats count the loads' files.
func New(sim *runtime.Simulation, up assets.Uploader, g *work.Group) *Executor {
	return &Executor{sim: sim, up: up, group: g}
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
func (e *Executor) Post(fn func()) error { return e.sim.Mailbox.Post(fn) }

// Graphics queues fn on the platform dispatcher, which runs it on the
// platform thread with the executor's uploader; [work.ErrClosed] once
// the dispatcher is closed. It submits through the dispatcher's shared
// handle ([runtime.PlatformDispatcher.Shared]): a load's upload goes on
// in as many steps as its budget needs, queued from the platform thread,
// and the simulation never reads their results, so a recording does not
// count them.
func (e *Executor) Graphics(fn func(assets.Uploader)) error {
	up := e.up
	f := e.sim.Dispatcher.Shared().Do(func() error { fn(up); return nil })
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
