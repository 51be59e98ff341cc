package runtime

import (
	"encoding/json"

	"github.com/metronome-go/metronome/input"
)

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
