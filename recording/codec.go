package recording

import (
	"encoding/binary"
	"hash/crc32"
	"math"
	"math/bits"
	"slices"
	"time"

	"github.com/metronome-go/metronome/input"
	"github.com/metronome-go/metronome/internal/binio"
	"github.com/metronome-go/metronome/timing"
)

// magic opens every recording; the format version follows it as a uvarint.
var magic = [4]byte{'M', 'T', 'R', 'C'}

// frameLen is the size of a chunk's frame: the payload length, the
// CRC-32C of those four bytes, and the CRC-32C of the payload continued
// from the length's, each a little-endian uint32. The length has a
// checksum of its own so that a damaged length is found at once, not
// taken for a chunk still being written. In the header's chunk the
// length's checksum starts with the magic number and the version, so
// they are covered too.
const frameLen = 12

// oldFrameLen is the frame of versions 2 and 3: the length and the CRC-32C
// of the length bytes and the payload.
const oldFrameLen = 8

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// oldChunkSum is the checksum of a version 2 or 3 frame: its length
// bytes, then the payload.
func oldChunkSum(lenBytes, payload []byte) uint32 {
	return crc32.Update(crc32.Update(0, castagnoli, lenBytes), castagnoli, payload)
}

// lengthSum is the checksum of a frame's length bytes, after prefix (the
// magic number and the version for the header's chunk, nothing after).
func lengthSum(prefix, lenBytes []byte) uint32 {
	return crc32.Update(crc32.Update(0, castagnoli, prefix), castagnoli, lenBytes)
}

// seal fills in the frame of a chunk laid out as frame then payload.
func seal(c, prefix []byte) {
	binary.LittleEndian.PutUint32(c[0:4], uint32(len(c)-frameLen))
	ls := lengthSum(prefix, c[0:4])
	binary.LittleEndian.PutUint32(c[4:8], ls)
	binary.LittleEndian.PutUint32(c[8:12], crc32.Update(ls, castagnoli, c[frameLen:]))
}

// Item headers. A tick's header is its flags shifted left by one (low bit
// 0); other items have the low bit set and their type above it.
const (
	itemCheckpoint = 1 | 0<<1
	itemEnd        = 1 | 1<<1
	itemHook       = 1 | 2<<1
	itemPacing     = 1 | 3<<1
	itemNet        = 1 | 4<<1 // version 8 on, a match's recording only
	itemPresents   = 1 | 5<<1 // version 8 on
)

// Tick flags. The ones set on most ticks come first so that a steady
// tick's header fits one byte. The input interval is predicted to relate
// to the update as the previous one did: equal to its span (timestamped
// delivery), or starting where the previous interval ended and as long
// (backlog delivery).
const (
	fKind       = 3 // the update's Kind
	fFinal      = 1 << 2
	fTiming     = 1 << 3 // the Timing differs from the previous tick's
	fDelta      = 1 << 4 // Delta differs from the previous tick's
	fInputEnd   = 1 << 5 // the input interval's length is not the predicted one
	fRecords    = 1 << 6 // at least one record
	fPolls      = 1 << 7 // Polls differs from the previous tick's
	fEnd        = 1 << 8 // End is not Start + Delta
	fQuiet      = 1 << 9
	fCoarse     = 1 << 10
	fMailbox    = 1 << 11 // Mailbox is not 0
	fFutures    = 1 << 12 // Futures differs from the previous tick's
	fStart      = 1 << 13 // Start is not the previous End
	fInputStart = 1 << 14 // the input interval does not start where predicted
	fInputMode  = 1 << 15 // the input interval is the span where the previous one was not, or the reverse
	fSteps      = 1 << 16 // Steps is not 1 for a fixed update, 0 otherwise
	fNumber     = 1 << 17 // Number is not the previous one plus 1
	fDropped    = 1 << 18 // Dropped is not 0
	fStop       = 1 << 19
	fShutdown   = 1 << 20 // at least one shutdown request
	fPlayers    = 1 << 21 // a player's confirmed input differs from the previous tick's (format 6)
	fPresented  = 1 << 22 // Presented differs from the previous tick's (format 9)
	fAllV5      = 1<<21 - 1
	fAllV8      = 1<<22 - 1
	fAll        = 1<<23 - 1
)

// Bits of a confirmed action state's header: which of its fields follow
// (the booleans are the values themselves).
const (
	sDown = 1 << iota
	sWasDown
	sPresses
	sReleases
	sHeld
	sValue
	sStartValue
	sMean
	sPeak
	sAll = 1<<9 - 1
)

// Record header bits: the kind in the low four, then these. The short form
// carries only the kind's own fields, its boolean (Focused for a focus
// record, Connected for a gamepad one, Hidden, Minimized or Fullscreen for
// the window's) in rFlag; the full form carries every field, the booleans
// in a byte of their own.
const (
	rSynthetic = 1 << 4
	rFull      = 1 << 5
	rSameTime  = 1 << 6 // same Time as the previous record (or InputStart)
	rFlag      = 1 << 7

	rFocused    = 1 << 0 // in the full form's boolean byte
	rConnected  = 1 << 1
	rHidden     = 1 << 2
	rMinimized  = 1 << 3
	rFullscreen = 1 << 4
	rBooleans   = rFocused | rConnected | rHidden | rMinimized | rFullscreen

	lastRecordKind = input.RecordFullscreen
)

