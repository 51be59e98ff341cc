// Package media holds the error shape shared by the packages that read
// files made outside the program: assets (images, fonts, sound files) and
// audio (WAV, Ogg Vorbis, MP3). Both report a failure with a named file as
// an [*Error], like [io/fs.PathError], and both wrap the same sentinels for
// the same faults, so a game branches once whatever loaded the file:
//
//	_, err := lib.LoadSound(files, "boom.ogg")
//	if errors.Is(err, media.ErrCorrupt) {
//		var e *media.Error
//		errors.As(err, &e)
//		log.Printf("%s is damaged: %v", e.Path, e.Err)
//	}
//
// The sentinels here are the faults both packages meet ([ErrCorrupt],
// [ErrUnsupported], [ErrTooLarge], [ErrInvalid]); a fault only one package
// meets keeps its sentinel there (assets.ErrStale, audio.ErrQueueFull).
// [Detail] adds a description to a sentinel without hiding it from
// errors.Is.
//
// The package sits below assets and audio and imports only the standard
// library, so either may use it without importing a package above itself.
package media
