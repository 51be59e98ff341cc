package runtime

import (
	"encoding/json"
	"time"

	"github.com/metronome-go/metronome/input"
)

// PlatformReport is what the platform chose and measured at start, handed
// over in [Adapters.Platform] and written in the timing report ([Report]):
// facts of the machine a report's figures depend on. Each field's zero
// value means the platform did not say.
type PlatformReport struct {
	// Device is the graphics device's name as the driver gives it (GL's
	// renderer string; in a page, WebGL's unmasked renderer).
	Device string `json:"device"`
	// DrawPath is how the renderer draws sprites, by its name
	// (render2d/glrender's DrawPath: "instanced" or "batched").
	DrawPath string `json:"draw_path"`
	// ClockResolution is the finest step of the clock measured at start
	// ([timing.Resolution]): in a page that is not cross-origin isolated
	// browsers coarsen performance.now() to 100 µs (Chromium) or more.
	ClockResolution time.Duration `json:"clock_resolution_ns"`
}

// InputStats is the input queue's statistics in a [Report]: the queue's own
// value, written to JSON in the report's snake case.
type InputStats struct {
	input.QueueStats
}

// inputStatsJSON is input.QueueStats with the report's keys. The
// conversions below fail to compile when the queue's statistics change, so
// the two cannot drift apart.
type inputStatsJSON struct {
	Polls              uint64 `json:"polls"`
	Coalesced          uint64 `json:"coalesced"`
	Records            uint64 `json:"records"`
	Ticks              uint64 `json:"ticks"`
	Pending            int    `json:"pending_polls"`
	PendingRecords     int    `json:"pending_records"`
	PeakPendingRecords int    `json:"peak_pending_records"`
	RecordCapacity     int    `json:"record_capacity"`
}

// MarshalJSON writes the statistics with the report's keys.
func (s InputStats) MarshalJSON() ([]byte, error) {
	return json.Marshal(inputStatsJSON(s.QueueStats))
}

// UnmarshalJSON reads what MarshalJSON writes.
func (s *InputStats) UnmarshalJSON(b []byte) error {
	var j inputStatsJSON
	if err := json.Unmarshal(b, &j); err != nil {
		return err
	}
	s.QueueStats = input.QueueStats(j)
	return nil
}