// Cursor positions and scroll offsets are often whole or half numbers,
// whose float64 bits end in zero bytes: reversed, they make short varints.
func floatWord(f float64) uint64   { return bits.ReverseBytes64(math.Float64bits(f)) }
func wordFloat(u uint64) float64   { return math.Float64frombits(bits.ReverseBytes64(u)) }
func stepsFor(k timing.Kind) int64 { return int64(b2i(k == timing.FixedUpdate)) }

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// Timing statistics are encoded as words, each against the previous
// encoded Timing, in order of how often they change so that the usual
// change mask fits one byte. Two are predicted from the others in the same
// Timing, so they cost nothing when the scheduler computed them the usual
// way: Ledger.PendingRemainder from the ledger's identity, and Alpha as
// remainder / step. Their values follow the others'.
const nStats = 32

// nStatsV4 is the number of words before version 5, which added
// Stats.Resimulated, Ledger.Resimulation and Ledger.Advantage as the last
// three: an older recording's mask never names them, and they read as 0.
const nStatsV4 = 29

const (
	wordAlpha     = 0
	wordRemainder = 2
)

type wordKind uint8

const (
	wFirst   wordKind = iota // zigzag of the difference from the previous value
	wSecond                  // zigzag of the difference from prev + (prev - the one before)
	wFloat                   // the xor of the bits with the previous value's
	wByte                    // as wFirst, and the value must fit a uint8
	wDerived                 // predicted from the other words
)

var statsKinds = [nStats]wordKind{
	wDerived, wSecond, wDerived, wSecond, wSecond, wSecond, wSecond, wByte, // Alpha .. Acting
	wSecond, wSecond, wFirst, wFirst, wFirst, wFloat, wFirst, wFirst, // Ticks[variable] .. MergedSteps
	wFirst, wFirst, wFirst, wFirst, wFirst, wFirst, wFirst, wFirst, wFirst, // Dropped .. Ledger.Adjusted
	wFirst, wByte, wByte, wByte, // Step, Mode, Recovery, Enabled
	wFirst, wFirst, wFirst, // Resimulated, Ledger.Resimulation, Ledger.Advantage (version 5)
}

// predictRemainder is Real + Adjusted - Simulated - Dropped - Suspended -
// PendingDebt, as [timing.Scheduler.Ledger] computes the remainder.
func predictRemainder(w *[nStats]uint64) uint64 {
	return w[1] + w[24] - w[4] - w[18] - w[19] - w[20] - w[21] - w[22] - w[23] - w[12]
}

// predictAlpha is the pending remainder as a fraction of the step, or the
// previous Alpha where that means nothing.
func predictAlpha(w *[nStats]uint64, prev uint64) uint64 {
	rem, step := int64(w[wordRemainder]), int64(w[25])
	if step <= 0 || rem < 0 || rem >= step {
		return prev
	}
	return math.Float64bits(float64(rem) / float64(step))
}

func statsWords(s *timing.Stats, w *[nStats]uint64) {
	l := &s.Ledger
	*w = [nStats]uint64{
		math.Float64bits(s.Alpha), uint64(l.Real), uint64(l.PendingRemainder), uint64(s.NextUpdateAt),
		uint64(l.Simulated), s.Ticks[timing.FixedUpdate], s.Steps, uint64(s.Acting),
		s.Ticks[timing.VariableUpdate], s.Ticks[timing.CatchUpUpdate], uint64(s.Debt), uint64(s.DebtTime),
		uint64(l.PendingDebt), math.Float64bits(s.Rate), s.QuietTicks, s.MergedSteps,
		uint64(s.Dropped), uint64(s.Suspended), uint64(l.DroppedExcessLag), uint64(l.DroppedCatchUpCap),
		uint64(l.DroppedCutoff), uint64(l.DroppedDropTime), uint64(l.DroppedByHook), uint64(l.Suspended),
		uint64(l.Adjusted), uint64(s.Step), uint64(s.Mode), uint64(s.Recovery), uint64(s.Enabled),
		s.Resimulated, uint64(l.Resimulation), uint64(l.Advantage),
	}
}

func wordsStats(w *[nStats]uint64, s *timing.Stats) {
	d := func(i int) time.Duration { return time.Duration(w[i]) }
	*s = timing.Stats{
		Mode: timing.Mode(w[26]), Recovery: timing.Recovery(w[27]), Step: d(25),
		Debt: int64(w[10]), DebtTime: d(11), Rate: math.Float64frombits(w[13]),
		Enabled: timing.Mechanism(w[28]), Acting: timing.Mechanism(w[7]),
		Dropped: d(16), Suspended: d(17),
		Steps: w[6], QuietTicks: w[14], MergedSteps: w[15], Resimulated: w[29],
		Alpha: math.Float64frombits(w[0]), NextUpdateAt: timing.Instant(w[3]),
		Ledger: timing.Ledger{
			Real: d(1), Simulated: d(4), DroppedExcessLag: d(18), DroppedCatchUpCap: d(19),
			DroppedCutoff: d(20), DroppedDropTime: d(21), DroppedByHook: d(22), Suspended: d(23),
			Adjusted: d(24), PendingDebt: d(12), PendingRemainder: d(2),
			Resimulation: d(30), Advantage: d(31),
		},
	}
	s.Ticks[timing.VariableUpdate] = w[8]
	s.Ticks[timing.FixedUpdate] = w[5]
	s.Ticks[timing.CatchUpUpdate] = w[9]
}

