package work

import (
	"fmt"
	"runtime/debug"
)

// PanicError is a panic recovered from work run on someone's behalf: a
// job, a game hook, a platform request. Whoever ran it treats it as a
// failure (a job's group, a game's session) and goes on cleaning up.
type PanicError struct {
	Value any
	Stack []byte
}

func (e *PanicError) Error() string { return fmt.Sprintf("panic: %v", e.Value) }

// Unwrap returns the panic value when it is an error.
func (e *PanicError) Unwrap() error {
	if err, ok := e.Value.(error); ok {
		return err
	}
	return nil
}

// guard runs fn and turns a panic in it into a *PanicError.
func guard(fn func() error) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = &PanicError{Value: r, Stack: debug.Stack()}
		}
	}()
	return fn()
}
