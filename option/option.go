// Package option holds the one error type every Validate in Metronome
// reports for an invalid option: timing.Options, input.PollingOptions,
// runtime.Options and the rest each report their problems as *[Error]
// values joined with errors.Join, so a configuration loader can find them
// with errors.As (or walk the joined error), name its own key for the
// field and repeat the allowed range, which is stated only by the package
// that owns the option. The owner also says which problems are relations
// ([Error.Relative]) and which other options they name ([Error.Names]), so
// the loader needs no copy of the owner's rules: it checks a value alone
// when it reads it and the relations once every value is in.
// [Echo] is how every error repeats a value the user gave: a long one is
// cut to a prefix and its length.
//
//	err := opts.Validate()
//	var e *option.Error
//	if errors.As(err, &e) {
//		fmt.Println(e.Field, e.Allowed) // Options.MaxFixedUpdates 1 to 64
//	}
package option

import (
	"fmt"
	"strings"
)

// Error is one invalid option field.
type Error struct {
	// Pkg is the package that owns the option, such as "timing"; it
	// prefixes the message.
	Pkg string
	// Field is the Go field as a Go user writes it, such as
	// "Options.MaxFixedUpdates" or "DebtOptions.Gain".
	Field string
	// Value is the rejected value, or nil when the field is refused
	// whatever its value (a mechanism another option rules out).
	Value any
	// Problem says what is wrong, starting with a verb: "is out of range",
	// "needs DebtOptions.Hook (a networked role)".
	Problem string
	// Allowed says what the field accepts, such as "1 to 64"; it may name
	// other fields when the range depends on them.
	Allowed string
	// Names lists the other options the problem depends on, written as
	// Field is (a field of another package with its package's name:
	// "timing.Options.Mode"). Where Problem or Allowed write one, a loader
	// may put its own name for it in its place.
	Names []string
	// Relative reports that the value is wrong only against the options
	// in Names (a prefix above the update limit): on its own it is in
	// range. A loader that reads one key at a time checks these once all
	// keys are in, so they may come in any order.
	Relative bool
	// Err, if set, is a sentinel the error wraps, for errors.Is.
	Err error
}

// Error reads "timing: Options.MaxFixedUpdates 0 is out of range; allowed: 1 to 64".
func (e *Error) Error() string {
	var b strings.Builder
	if e.Pkg != "" {
		b.WriteString(e.Pkg)
		b.WriteString(": ")
	}
	b.WriteString(e.Field)
	if e.Value != nil {
		b.WriteByte(' ')
		b.WriteString(Echo(fmt.Sprint(e.Value)))
	}
	b.WriteByte(' ')
	b.WriteString(e.Problem)
	if e.Allowed != "" {
		b.WriteString("; allowed: ")
		b.WriteString(e.Allowed)
	}
	return b.String()
}

// Unwrap returns Err.
func (e *Error) Unwrap() error { return e.Err }