// stream is what the encoder and the decoder remember between items: the
// bases of every delta. Both sides update it identically.
type stream struct {
	end       timing.Instant
	delta     time.Duration
	number    uint64
	inputEnd  timing.Instant
	inputLen  int64
	inputSpan bool // the previous input interval was its update's span
	polls     int64
	futures   uint64
	presented int64
	stats     [nStats]uint64
	oldStats  bool           // a recording before version 5: nStatsV4 words
	slope     [nStats]uint64 // stats[i] minus the value before it, for wSecond
	types     []typeState
	ticks     uint64
	checks    uint64
	// players is the previous tick's confirmed input of every player in
	// the recording of a match (Header.Net), actions per player; nil
	// otherwise.
	players []input.Stats
	actions int
	v6      bool // format 6 on: tick flag fPlayers and pacing items exist
	v9      bool // format 9 on: tick flag fPresented exists
}

// typeState is a component type name seen in a checkpoint, with the values
// its next appearance is encoded against.
type typeState struct {
	name  string
	hash  uint64
	count int
}

func newStream() stream { return stream{number: math.MaxUint64, inputSpan: true} }

// appendTick encodes t. Its values have been validated.
func (s *stream) appendTick(b []byte, t *Tick) []byte {
	u := &t.Update
	f := uint64(u.Kind)
	set := func(cond bool, flag uint64) {
		if cond {
			f |= flag
		}
	}
	set(u.Final, fFinal)
	set(u.Quiet, fQuiet)
	set(u.Coarse, fCoarse)
	set(t.Stop, fStop)
	set(u.Delta != s.delta, fDelta)
	set(u.Start != s.end, fStart)
	set(u.End != u.Start+timing.Instant(u.Delta), fEnd)
	set(u.Number != s.number+1, fNumber)
	set(int64(u.Steps) != stepsFor(u.Kind), fSteps)
	set(u.Dropped != 0, fDropped)
	inLen := int64(t.InputEnd - t.InputStart)
	span := t.InputStart == u.Start && t.InputEnd == u.End
	set(span != s.inputSpan, fInputMode)
	if !span {
		set(t.InputStart != s.inputEnd, fInputStart)
		set(inLen != s.inputLen, fInputEnd)
	}
	set(int64(t.Polls) != s.polls, fPolls)
	set(t.Mailbox != 0, fMailbox)
	set(t.Futures != s.futures, fFutures)
	set(int64(t.Presented) != s.presented, fPresented)
	var w [nStats]uint64
	statsWords(&t.Timing, &w)
	set(w != s.stats, fTiming)
	set(len(t.Records) > 0, fRecords)
	set(len(t.Shutdown) > 0, fShutdown)
	set(len(s.players) > 0 && !slices.Equal(t.Players, s.players), fPlayers)

	b = binio.AppendUvarint(b, f<<1)
	if f&fDelta != 0 {
		b = binio.AppendVarint(b, int64(u.Delta-s.delta))
	}
	if f&fStart != 0 {
		b = binio.AppendVarint(b, int64(u.Start-s.end))
	}
	if f&fEnd != 0 {
		b = binio.AppendVarint(b, int64(u.End-u.Start-timing.Instant(u.Delta)))
	}
	if f&fNumber != 0 {
		b = binio.AppendVarint(b, int64(u.Number-s.number-1))
	}
	if f&fSteps != 0 {
		b = binio.AppendVarint(b, int64(u.Steps)-stepsFor(u.Kind))
	}
	if f&fDropped != 0 {
		b = binio.AppendVarint(b, int64(u.Dropped))
	}
	if f&fInputStart != 0 {
		b = binio.AppendVarint(b, int64(t.InputStart-s.inputEnd))
	}
	if f&fInputEnd != 0 {
		b = binio.AppendVarint(b, inLen-s.inputLen)
	}
	if f&fPolls != 0 {
		b = binio.AppendVarint(b, int64(t.Polls)-s.polls)
	}
	if f&fMailbox != 0 {
		b = binio.AppendVarint(b, int64(t.Mailbox))
	}
	if f&fFutures != 0 {
		b = binio.AppendVarint(b, int64(t.Futures-s.futures))
	}
	if f&fTiming != 0 {
		b = s.appendStats(b, &w)
	}
	if f&fRecords != 0 {
		b = appendRecords(b, t.InputStart, t.Records)
	}
	if f&fShutdown != 0 {
		b = binio.AppendUvarint(b, uint64(len(t.Shutdown)))
		for i := range t.Shutdown {
			q := &t.Shutdown[i]
			b = binio.AppendString(b, q.Reason)
			b = binio.AppendVarint(b, int64(q.At-u.Start))
			b = binio.AppendUvarint(b, q.Seq)
		}
	}
	if f&fPlayers != 0 {
		b = s.appendPlayers(b, t.Players)
	}
	if f&fPresented != 0 {
		b = binio.AppendVarint(b, int64(t.Presented)-s.presented)
	}
	s.delta, s.end, s.number = u.Delta, u.End, u.Number
	s.inputEnd, s.inputLen, s.inputSpan = t.InputEnd, inLen, span
	s.polls, s.futures, s.presented = int64(t.Polls), t.Futures, int64(t.Presented)
	s.ticks++
	return b
}

