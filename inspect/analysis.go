package inspect

import (
	"net/http"
	"strings"
)

// The page's questions that replay the recording again (who wrote a
// field, the first tick where a condition holds, a test written from a
// pick, where a second recording parts from this one). They are answered
// by package framework, which runs the game; package inspect cannot
// import it, so the answers come through [Analysis], in JSON-friendly
// forms (an entity as its ID and generation).

// Analysis answers the questions of the page's analysis endpoints. A nil
// function leaves its endpoint answering 404, saying what is missing.
// framework.InspectAnalysis fills one for a game and a recording.
type Analysis struct {
	// WhoWrote lists the changes of one field of one entity in the
	// updates [from, until) (until 0: to the end).
	WhoWrote func(id, gen uint32, field string, from, until uint64) (WhoWroteAnswer, error)
	// Where finds the first update after which expr holds (until as in
	// WhoWrote).
	Where func(expr string, until uint64) (WhereAnswer, error)
	// WriteTest writes a test file that replays ticks updates and checks
	// expect after them.
	WriteTest func(file string, ticks uint64, expect string) (WrittenTest, error)
	// Compare says where a second recording parts from this one, down to
	// the system; nil without one.
	Compare func() (CompareAnswer, error)
	// CompareName names the second recording on the page.
	CompareName string
}

// FieldWrite is one change of a watched field.
type FieldWrite struct {
	Tick   uint64 `json:"tick"`
	Stage  string `json:"stage"`
	System string `json:"system"`
	Old    string `json:"old"`
	New    string `json:"new"`
}

// WhoWroteAnswer is the answer of /api/who-wrote.
type WhoWroteAnswer struct {
	Field  string       `json:"field"`
	ID     uint32       `json:"id"`
	Gen    uint32       `json:"gen"`
	Writes []FieldWrite `json:"writes"`
	Ticks  uint64       `json:"ticks"` // updates replayed
}

// EntityValues is one entity a condition holds for, with the values of
// the condition's fields.
type EntityValues struct {
	Entity string   `json:"entity"`
	ID     uint32   `json:"id"`
	Gen    uint32   `json:"gen"`
	Values []string `json:"values"`
}

// WhereAnswer is the answer of /api/where.
type WhereAnswer struct {
	Found   bool           `json:"found"`
	Tick    uint64         `json:"tick"`
	Fields  []string       `json:"fields"`
	Matches []EntityValues `json:"matches"`
	Ticks   uint64         `json:"ticks"`
}

// WrittenTest is the answer of /api/write-test.
type WrittenTest struct {
	File      string `json:"file"`
	Recording string `json:"recording"`
	Name      string `json:"name"`
	// Holds: the condition holds now, so the test passes as the game is.
	Holds bool `json:"holds"`
}

// FieldDifference is one field that differs between two runs.
type FieldDifference struct {
	Type   string `json:"type"`
	Entity string `json:"entity"`
	ID     uint32 `json:"id"`
	Gen    uint32 `json:"gen"`
	Field  string `json:"field"`
}

// CompareAnswer is the answer of /api/compare: where two recordings part.
type CompareAnswer struct {
	Same         bool              `json:"same"`
	InputDiffers bool              `json:"input_differs"`
	InputTick    uint64            `json:"input_tick"`
	HashDiffers  bool              `json:"hash_differs"`
	HashTick     uint64            `json:"hash_tick"`
	TicksA       uint64            `json:"ticks_a"`
	TicksB       uint64            `json:"ticks_b"`
	HasTick      bool              `json:"has_tick"`
	Tick         uint64            `json:"tick"`
	Fields       []FieldDifference `json:"fields"`
	HasSystem    bool              `json:"has_system"`
	System       string            `json:"system"`
	Stage        string            `json:"stage"`
	SystemFields []FieldDifference `json:"system_fields"`
	// Text is the answer as the command line prints it.
	Text string `json:"text"`
}

func (h *handler) noAnalysis(what string) error {
	return missing("this inspector answers no %s question: it was started without the game's analysis (framework.InspectAnalysis)", what)
}

