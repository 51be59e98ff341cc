package ecs

import (
	"fmt"
)

// States is a state machine of the game's own: menu, play, pause, game
// over, as values of a comparable type S. Systems can run only in some
// states ([InState] as a [System.When] condition), systems can run on
// entering and leaving a state ([States.OnEnter], [States.OnExit]), and
// states can pause the game ([States.PauseIn]).
//
// A transition asked for with [States.Set] happens at the start of the
// next tick, before its gameplay queue and systems: the OnExit systems of
// the state left run, then the OnEnter systems of the state entered, each
// followed by a sync point as usual. So every system of a tick sees one
// state, and the entered state's set-up is in place before they run.
// Asking twice before then keeps the last; asking for the current state
// (with nothing else pending) does nothing.
//
// A States belongs to the simulation goroutine, like its App. Make it with
// [AddStates].
type States[S comparable] struct {
	app     *App
	current S
	next    S
	pending bool
	enter   []stateSystems[S]
	exit    []stateSystems[S]
	pauses  []S
	// Transitions counts the transitions made.
	transitions uint64
}

type stateSystems[S comparable] struct {
	state   S
	systems []*systemEntry
}

// stateMachine is what the App drives of a States of any type.
type stateMachine interface {
	enterInitial()
	transition()
	pausedNext() bool
	hashState() (uint64, int)
	snapshot() stateSnapshot
}

// AddStates adds a state machine that starts in initial to a and stores it
// as a world resource (GetResource[States[S]]). The OnEnter systems of the
// initial state run after the Startup systems. An App may hold several
// state machines of different types; adding a second one of the same type
// panics, as a programming error.
func AddStates[S comparable](a *App, initial S) *States[S] {
	if GetResource[States[S]](a.world) != nil {
		panic(fmt.Sprintf("ecs: AddStates: the App already has states of type %T", initial))
	}
	s := &States[S]{app: a, current: initial}
	AddResource(a.world, s)
	a.states = append(a.states, s)
	a.hashExtras = append(a.hashExtras, extraPart{name: fmt.Sprintf("ecs.states %T", initial), fn: s.hashState})
	return s
}

// hashState hashes the current state and the pending transition, for
// App.Hash; a state type that is not plain data hashes as its transition
// count only.
func (s *States[S]) hashState() (uint64, int) {
	l := s.app.world.layoutOf(TypeOf[S]())
	h := mix(0x7374_6174, s.transitions)
	if l.err == nil {
		h = hashValue(l, h, &s.current)
		if s.pending {
			h = hashValue(l, mix(h, 1), &s.next)
		}
	}
	return finish(h), 1
}

// Current returns the state the tick runs in.
func (s *States[S]) Current() S { return s.current }

// Next returns the state asked for with Set and true if a transition is
// pending, or the current state and false.
func (s *States[S]) Next() (S, bool) {
	if !s.pending {
		return s.current, false
	}
	return s.next, true
}

// Set asks for a transition to next at the start of the next tick.
func (s *States[S]) Set(next S) {
	if next == s.current {
		s.pending = false
		return
	}
	s.next, s.pending = next, true
}

// Transitions returns the number of transitions made so far.
func (s *States[S]) Transitions() uint64 { return s.transitions }

// OnEnter adds sys to the systems run on entering state, in the order
// added. It returns s for chaining; a nil Run panics.
func (s *States[S]) OnEnter(state S, sys System) *States[S] {
	s.enter = addStateSystem(s.app, s.enter, state, sys, "OnEnter")
	return s
}

// OnExit adds sys to the systems run on leaving state, in the order added.
func (s *States[S]) OnExit(state S, sys System) *States[S] {
	s.exit = addStateSystem(s.app, s.exit, state, sys, "OnExit")
	return s
}

func addStateSystem[S comparable](a *App, list []stateSystems[S], state S, sys System, what string) []stateSystems[S] {
	if sys.Run == nil {
		panic(fmt.Sprintf("ecs: %s(%v): system %q has a nil Run", what, state, sys.Name))
	}
	e := &systemEntry{System: sys, stage: PreUpdate}
	a.entries = append(a.entries, e)
	for i := range list {
		if list[i].state == state {
			list[i].systems = append(list[i].systems, e)
			return list
		}
	}
	return append(list, stateSystems[S]{state: state, systems: []*systemEntry{e}})
}

// PauseIn makes the given states pause the game (see [App.SetPaused]):
// while the current state is one of them, [System.Gameplay] systems do not
// run and game time, the gameplay queue and the timers stand still, while
// menus, overlays and every other system go on.
func (s *States[S]) PauseIn(states ...S) *States[S] {
	s.pauses = append(s.pauses, states...)
	return s
}

// In reports whether the current state is one of states.
func (s *States[S]) In(states ...S) bool {
	for _, st := range states {
		if st == s.current {
			return true
		}
	}
	return false
}

// InState returns a [System.When] condition that holds while s is in one
// of states.
func InState[S comparable](s *States[S], states ...S) func(*Sys) bool {
	return func(*Sys) bool { return s.In(states...) }
}

func (s *States[S]) enterInitial() { s.run(s.enter, s.current) }

func (s *States[S]) transition() {
	if !s.pending {
		return
	}
	from, to := s.current, s.next
	s.pending = false
	s.run(s.exit, from)
	s.current = to
	s.transitions++
	s.run(s.enter, to)
}

// pausedNext reports whether the state this tick will run in, after its
// transition, pauses the game.
func (s *States[S]) pausedNext() bool {
	st, _ := s.Next()
	for _, p := range s.pauses {
		if p == st {
			return true
		}
	}
	return false
}

// run runs the systems registered for state in list.
func (s *States[S]) run(list []stateSystems[S], state S) {
	for i := range list {
		if list[i].state == state {
			s.app.runList(list[i].systems, false)
			return
		}
	}
}