// appendPlayers encodes the confirmed input in against the previous
// tick's: a mask of the players whose input changed, then for each a mask
// of its actions that changed and each of those action states. It then
// copies in over s.players for the next tick to be compared with.
func (s *stream) appendPlayers(b []byte, in []input.Stats) []byte {
	n := s.actions
	var players uint64
	for p := range len(in) / n {
		if !slices.Equal(in[p*n:(p+1)*n], s.players[p*n:(p+1)*n]) {
			players |= 1 << p
		}
	}
	b = binio.AppendUvarint(b, players)
	for p := range len(in) / n {
		if players&(1<<p) == 0 {
			continue
		}
		var actions uint64
		for a := range n {
			if in[p*n+a] != s.players[p*n+a] {
				actions |= 1 << a
			}
		}
		b = binio.AppendUvarint(b, actions)
		for a := range n {
			if actions&(1<<a) != 0 {
				b = appendAction(b, &in[p*n+a])
			}
		}
	}
	copy(s.players, in)
	return b
}

// f32Word is a float32's bits byte-reversed, short for whole numbers.
func f32Word(f float32) uint64 { return uint64(bits.ReverseBytes32(math.Float32bits(f))) }

func appendAction(b []byte, st *input.Stats) []byte {
	var h uint64
	if st.Down {
		h |= sDown
	}
	if st.WasDown {
		h |= sWasDown
	}
	if st.Presses != 0 {
		h |= sPresses
	}
	if st.Releases != 0 {
		h |= sReleases
	}
	if st.Held != 0 {
		h |= sHeld
	}
	if math.Float32bits(st.Value) != 0 {
		h |= sValue
	}
	if math.Float32bits(st.StartValue) != 0 {
		h |= sStartValue
	}
	if math.Float32bits(st.Mean) != 0 {
		h |= sMean
	}
	if math.Float32bits(st.Peak) != 0 {
		h |= sPeak
	}
	b = binio.AppendUvarint(b, h)
	if h&sPresses != 0 {
		b = binio.AppendVarint(b, int64(st.Presses))
	}
	if h&sReleases != 0 {
		b = binio.AppendVarint(b, int64(st.Releases))
	}
	if h&sHeld != 0 {
		b = binio.AppendVarint(b, int64(st.Held))
	}
	for _, v := range [...]struct {
		bit uint64
		f   float32
	}{{sValue, st.Value}, {sStartValue, st.StartValue}, {sMean, st.Mean}, {sPeak, st.Peak}} {
		if h&v.bit != 0 {
			b = binio.AppendUvarint(b, f32Word(v.f))
		}
	}
	return b
}

// decodePlayers decodes the confirmed input of a tick flagged fPlayers
// into s.players, changing only the action states the masks name.
func (s *stream) decodePlayers(d *decoder) {
	n := s.actions
	count := len(s.players) / n
	players := d.Uvarint()
	if d.Err() == nil && players >= 1<<count {
		d.Failf("the mask of players whose input changed, %#x, names players that do not exist (allowed: bits 0 to %d)", players, count-1)
		return
	}
	if d.Err() == nil && players == 0 {
		d.Failf("tick flags say a player's input changed, but the mask names none")
		return
	}
	for p := 0; p < count && d.Err() == nil; p++ {
		if players&(1<<p) == 0 {
			continue
		}
		actions := d.Uvarint()
		if d.Err() == nil && (actions == 0 || (n < 64 && actions >= 1<<n)) {
			d.Failf("player %d: the mask of actions that changed, %#x, is not one of 1 to %#x", p, actions, uint64(1)<<n-1)
			return
		}
		for a := 0; a < n && d.Err() == nil; a++ {
			if actions&(1<<a) != 0 {
				decodeAction(d, &s.players[p*n+a])
			}
		}
	}
}

func decodeAction(d *decoder, st *input.Stats) {
	h := d.Uvarint()
	if d.Err() == nil && h > sAll {
		d.Failf("action state header %#x names fields that do not exist (allowed: bits 0 to 8)", h)
		return
	}
	*st = input.Stats{Down: h&sDown != 0, WasDown: h&sWasDown != 0}
	if h&sPresses != 0 {
		st.Presses = d.toInt("action presses", d.Varint())
	}
	if h&sReleases != 0 {
		st.Releases = d.toInt("action releases", d.Varint())
	}
	if h&sHeld != 0 {
		st.Held = time.Duration(d.Varint())
	}
	for _, v := range [...]struct {
		bit uint64
		f   *float32
	}{{sValue, &st.Value}, {sStartValue, &st.StartValue}, {sMean, &st.Mean}, {sPeak, &st.Peak}} {
		if h&v.bit != 0 {
			w := d.Uvarint()
			if w > math.MaxUint32 {
				d.Failf("an action's value %#x does not fit a float32", w)
			}
			*v.f = math.Float32frombits(bits.ReverseBytes32(uint32(w)))
		}
	}
}

func appendPacing(b []byte, p *Pacing) []byte {
	b = binio.AppendUvarint(b, itemPacing)
	b = binio.AppendUvarint(b, p.Update)
	b = binio.AppendVarint(b, p.Tick)
	b = binio.AppendVarint(b, int64(p.Resimulated))
	b = binio.AppendVarint(b, int64(p.ResimulationTime))
	b = binio.AppendVarint(b, int64(p.Held))
	return binio.AppendVarint(b, int64(p.Advantage))
}

func pacingItem(d *decoder, p *Pacing) {
	p.Update = d.Uvarint()
	p.Tick = d.Varint()
	p.Resimulated = d.toInt("Pacing.Resimulated", d.Varint())
	p.ResimulationTime = time.Duration(d.Varint())
	p.Held = time.Duration(d.Varint())
	p.Advantage = time.Duration(d.Varint())
}

