package runtime

import (
	"fmt"
	"strings"
)

// FieldError is one invalid option found by a Validate method of this
// package: the field, the value it holds, what is wrong and what the field
// allows. Validate joins one per problem with errors.Join; find them with
// errors.As, or walk the joined error to see them all. Configuration
// loaders use Field to name their own key for the option and repeat
// Allowed, so the range is stated only here.
type FieldError struct {
	// Field is the Go field as a Go user writes it, such as "Options.HiddenInterval".
	Field string
	// Value is the rejected value.
	Value any
	// Problem says what is wrong, starting with a verb: "is out of range".
	Problem string
	// Allowed says what the field accepts, such as "1ms to 1s".
	Allowed string
}

// Error reads "runtime: Options.HiddenInterval 2s is out of range (allowed: 1ms to 1s)".
func (e *FieldError) Error() string {
	var b strings.Builder
	b.WriteString("runtime: ")
	b.WriteString(e.Field)
	if e.Value != nil {
		fmt.Fprintf(&b, " %v", e.Value)
	}
	b.WriteByte(' ')
	b.WriteString(e.Problem)
	if e.Allowed != "" {
		b.WriteString(" (allowed: ")
		b.WriteString(e.Allowed)
		b.WriteByte(')')
	}
	return b.String()
}
