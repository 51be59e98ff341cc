package runtime

// stopSimulation closes the mailbox and runs DeinitSimulation on the
// simulation owner.
func (r *GameRuntime) stopSimulation() {
	r.mailbox.close()
	if r.triedSimulation {
		if err := guard(r.game.DeinitSimulation); err != nil {
			r.fail(PhaseDeinitSimulation, err)
		}
	}
}

// shutdown runs the cleanup sequence on the platform thread.
func (r *GameRuntime) shutdown() {
	r.life.advance(StateStopping)
	r.stop.Request()
	// Stop the simulation and join it, servicing platform work meanwhile.
	if r.opts.Mode == Concurrent && r.simDone != nil {
		r.pumpUntil(r.simDone)
	} else {
		r.stopSimulation()
	}
	if r.triedPlatform {
		if err := guard(r.game.Quiesce); err != nil {
			r.fail(PhaseQuiesce, err)
		}
	}
	// Settle the work accepted so far, then cancel what remains.
	if err := guard(func() error { r.drainDispatcher(); return nil }); err != nil {
		r.fail(PhaseSettle, err)
	}
	r.dispatcher.close()
	if err := guard(func() error { r.slots.RecycleAll(); return nil }); err != nil {
		r.fail(PhaseRecycle, err)
	}
	r.current = nil
	if r.triedPlatform {
		if err := guard(r.game.DeinitPlatform); err != nil {
			r.fail(PhaseDeinitPlatform, err)
		}
	}
	c := r.ctx
	if c.Input != nil {
		if err := guard(c.Input.Close); err != nil {
			r.fail(PhaseCloseInput, err)
		}
	}
	if c.Resources != nil {
		if err := guard(c.Resources.Close); err != nil {
			r.fail(PhaseCloseGraphics, err)
		}
	}
	if err := guard(c.Renderer.Close); err != nil {
		r.fail(PhaseCloseGraphics, err)
	}
	if err := guard(c.Presenter.Close); err != nil {
		r.fail(PhaseCloseGraphics, err)
	}
	if err := guard(c.Display.Close); err != nil {
		r.fail(PhaseCloseGraphics, err)
	}
}