// appendNet and netItem hold every figure whole, as uvarints and
// varints in the field order: once a second, a delta would save a few
// dozen bytes.
func appendNet(b []byte, n *NetFigures) []byte {
	b = binio.AppendUvarint(b, itemNet)
	b = binio.AppendUvarint(b, n.Update)
	b = binio.AppendVarint(b, n.Tick)
	b = binio.AppendVarint(b, n.Confirmed)
	b = binio.AppendVarint(b, int64(n.RTT))
	for _, v := range [...]uint64{n.BytesSent, n.BytesReceived, n.Sent, n.Received, n.Rollbacks, n.Resimulated} {
		b = binio.AppendUvarint(b, v)
	}
	b = binio.AppendVarint(b, int64(n.MaxDepth))
	b = binio.AppendUvarint(b, n.Held)
	b = binio.AppendVarint(b, int64(n.Resyncs))
	b = binio.AppendVarint(b, int64(n.PlayedOn))
	b = binio.AppendVarint(b, int64(n.SlowedDown))
	b = binio.AppendUvarint(b, n.Mispredicted)
	return binio.AppendUvarint(b, n.Malformed)
}

func netItem(d *decoder, n *NetFigures) {
	n.Update = d.Uvarint()
	n.Tick = d.Varint()
	n.Confirmed = d.Varint()
	n.RTT = time.Duration(d.Varint())
	for _, v := range [...]*uint64{&n.BytesSent, &n.BytesReceived, &n.Sent, &n.Received, &n.Rollbacks, &n.Resimulated} {
		*v = d.Uvarint()
	}
	n.MaxDepth = d.toInt("NetFigures.MaxDepth", d.Varint())
	n.Held = d.Uvarint()
	n.Resyncs = d.toInt("NetFigures.Resyncs", d.Varint())
	n.PlayedOn = d.toInt("NetFigures.PlayedOn", d.Varint())
	n.SlowedDown = time.Duration(d.Varint())
	n.Mispredicted = d.Uvarint()
	n.Malformed = d.Uvarint()
}

func appendPresents(b []byte, p Presents) []byte {
	b = binio.AppendUvarint(b, itemPresents)
	b = binio.AppendUvarint(b, p.Updates)
	return binio.AppendUvarint(b, p.Frames)
}

func presentsItem(d *decoder, p *Presents) {
	p.Updates = d.Uvarint()
	p.Frames = d.Uvarint()
}

func (s *stream) appendStats(b []byte, w *[nStats]uint64) []byte {
	var vals [nStats * binary.MaxVarintLen64]byte
	n := 0
	var mask uint64
	for _, i := range statsOrder {
		cur, prev := w[i], s.stats[i]
		var v uint64
		switch statsKinds[i] {
		case wFloat:
			v = cur ^ prev
		case wSecond:
			v = binio.Zigzag(int64(cur - prev - s.slope[i]))
			s.slope[i] = cur - prev
		case wFirst, wByte:
			v = binio.Zigzag(int64(cur - prev))
		case wDerived:
			if i == wordRemainder {
				v = binio.Zigzag(int64(cur - predictRemainder(w)))
			} else {
				v = cur ^ predictAlpha(w, prev)
			}
		}
		if v != 0 {
			mask |= 1 << i
			n += binary.PutUvarint(vals[n:], v)
		}
	}
	s.stats = *w
	b = binio.AppendUvarint(b, mask)
	return append(b, vals[:n]...)
}

// statsOrder is the order of the words' values: the derived ones last,
// the remainder before Alpha, which is predicted from it.
var statsOrder = func() (order [nStats]int) {
	n := 0
	for i := range nStats {
		if statsKinds[i] != wDerived {
			order[n] = i
			n++
		}
	}
	order[n], order[n+1] = wordRemainder, wordAlpha
	return order
}()

// plainRecord reports whether r uses only its kind's own fields, so that
// the short form holds all of it.
func plainRecord(r *input.Record) bool {
	var x, y, size, rn, button, axis, focused, connected, hidden, minimized, fullscreen bool // fields in use
	switch r.Kind {
	case input.RecordPress, input.RecordRelease:
		button = true
	case input.RecordCursor, input.RecordScroll, input.RecordContentScale:
		x, y = true, true
	case input.RecordText:
		rn = true
	case input.RecordFocus:
		focused = true
	case input.RecordWindowSize, input.RecordFramebufferSize:
		size = true
	case input.RecordAxis:
		axis, x = true, true
	case input.RecordGamepad:
		connected = true
	case input.RecordHidden:
		hidden = true
	case input.RecordMinimized:
		minimized = true
	case input.RecordFullscreen:
		fullscreen = true
	}
	return (x || math.Float64bits(r.X) == 0) && (y || math.Float64bits(r.Y) == 0) &&
		(size || r.Width == 0 && r.Height == 0) && (rn || r.Rune == 0) && (button || r.Button == 0) &&
		(axis || r.Axis == 0) && (focused || !r.Focused) && (connected || !r.Connected) &&
		(hidden || !r.Hidden) && (minimized || !r.Minimized) && (fullscreen || !r.Fullscreen)
}

// flagKind reports whether the short form of kind k carries its boolean
// in rFlag.
func flagKind(k input.RecordKind) bool {
	switch k {
	case input.RecordFocus, input.RecordGamepad, input.RecordHidden, input.RecordMinimized, input.RecordFullscreen:
		return true
	}
	return false
}

