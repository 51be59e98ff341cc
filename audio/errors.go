package audio

import "errors"

// ErrQueueFull reports a request refused because the mixer's command queue
// is full: the mixer has not run for a while (no device, or the device
// stalled). The request is dropped, never waited for.
//
// Every other error this package returns wraps one of package media's
// sentinels ([media.ErrCorrupt], [media.ErrUnsupported], [media.ErrTooLarge]
// beyond [MaxFileBytes] or [MaxSoundFrames], [media.ErrInvalid]), shared with
// package assets, or an error from io/fs such as [io/fs.ErrNotExist], so
// callers branch with [errors.Is] and print the error for a human. A failure
// with a named file is a [*media.Error] with Pkg "audio".
var ErrQueueFull = errors.New("audio: command queue full")
