package timing

import (
	"fmt"
	"strings"
)

// FieldError is one invalid option found by [Options.Validate]: the field,
// the value it holds, what is wrong and what the field allows. Validate
// joins one per problem with errors.Join; find them with errors.As, or walk
// the joined error to see them all. Configuration loaders use Field to name
// their own key for the option and repeat Allowed, so the range is stated
// only here.
type FieldError struct {
	// Field is the Go field as a Go user writes it: "Options.MaxFixedUpdates",
	// "DebtOptions.Gain", "Options.Rate.Num".
	Field string
	// Value is the rejected value, or nil when the problem is with the
	// field's relation to another one rather than with its value.
	Value any
	// Problem says what is wrong, starting with a verb: "is out of range",
	// "needs DebtOptions.Hook (a networked role)".
	Problem string
	// Allowed says what the field accepts, such as "1 to 64"; it may name
	// other fields when the range depends on them.
	Allowed string
}

// Error reads "timing: Options.MaxFixedUpdates 0 is out of range; allowed: 1 to 64".
func (e *FieldError) Error() string {
	var b strings.Builder
	b.WriteString("timing: ")
	b.WriteString(e.Field)
	if e.Value != nil {
		fmt.Fprintf(&b, " %v", e.Value)
	}
	b.WriteByte(' ')
	b.WriteString(e.Problem)
	if e.Allowed != "" {
		b.WriteString("; allowed: ")
		b.WriteString(e.Allowed)
	}
	return b.String()
}