func appendRecords(b []byte, prev timing.Instant, rs []input.Record) []byte {
	b = binio.AppendUvarint(b, uint64(len(rs)))
	for i := range rs {
		r := &rs[i]
		h := byte(r.Kind)
		if r.Synthetic {
			h |= rSynthetic
		}
		full := !plainRecord(r)
		if full {
			h |= rFull
		} else if r.Focused || r.Connected || r.Hidden || r.Minimized || r.Fullscreen {
			h |= rFlag
		}
		if r.Time == prev {
			h |= rSameTime
		}
		b = append(b, h)
		if r.Time != prev {
			b = binio.AppendVarint(b, int64(r.Time-prev))
		}
		prev = r.Time
		if full {
			var flags byte
			if r.Focused {
				flags |= rFocused
			}
			if r.Connected {
				flags |= rConnected
			}
			if r.Hidden {
				flags |= rHidden
			}
			if r.Minimized {
				flags |= rMinimized
			}
			if r.Fullscreen {
				flags |= rFullscreen
			}
			b = binio.AppendUvarint(b, floatWord(r.X))
			b = binio.AppendUvarint(b, floatWord(r.Y))
			b = binio.AppendVarint(b, int64(r.Width))
			b = binio.AppendVarint(b, int64(r.Height))
			b = binio.AppendVarint(b, int64(r.Rune))
			b = append(b, byte(r.Button), byte(r.Axis), flags)
			continue
		}
		switch r.Kind {
		case input.RecordPress, input.RecordRelease:
			b = append(b, byte(r.Button))
		case input.RecordCursor, input.RecordScroll, input.RecordContentScale:
			b = binio.AppendUvarint(b, floatWord(r.X))
			b = binio.AppendUvarint(b, floatWord(r.Y))
		case input.RecordText:
			b = binio.AppendVarint(b, int64(r.Rune))
		case input.RecordWindowSize, input.RecordFramebufferSize:
			b = binio.AppendVarint(b, int64(r.Width))
			b = binio.AppendVarint(b, int64(r.Height))
		case input.RecordAxis:
			b = append(b, byte(r.Axis))
			b = binio.AppendUvarint(b, floatWord(r.X))
		}
	}
	return b
}

// appendCheckpoint encodes c; index maps names to s.types and gains the new
// ones. Its values have been validated.
func (s *stream) appendCheckpoint(b []byte, c *Checkpoint, index map[string]int) []byte {
	b = binio.AppendUvarint(b, itemCheckpoint)
	b = binio.AppendVarint(b, int64(c.Tick-s.number))
	b = binio.AppendU64(b, c.Hash)
	b = binio.AppendUvarint(b, uint64(len(c.Types)))
	for i := range c.Types {
		th := &c.Types[i]
		idx, ok := index[th.Name]
		if !ok {
			idx = len(s.types)
			index[th.Name] = idx
			s.types = append(s.types, typeState{name: th.Name})
		}
		st := &s.types[idx]
		e := uint64(idx) << 2
		if th.Hash != st.hash {
			e |= 1
		}
		if th.Count != st.count {
			e |= 2
		}
		b = binio.AppendUvarint(b, e)
		if !ok {
			b = binio.AppendUvarint(b, uint64(len(th.Name)))
			b = append(b, th.Name...)
		}
		if e&1 != 0 {
			b = binio.AppendU64(b, th.Hash)
		}
		if e&2 != 0 {
			b = binio.AppendVarint(b, int64(th.Count-st.count))
		}
		st.hash, st.count = th.Hash, th.Count
	}
	s.checks++
	return b
}

func (s *stream) appendEnd(b []byte, o Outcome, msg string) []byte {
	b = binio.AppendUvarint(b, itemEnd)
	b = binio.AppendUvarint(b, s.ticks)
	b = binio.AppendUvarint(b, s.checks)
	b = binio.AppendUvarint(b, uint64(o))
	b = binio.AppendUvarint(b, uint64(len(msg)))
	return append(b, msg...)
}

func appendHook(b []byte, h *Hook) []byte {
	b = binio.AppendUvarint(b, itemHook)
	b = append(b, byte(h.Name))
	return binio.AppendUvarint(b, h.Futures)
}

func hookItem(d *decoder, h *Hook) {
	name := HookName(d.Byte())
	h.Futures = d.Uvarint()
	if d.Err() == nil && name > HookDeinitSimulation {
		d.Failf("hook name %d is not defined (allowed: 0 InitSimulation, 1 DeinitSimulation)", uint8(name))
	}
	h.Name = name
}

// decoder reads one chunk's payload with the sticky binio reader, whose
// Mark says where the field at fault began.
type decoder struct{ binio.Reader }

// toInt converts a decoded int64 to int, failing where int is narrower.
func (d *decoder) toInt(what string, v int64) int {
	if int64(int(v)) != v {
		d.Failf("%s %d does not fit an int", what, v)
	}
	return int(v)
}

func (d *decoder) int32(what string) int32 {
	return int32(d.Int(what, math.MinInt32, math.MaxInt32))
}

