package timing

import (
	"fmt"
	"time"
)

// AddResimulation reports that a rollback ran ticks again and that doing
// so took d of real time: d is owed as debt, as [Scheduler.AdjustDebt]
// adds it, and repaid by the same mechanisms (pacing first). The ticks
// count in Stats.Resimulated and d in Ledger.Resimulation (a part of
// Ledger.Adjusted). It fails, changing nothing, where AdjustDebt fails and
// for negative ticks or d.
func (s *Scheduler) AddResimulation(ticks int, d time.Duration) error {
	if ticks < 0 || d < 0 {
		return fmt.Errorf("timing: Scheduler.AddResimulation(%d, %v): negative; allowed: 0 or more ticks and time", ticks, d)
	}
	if err := s.AdjustDebt(d); err != nil {
		return err
	}
	s.resimTicks += uint64(ticks)
	s.resimTime += int64(d)
	return nil
}

// AdjustAdvantage moves the debt by d for frame advantage over remote
// peers: a peer ahead adds negative debt, which pacing repays by running a
// few percent slow (at most MaxSlowDown), and a peer behind positive debt,
// repaid by running fast (at most MaxSpeedUp), never by waiting whole
// frames. d counts in Ledger.Advantage (a part of Ledger.Adjusted). It
// fails, changing nothing, where [Scheduler.AdjustDebt] fails.
func (s *Scheduler) AdjustAdvantage(d time.Duration) error {
	if err := s.AdjustDebt(d); err != nil {
		return err
	}
	s.advantage += int64(d)
	return nil
}
