package input

// Fire adds a tap of action a to this tick: one press and one release,
// with no time held, as a key pressed and released inside the tick would
// give. It is how something other than a button acts for the player (a
// menu's button, a touch control): the game's systems see the action
// pressed exactly as if a key had been tapped, and need no second path.
//
// A fire lasts until the tick is filled again or [Tick.ClearFired];
// [Tick.CopyFrom] does not carry it, so whatever fired it must run again
// to fire it again (a replay or a rollback re-runs the system that did,
// on the same input, which fires it the same way). It reports false, changing nothing, for
// an action the tick's bindings do not know. It allocates nothing once
// the tick has held as many fires before.
func (t *Tick) Fire(a Action) bool {
	if t.actions.load().entry(a) == nil {
		return false
	}
	t.fired = append(t.fired, a)
	return true
}

// withFired adds the taps fired for a to s.
func (t *Tick) withFired(a Action, s Stats) Stats {
	for _, f := range t.fired {
		if f != a {
			continue
		}
		s.Presses++
		s.Releases++
		if s.Peak == 0 {
			s.Peak = 1
		}
	}
	return s
}

// ClearFired removes the taps added by [Tick.Fire], leaving the tick as
// its records made it. An ECS App calls it as it starts each tick, so a
// tick run again on the same input (a rollback, a sync-test) starts from
// the recorded input, not from the fires of its previous run.
func (t *Tick) ClearFired() { t.fired = t.fired[:0] }