// tick decodes a tick with flags f into t, updating s.
func (s *stream) tick(d *decoder, f uint64, t *Tick, stats *timing.Stats) {
	switch {
	case !s.v6 && f > fAllV5:
		d.Failf("tick flags %#x are not defined (allowed: bits 0 to 20 before format 6)", f)
		return
	case !s.v9 && f > fAllV8:
		d.Failf("tick flags %#x are not defined (allowed: bits 0 to 21 before format 9)", f)
		return
	case f > fAll:
		d.Failf("tick flags %#x are not defined (allowed: bits 0 to 22)", f)
		return
	case f&fPlayers != 0 && len(s.players) == 0:
		d.Failf("tick flags %#x give players' input, but the recording is not of a networked match", f)
		return
	}
	u := &t.Update
	u.Kind = timing.Kind(f & fKind)
	if u.Kind >= timing.NumKinds {
		d.Failf("update kind %d is not a timing.Kind (allowed: 0 to %d)", u.Kind, timing.NumKinds-1)
		return
	}
	u.Final, u.Quiet, u.Coarse, t.Stop = f&fFinal != 0, f&fQuiet != 0, f&fCoarse != 0, f&fStop != 0
	u.Delta = s.delta
	if f&fDelta != 0 {
		u.Delta += time.Duration(d.Varint())
	}
	u.Start = s.end
	if f&fStart != 0 {
		u.Start += timing.Instant(d.Varint())
	}
	u.End = u.Start + timing.Instant(u.Delta)
	if f&fEnd != 0 {
		u.End += timing.Instant(d.Varint())
	}
	u.Number = s.number + 1
	if f&fNumber != 0 {
		u.Number += uint64(d.Varint())
	}
	steps := stepsFor(u.Kind)
	if f&fSteps != 0 {
		steps += d.Varint()
	}
	u.Steps = d.toInt("Update.Steps", steps)
	u.Dropped = 0
	if f&fDropped != 0 {
		u.Dropped = time.Duration(d.Varint())
	}
	t.InputStart, t.InputEnd = u.Start, u.End
	span := s.inputSpan != (f&fInputMode != 0)
	if !span {
		t.InputStart = s.inputEnd
		if f&fInputStart != 0 {
			t.InputStart += timing.Instant(d.Varint())
		}
		n := s.inputLen
		if f&fInputEnd != 0 {
			n += d.Varint()
		}
		t.InputEnd = t.InputStart + timing.Instant(n)
	} else if f&(fInputStart|fInputEnd) != 0 {
		d.Failf("tick flags %#x give an input interval's start or length but say it is the update's span", f)
	}
	polls := s.polls
	if f&fPolls != 0 {
		polls += d.Varint()
	}
	t.Polls = d.toInt("Tick.Polls", polls)
	t.Mailbox = 0
	if f&fMailbox != 0 {
		t.Mailbox = d.toInt("Tick.Mailbox", d.Varint())
	}
	t.Futures = s.futures
	if f&fFutures != 0 {
		t.Futures += uint64(d.Varint())
	}
	if f&fTiming != 0 {
		s.decodeStats(d)
		wordsStats(&s.stats, stats)
	}
	t.Timing = *stats
	t.Records = t.Records[:0]
	if f&fRecords != 0 {
		t.Records = decodeRecords(d, t.InputStart, t.Records)
	}
	t.Shutdown = t.Shutdown[:0]
	if f&fShutdown != 0 {
		n := d.Length("shutdown request count", MaxShutdownRequests, 3)
		if n == 0 && d.Err() == nil {
			d.Failf("tick flags say shutdown requests follow, but none do")
		}
		for range n {
			q := ShutdownRequest{Reason: d.String("shutdown reason length", MaxReasonBytes)}
			q.At = u.Start + timing.Instant(d.Varint())
			q.Seq = d.Uvarint()
			if d.Err() != nil {
				break
			}
			t.Shutdown = append(t.Shutdown, q)
		}
	}
	if f&fPlayers != 0 {
		s.decodePlayers(d)
	}
	t.Players = append(t.Players[:0], s.players...)
	presented := s.presented
	if f&fPresented != 0 {
		presented += d.Varint()
	}
	if presented < 0 {
		d.Failf("Tick.Presented reads %d (allowed: 0 or more)", presented)
	}
	t.Presented = d.toInt("Tick.Presented", presented)
	if d.Err() != nil {
		return
	}
	s.delta, s.end, s.number = u.Delta, u.End, u.Number
	s.inputEnd, s.inputLen, s.inputSpan = t.InputEnd, int64(t.InputEnd-t.InputStart), span
	s.polls, s.futures, s.presented = polls, t.Futures, presented
	s.ticks++
}

func (s *stream) decodeStats(d *decoder) {
	mask := d.Uvarint()
	words := nStats
	if s.oldStats {
		words = nStatsV4
	}
	if mask >= 1<<words {
		d.Failf("timing mask %#x names fields that do not exist (allowed: bits 0 to %d)", mask, words-1)
		return
	}
	var vals [nStats]uint64
	for _, i := range statsOrder {
		if mask&(1<<i) != 0 {
			vals[i] = d.Uvarint()
		}
	}
	prevAlpha := s.stats[wordAlpha]
	for i, v := range vals {
		prev := s.stats[i]
		cur := prev
		switch statsKinds[i] {
		case wFloat:
			cur = prev ^ v
		case wSecond:
			cur = prev + s.slope[i] + uint64(binio.Unzigzag(v))
			s.slope[i] = cur - prev
		case wFirst, wByte:
			cur = prev + uint64(binio.Unzigzag(v))
			if statsKinds[i] == wByte && cur > math.MaxUint8 {
				d.Failf("timing field %d holds %d, more than its uint8 allows", i, cur)
			}
		}
		s.stats[i] = cur
	}
	s.stats[wordRemainder] = predictRemainder(&s.stats) + uint64(binio.Unzigzag(vals[wordRemainder]))
	s.stats[wordAlpha] = predictAlpha(&s.stats, prevAlpha) ^ vals[wordAlpha]
}

