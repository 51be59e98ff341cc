package runtime

// Run runs the session on the calling thread and returns when it has shut
// down: nil after a clean stop (a stop request or the window's close
// intent), otherwise the first failure joined with later ones, each a
// [*PhaseError]. It returns [ErrAlreadyRun] when called again. Call it on the
// thread that owns the window and graphics context.
func (r *GameRuntime) Run() error {
	if !r.counters.ran.CompareAndSwap(false, true) {
		return ErrAlreadyRun
	}
	r.life.advance(StateInitializing)
	if r.initialize() {
		r.life.advance(StateRunning)
		switch {
		case r.sim.rec.Reader != nil:
			r.replayLoop()
		case r.sim.own:
			close(r.sim.begin)
			r.plat.loop()
		default:
			r.sequentialLoop()
		}
	}
	r.shutdown()
	r.plat.waiter.Release()
	err := r.fails.err()
	r.life.finish(err)
	return err
}

// initialize runs the init steps in order and reports whether the loop
// should start.
func (r *GameRuntime) initialize() bool {
	c := r.adapters
	if c.Input != nil {
		if err := guard(c.Input.Init); err != nil {
			r.fail(PhaseInitInput, err)
			return false
		}
	}
	if err := guard(c.Presenter.Init); err != nil {
		r.fail(PhaseInitGraphics, err)
		return false
	}
	if err := guard(func() error { r.plat.readRefresh(); return nil }); err != nil {
		r.fail(PhaseInitGraphics, err)
		return false
	}
	if err := guard(func() error { c.Display.PollEvents(); return r.plat.sample() }); err != nil {
		r.fail(PhaseInitGraphics, err)
		return false
	}
	r.endpoint.observeClose(r.plat.window.CloseRequested)
	r.plat.tried = true
	if err := guard(func() error {
		return r.game.InitPlatform(&Platform{Adapters: r.adapters, Actions: r.actions})
	}); err != nil {
		r.fail(PhaseInitPlatform, err)
		return false
	}
	if r.stop.Requested() {
		return false
	}
	r.sim.tried = true
	if !r.sim.own {
		if err := r.sim.initHook(); err != nil {
			r.fail(PhaseInitSimulation, err)
			return false
		}
		return !r.stop.Requested()
	}
	s := &r.sim
	s.done, s.initDone, s.begin = make(chan struct{}), make(chan struct{}), make(chan struct{})
	go s.main()
	r.plat.pumpUntil(s.initDone)
	return !r.stop.Requested()
}

// sequentialLoop is the whole loop on the platform thread, which is also
// the simulation owner.
func (r *GameRuntime) sequentialLoop() {
	p, s := &r.plat, &r.sim
	s.startTiming()
	for p.beginCycle() {
		s.applyTimingOptions()
		s.applyFocus()
		if now := r.clock.Now(); now >= s.batchAt() {
			s.lastBatch = now
			if n := s.runBatch(now); n > 0 && !r.fails.any() {
				s.prepare()
			}
		}
		if !r.fails.any() {
			// A stop requested by this batch's updates still presents its
			// final frame.
			p.present(r.clock.Now())
		}
		if r.stop.Requested() {
			break
		}
		p.wait(s.sched.NextUpdateAt(), true)
	}
}

// shutdown runs the cleanup sequence on the platform thread.
func (r *GameRuntime) shutdown() {
	r.life.advance(StateStopping)
	r.stop.Request()
	// Ordinary requests are moot now; the session's worker groups refuse
	// new jobs and their jobs' contexts are done.
	r.endpoint.close()
	r.workers.Close()
	// Stop the simulation and join it, servicing platform work meanwhile
	// (a job may be waiting on some).
	if r.sim.own && r.sim.done != nil {
		r.plat.pumpUntil(r.sim.done)
	} else {
		r.sim.deinit()
	}
	if r.plat.tried {
		if err := guard(r.game.Quiesce); err != nil {
			r.fail(PhaseQuiesce, err)
		}
	}
	// Accepted jobs settle while the platform keeps servicing their
	// dispatcher work; then the owned pool joins.
	if err := r.workers.Settle(r.clock, r.plat.waiter, r.opts.Execution.SettleTimeout, func() {
		if err := guard(func() error { r.plat.drainDispatcher(); return nil }); err != nil {
			r.fail(PhaseSettle, err)
		}
	}); err != nil {
		r.fail(PhaseSettleWorkers, err)
	}
	// Settle the work accepted so far, then cancel what remains.
	if err := guard(func() error { r.plat.drainDispatcher(); return nil }); err != nil {
		r.fail(PhaseSettle, err)
	}
	r.dispatcher.close()
	if err := guard(func() error { r.slots.RecycleAll(); return nil }); err != nil {
		r.fail(PhaseRecycleFrames, err)
	}
	r.plat.current = nil
	if r.plat.tried {
		if err := guard(r.game.DeinitPlatform); err != nil {
			r.fail(PhaseDeinitPlatform, err)
		}
	}
	c := r.adapters
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