// until reads the optional until parameter (0: to the end).
func (q *query) until() (uint64, error) {
	return q.uint("until", 0, uint64(q.rep.Ticks()))
}

func (h *handler) whoWrote(q *query) (any, error) {
	if h.opts.Analysis.WhoWrote == nil {
		return nil, h.noAnalysis("who-wrote")
	}
	id, err := q.uint("id", 0, 1<<32-1)
	if err != nil {
		return nil, err
	}
	gen, err := q.uint("gen", 0, 1<<32-1)
	if err != nil {
		return nil, err
	}
	if q.str("id") == "" {
		return nil, bad("parameter id is missing: want an entity's id (and gen) from /api/entities")
	}
	from, err := q.uint("from", 0, uint64(q.rep.Ticks()-1))
	if err != nil {
		return nil, err
	}
	until, err := q.until()
	if err != nil {
		return nil, err
	}
	if until != 0 && until <= from {
		return nil, bad("from=%d until=%d: want from < until (or no until: to the end)", from, until)
	}
	path := strings.TrimSpace(q.str("path"))
	if comp, rest, _ := strings.Cut(path, "."); comp == "" || rest == "" {
		return nil, bad("parameter path=%q: want Component.Field (such as Ball.X)", trim(path))
	}
	ans, err := h.opts.Analysis.WhoWrote(uint32(id), uint32(gen), path, from, until)
	if err != nil {
		return nil, bad("%v", err)
	}
	return ans, nil
}

// maxExpr is the longest condition /api/where and /api/write-test take.
const maxExpr = 1000

func (q *query) expr(name string) (string, error) {
	s := strings.TrimSpace(q.str(name))
	if s == "" || len(s) > maxExpr {
		return "", bad("parameter %s=%q: want a condition of 1 to %d bytes, such as 'Ball.Y > 400' (see package inspect/query)", name, trim(s), maxExpr)
	}
	return s, nil
}

func (h *handler) where(q *query) (any, error) {
	if h.opts.Analysis.Where == nil {
		return nil, h.noAnalysis("first-tick-where")
	}
	expr, err := q.expr("expr")
	if err != nil {
		return nil, err
	}
	until, err := q.until()
	if err != nil {
		return nil, err
	}
	ans, err := h.opts.Analysis.Where(expr, until)
	if err != nil {
		return nil, bad("%v", err)
	}
	return ans, nil
}

// writeTest writes a file, so it answers POST only: a link or a page
// prefetch cannot write one.
func (h *handler) writeTest(q *query) (any, error) {
	if h.opts.Analysis.WriteTest == nil {
		return nil, h.noAnalysis("write-a-test")
	}
	if q.r.Method != http.MethodPost {
		return nil, &apiError{http.StatusMethodNotAllowed, "inspect: /api/write-test writes a file: send it as POST"}
	}
	expect, err := q.expr("expect")
	if err != nil {
		return nil, err
	}
	ticks, err := q.uint("ticks", 0, uint64(q.rep.Ticks()))
	if err != nil {
		return nil, err
	}
	if ticks == 0 {
		return nil, bad("parameter ticks: want the number of updates the test replays before its check, 1 to %d", q.rep.Ticks())
	}
	file := q.str("file")
	if !strings.HasSuffix(file, "_test.go") || strings.ContainsAny(file, "/\\") || strings.HasPrefix(file, ".") {
		return nil, bad("parameter file=%q: want a file name ending in _test.go, without a directory (it goes into the game's package)", trim(file))
	}
	ans, err := h.opts.Analysis.WriteTest(file, ticks, expect)
	if err != nil {
		return nil, bad("%v", err)
	}
	return ans, nil
}

func (h *handler) compare(q *query) (any, error) {
	if h.opts.Analysis.Compare == nil {
		return nil, missing("no second recording to compare with: start the inspector with --compare B")
	}
	if h.compared == nil {
		ans, err := h.opts.Analysis.Compare()
		if err != nil {
			return nil, bad("%v", err)
		}
		h.compared = &ans
	}
	return map[string]any{"a": h.opts.Name, "b": h.opts.Analysis.CompareName, "answer": h.compared}, nil
}
