package input

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/metronome-go/metronome/option"
)

// Delivery decides which pending input an update receives.
type Delivery uint8

const (
	// Backlog gives each update everything pending when it runs: all
	// completed polls since the previous update. It is the default and
	// works with every timing mode. In a catch-up batch the first update
	// gets the whole backlog and later ones only what arrived since.
	Backlog Delivery = iota
	// Timestamped gives each update the records whose timestamps fall before
	// the end of the span of real time the update stands for, so that in a
	// catch-up burst what the player did during a stall lands on the steps
	// that cover those moments. It needs updates that each stand for their
	// own span of real time: fixed steps only (see [ValidateDelivery]).
	Timestamped
)

// String returns "backlog" or "timestamped".
func (d Delivery) String() string {
	switch d {
	case Backlog:
		return "backlog"
	case Timestamped:
		return "timestamped"
	}
	return fmt.Sprintf("Delivery(%d)", uint8(d))
}

// ParseDelivery reads "backlog" or "timestamped" (case ignored).
func ParseDelivery(s string) (Delivery, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "backlog":
		return Backlog, nil
	case "timestamped":
		return Timestamped, nil
	}
	return Backlog, fmt.Errorf("input: delivery %q is not valid (valid: \"backlog\", \"timestamped\")", s)
}

// MarshalText implements encoding.TextMarshaler.
func (d Delivery) MarshalText() ([]byte, error) {
	if d > Timestamped {
		return nil, fmt.Errorf("input: delivery %d is not valid (valid: 0 backlog, 1 timestamped)", uint8(d))
	}
	return []byte(d.String()), nil
}

// UnmarshalText implements encoding.TextUnmarshaler with [ParseDelivery].
func (d *Delivery) UnmarshalText(b []byte) error {
	v, err := ParseDelivery(string(b))
	if err != nil {
		return err
	}
	*d = v
	return nil
}

// ErrTimestampedNeedsFixedSteps is what [ValidateDelivery]'s error wraps
// when the Timestamped policy is combined with variable steps.
var ErrTimestampedNeedsFixedSteps = errors.New("input: delivery \"timestamped\" requires the fixed timing mode (variable updates stand for all elapsed time, so there are no spans to place input in); use delivery \"backlog\" or timing mode \"fixed\"")

// ValidateDelivery checks a delivery policy against the timing mode. fixed
// reports whether the scheduler runs fixed steps (with any recovery policy;
// a catch-up update still has its own span). Timestamped with variable steps
// is a relative *[option.Error] on PollingOptions.Delivery that names
// timing.Options.Mode and wraps [ErrTimestampedNeedsFixedSteps]. The
// runtime calls this before anything runs.
func ValidateDelivery(d Delivery, fixed bool) error {
	switch d {
	case Backlog:
		return nil
	case Timestamped:
		if !fixed {
			return &option.Error{Pkg: "input", Field: "PollingOptions.Delivery", Value: d,
				Problem: `needs fixed steps, but timing.Options.Mode is "variable"`,
				Allowed: `"timestamped" with timing.Options.Mode = "fixed", or "backlog"`,
				Names:   []string{"timing.Options.Mode"}, Relative: true, Err: ErrTimestampedNeedsFixedSteps}
		}
		return nil
	}
	return fmt.Errorf("input: delivery %d is not valid (valid: 0 backlog, 1 timestamped)", uint8(d))
}

// Limits on PollingOptions.
const (
	// MaxPollSpacing is the largest accepted PollingOptions.Spacing.
	MaxPollSpacing = time.Second
	// MaxBacklog is the largest accepted PollingOptions.Capacity.
	MaxBacklog = 1 << 16
)

// PollingOptions configure a [Queue]. Use [DefaultPollingOptions]: the zero
// value has a zero Capacity, which is invalid.
type PollingOptions struct {
	// Spacing is the least time between two polls; [Queue.PollDue] says
	// no to a poll that would come sooner. Zero polls at every opportunity. Allowed: 0 to
	// MaxPollSpacing. Default 4 ms (250 Hz).
	Spacing time.Duration
	// Capacity is the number of polls the backlog holds before it coalesces:
	// when a poll arrives with the backlog full, the oldest pending poll is
	// merged into the next one. Merging moves a poll boundary, never a
	// record, so no edge, count or record is lost; [QueueStats.Coalesced]
	// counts merges. Capacity bounds the poll bookkeeping, not the
	// records, which are kept until taken (see [Queue]). Allowed: 1 to
	// MaxBacklog. Default 64.
	Capacity int
	// Delivery is the policy that decides which input each update gets.
	// Default Backlog. Timestamped is valid only with fixed steps; check it
	// with [ValidateDelivery].
	Delivery Delivery
}

// DefaultPollingOptions returns the documented defaults: 4 ms spacing, a
// 64-poll backlog and Backlog delivery.
func DefaultPollingOptions() PollingOptions {
	return PollingOptions{Spacing: 4 * time.Millisecond, Capacity: 64, Delivery: Backlog}
}

// Validate reports every invalid field at once, joined with errors.Join;
// each is a *[option.Error] naming the field, its value and the allowed
// range. Whether Delivery suits the timing mode is [ValidateDelivery]'s
// question.
func (o PollingOptions) Validate() error {
	var errs []error
	if o.Spacing < 0 || o.Spacing > MaxPollSpacing {
		errs = append(errs, &option.Error{Pkg: "input", Field: "PollingOptions.Spacing", Value: o.Spacing, Problem: "is out of range",
			Allowed: fmt.Sprintf("0 to %v", MaxPollSpacing)})
	}
	if o.Capacity < 1 || o.Capacity > MaxBacklog {
		errs = append(errs, &option.Error{Pkg: "input", Field: "PollingOptions.Capacity", Value: o.Capacity, Problem: "is out of range",
			Allowed: fmt.Sprintf("1 to %d", MaxBacklog)})
	}
	if o.Delivery > Timestamped {
		errs = append(errs, &option.Error{Pkg: "input", Field: "PollingOptions.Delivery", Value: uint8(o.Delivery), Problem: "is not valid",
			Allowed: "0 backlog, 1 timestamped"})
	}
	return errors.Join(errs...)
}
