package config

import "fmt"

// windowProblems reports the relations between the window's keys, which
// the configuration owns: on each side the minimum is at most the maximum,
// and the window's size lies within them (a zero side has no bound).
func (c *Config) windowProblems() []problem {
	w := &c.Window
	var out []problem
	lo := fieldIndex["window.min_size"]
	sides := []struct {
		name           string
		key            string
		size, min, max int
	}{
		{"width", "window.width", w.Width, w.MinSize.Width, w.MaxSize.Width},
		{"height", "window.height", w.Height, w.MinSize.Height, w.MaxSize.Height},
	}
	for _, s := range sides {
		switch {
		case s.min > 0 && s.max > 0 && s.min > s.max:
			out = append(out, problem{field: lo,
				problem: fmt.Sprintf("its %s %d is above window.max_size's %d", s.name, s.min, s.max),
				allowed: "a minimum at most the maximum on each side"})
		case s.min > 0 && s.size < s.min:
			out = append(out, problem{field: fieldIndex[s.key],
				problem: fmt.Sprintf("below window.min_size's %s %d", s.name, s.min),
				allowed: "window.min_size to window.max_size"})
		case s.max > 0 && s.size > s.max:
			out = append(out, problem{field: fieldIndex[s.key],
				problem: fmt.Sprintf("above window.max_size's %s %d", s.name, s.max),
				allowed: "window.min_size to window.max_size"})
		}
	}
	return out
}
