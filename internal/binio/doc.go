// Package binio is the one reader and writer of the project's
// hand-written binary forms: recordings, ECS and queue snapshots,
// rollback messages and netplay packets. Each keeps its own layout; what
// they share lives here once: varints (unsigned, and signed in zigzag
// form, as [encoding/binary] writes them), fixed-width little-endian
// integers, lengths and counts bounded by a limit and by the bytes left,
// and byte strings with a uvarint length.
//
// A [Reader] keeps its first failure (it is sticky): every later read
// returns zero and nothing else is recorded, so a decoder reads a whole
// structure and checks [Reader.Err] once, where the next step depends on
// it. Its failures wrap the codec's own sentinel error and name what was
// wrong and what is allowed:
//
//	player count 900 is out of range (allowed: 0 to 16)
//
// The writing half is the Append functions, which extend a slice like
// [binary.AppendUvarint] and allocate nothing when it has room.
//
//	b = binio.AppendString(b, name)
//	b = binio.AppendVarint(b, delta)
//	...
//	r := binio.NewReader(b, ErrMalformed)
//	name := r.String("name length", 64)
//	delta := r.Varint()
//	if err := r.Err(); err != nil {
//		return err
//	}
package binio
