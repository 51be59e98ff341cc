package ecs_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/metronome-go/metronome/ecs"
	"github.com/metronome-go/metronome/schedule"
)

func TestAppGameplayQueue(t *testing.T) {
	const (
		kindWave = iota + 1
		kindExplode
	)
	a := newApp(t, ecs.Options{QueueCapacity: 4})
	movers := ecs.NewFilter2[ecs.Transform, speed](a.World())
	a.AddSystem(ecs.Startup, ecs.System{Name: "setup", Run: func(ctx *ecs.Sys) {
		spawnSprite(ctx.Commands, 0, 0, 0, speed{}, red)
		if _, err := ctx.Queue.Every(2, 2, schedule.Skip(), ecs.Event{Kind: kindWave}); err != nil {
			ctx.Fail(err)
		}
	}})
	var log []string
	a.AddSystem(ecs.Update, ecs.System{Name: "fuse", Run: func(ctx *ecs.Sys) {
		if ctx.Time.Number != 1 {
			return
		}
		q := movers.Query()
		for q.Next() {
			_, err := ctx.Queue.After(2, ecs.Event{Kind: kindExplode, Entity: q.Entity(), Run: func(ctx *ecs.Sys, d ecs.EventDelivery) {
				ctx.Commands.Despawn(d.Payload.Entity)
			}})
			if err != nil {
				ctx.Fail(err)
			}
		}
	}})
	a.AddSystem(ecs.Update, ecs.System{Name: "observe", Run: func(ctx *ecs.Sys) {
		var kinds []string
		for _, d := range ctx.Events() {
			kinds = append(kinds, fmt.Sprint(d.Payload.Kind))
		}
		log = append(log, fmt.Sprintf("t%d[%s]n%d", ctx.Time.Number, strings.Join(kinds, ","), movers.Count()))
	}})
	if err := a.InitSimulation(nil); err != nil {
		t.Fatal(err)
	}
	for n := uint64(1); n <= 6; n++ {
		if err := a.Update(tick(n, 0)); err != nil {
			t.Fatalf("Update %d: %v", n, err)
		}
	}
	// The explosion lands at tick 3 and its despawn is applied before the
	// tick's systems run.
	want := "t1[]n1 t2[1]n1 t3[2]n0 t4[1]n0 t5[]n0 t6[1]n0"
	if got := strings.Join(log, " "); got != want {
		t.Errorf("deliveries: got %q, want %q", got, want)
	}
	q := ecs.GetResource[schedule.Queue[ecs.Event]](a.World())
	if q == nil || q.Now() != 6 {
		t.Errorf("queue resource: got %v, want a queue at tick 6", q)
	}
}

func TestNewAppValidatesQueueCapacity(t *testing.T) {
	_, err := ecs.NewApp(ecs.Options{QueueCapacity: -1})
	if err == nil || !strings.Contains(err.Error(), "ecs: Options.QueueCapacity") || !strings.Contains(err.Error(), "-1") {
		t.Errorf("NewApp with capacity -1: got %v, want an error naming Options.QueueCapacity and -1", err)
	}
}