func decodeRecords(d *decoder, prev timing.Instant, rs []input.Record) []input.Record {
	n := d.Length("record count", MaxRecords, 1)
	if n == 0 && d.Err() == nil {
		d.Failf("a tick flagged as having records has none")
	}
	rs = rs[:0]
	for i := 0; i < n && d.Err() == nil; i++ {
		h := d.Byte()
		kind := input.RecordKind(h & 15)
		if kind < input.RecordPress || kind > lastRecordKind {
			d.Failf("record %d: kind %d is not an input record kind (allowed: %d to %d)",
				i, kind, input.RecordPress, lastRecordKind)
			break
		}
		r := input.Record{Kind: kind, Synthetic: h&rSynthetic != 0}
		if h&rSameTime == 0 {
			prev += timing.Instant(d.Varint())
		}
		r.Time = prev
		if h&rFull != 0 {
			if h&rFlag != 0 {
				d.Failf("record %d: header %#02x sets both the full form and the short form's flag", i, h)
				break
			}
			r.X, r.Y = wordFloat(d.Uvarint()), wordFloat(d.Uvarint())
			r.Width, r.Height = d.int32("record width"), d.int32("record height")
			r.Rune = d.int32("record rune")
			r.Button, r.Axis = input.Button(d.Byte()), input.Axis(d.Byte())
			flags := d.Byte()
			if flags&^rBooleans != 0 {
				d.Failf("record %d: flags %#02x are not defined (allowed: bits 0 to 4)", i, flags)
			}
			r.Focused, r.Connected = flags&rFocused != 0, flags&rConnected != 0
			r.Hidden, r.Minimized, r.Fullscreen = flags&rHidden != 0, flags&rMinimized != 0, flags&rFullscreen != 0
			rs = append(rs, r)
			continue
		}
		switch flag := h&rFlag != 0; kind {
		case input.RecordPress, input.RecordRelease:
			r.Button = input.Button(d.Byte())
		case input.RecordCursor, input.RecordScroll, input.RecordContentScale:
			r.X, r.Y = wordFloat(d.Uvarint()), wordFloat(d.Uvarint())
		case input.RecordText:
			r.Rune = d.int32("record rune")
		case input.RecordWindowSize, input.RecordFramebufferSize:
			r.Width, r.Height = d.int32("record width"), d.int32("record height")
		case input.RecordAxis:
			r.Axis = input.Axis(d.Byte())
			r.X = wordFloat(d.Uvarint())
		case input.RecordFocus:
			r.Focused = flag
		case input.RecordGamepad:
			r.Connected = flag
		case input.RecordHidden:
			r.Hidden = flag
		case input.RecordMinimized:
			r.Minimized = flag
		case input.RecordFullscreen:
			r.Fullscreen = flag
		}
		if h&rFlag != 0 && !flagKind(kind) {
			d.Failf("record %d: a %v record has no flag (header %#02x)", i, kind, h)
		}
		rs = append(rs, r)
	}
	return rs
}

func (s *stream) checkpoint(d *decoder, c *Checkpoint) {
	c.Tick = s.number + uint64(d.Varint())
	c.Hash = d.U64()
	n := d.Length("checkpoint type count", MaxTypes, 1)
	c.Types = c.Types[:0]
	for i := 0; i < n && d.Err() == nil; i++ {
		e := d.Uvarint()
		idx := e >> 2
		switch {
		case idx > uint64(len(s.types)):
			d.Failf("checkpoint type %d refers to name %d, but only %d are defined", i, idx, len(s.types))
		case idx == uint64(len(s.types)):
			if len(s.types) >= MaxTypes {
				d.Failf("checkpoint type %d: more than %d distinct type names", i, MaxTypes)
				break
			}
			name := d.String("type name length", MaxNameLen)
			s.types = append(s.types, typeState{name: name})
		}
		if d.Err() != nil {
			break
		}
		st := &s.types[idx]
		if e&1 != 0 {
			st.hash = d.U64()
		}
		if e&2 != 0 {
			count := int64(st.count) + d.Varint()
			if count < 0 || int64(int(count)) != count {
				d.Failf("checkpoint type %q: count %d is out of range", st.name, count)
				break
			}
			st.count = int(count)
		}
		c.Types = append(c.Types, TypeHash{Name: st.name, Hash: st.hash, Count: st.count})
	}
	if d.Err() == nil {
		s.checks++
	}
}

func (s *stream) endMarker(d *decoder, e *End, version uint64) {
	ticks, checks := d.Uvarint(), d.Uvarint()
	outcome := uint64(Clean)
	if version >= 4 {
		outcome = d.Uvarint()
		if d.Err() == nil && outcome >= uint64(numOutcomes) {
			d.Failf("the end marker's outcome %d is not defined (allowed: 0 to %d)", outcome, numOutcomes-1)
		}
	}
	e.Error = d.String("outcome length", MaxErrorLen)
	if version < 4 && e.Error != "" {
		outcome = uint64(Failed)
	}
	e.Outcome = Outcome(outcome)
	e.Ticks, e.Checkpoints = ticks, checks
	switch {
	case d.Err() != nil:
	case e.Outcome == Clean && e.Error != "":
		d.Failf("the end marker says clean stop but carries a message (%d bytes)", len(e.Error))
	case e.Outcome != Clean && e.Error == "":
		d.Failf("the end marker says %v without a message", e.Outcome)
	case ticks != s.ticks:
		d.Failf("the end marker counts %d ticks, the recording holds %d", ticks, s.ticks)
	case checks != s.checks:
		d.Failf("the end marker counts %d checkpoints, the recording holds %d", checks, s.checks)
	case d.Left() != 0:
		d.MarkHere()
		d.Failf("the chunk goes on for %d bytes after the end marker", d.Left())
	}
}
