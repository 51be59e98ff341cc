package query

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// MaxLength is the longest expression Parse accepts, in bytes; MaxDepth
// the deepest nesting of parentheses and operators. Both keep a hostile
// query (one typed into a page) from exhausting the stack.
const (
	MaxLength = 4096
	MaxDepth  = 64
)

// Expr is a parsed condition, not yet checked against a game's types
// (see [Compile]).
type Expr struct {
	src  string
	root node
}

// String returns the expression as it was written.
func (e *Expr) String() string { return e.src }

// node is one node of the syntax tree.
type node interface{ pos() int }

type (
	// binary is a && b, a || b or a comparison.
	binary struct {
		at   int
		op   string
		l, r node
	}
	// not is !x.
	not struct {
		at int
		x  node
	}
	// number is a numeric literal, negated when written with a minus.
	number struct {
		at  int
		val float64
		txt string
	}
	// boolean is true or false.
	boolean struct {
		at  int
		val bool
	}
	// fieldRef is Component.Field.Sub...
	fieldRef struct {
		at   int
		path []string
	}
)

func (n *binary) pos() int   { return n.at }
func (n *not) pos() int      { return n.at }
func (n *number) pos() int   { return n.at }
func (n *boolean) pos() int  { return n.at }
func (n *fieldRef) pos() int { return n.at }

// SyntaxError is a parse failure: where (a byte offset into the
// expression) and what was wrong.
type SyntaxError struct {
	Expr string
	Pos  int
	Msg  string
}

func (e *SyntaxError) Error() string {
	return fmt.Sprintf("query: %q at byte %d: %s", e.Expr, e.Pos, e.Msg)
}

// Parse reads a condition written in the language the package doc
// describes. It checks the syntax only; [Compile] checks the names and
// types against a world's components.
func Parse(src string) (*Expr, error) {
	if len(src) > MaxLength {
		return nil, &SyntaxError{Expr: src[:32] + "...", Pos: MaxLength, Msg: fmt.Sprintf("the expression is %d bytes long; at most %d are allowed", len(src), MaxLength)}
	}
	if !utf8.ValidString(src) {
		return nil, &SyntaxError{Expr: src, Msg: "the expression is not valid UTF-8"}
	}
	p := &parser{src: src}
	if err := p.lex(); err != nil {
		return nil, err
	}
	root, err := p.or(0)
	if err != nil {
		return nil, err
	}
	if t := p.peek(); t.kind != tEOF {
		return nil, p.fail(t.at, fmt.Sprintf("unexpected %s after a complete expression; join conditions with && or ||", t))
	}
	return &Expr{src: src, root: root}, nil
}

type tokKind uint8

const (
	tEOF tokKind = iota
	tIdent
	tNumber
	tOp // && || ! == != < <= > >= ( ) . -
)

type tok struct {
	kind tokKind
	at   int
	text string
}

func (t tok) String() string {
	if t.kind == tEOF {
		return "end of expression"
	}
	return strconv.Quote(t.text)
}

type parser struct {
	src  string
	toks []tok
	i    int
}

func (p *parser) fail(at int, msg string) error { return &SyntaxError{Expr: p.src, Pos: at, Msg: msg} }

// ops are the operators, longest first so that <= wins over <.
var ops = []string{"&&", "||", "==", "!=", "<=", ">=", "<", ">", "!", "(", ")", ".", "-"}

func (p *parser) lex() error {
	s := p.src
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case unicode.IsSpace(r):
			i += size
		case r == '_' || unicode.IsLetter(r):
			j := i
			for j < len(s) {
				r, size := utf8.DecodeRuneInString(s[j:])
				if r != '_' && !unicode.IsLetter(r) && !unicode.IsDigit(r) {
					break
				}
				j += size
			}
			p.toks = append(p.toks, tok{tIdent, i, s[i:j]})
			i = j
		case r >= '0' && r <= '9':
			j := i
			for j < len(s) && (isNumByte(s[j]) || (s[j] == '-' || s[j] == '+') && (s[j-1] == 'e' || s[j-1] == 'E')) {
				j++
			}
			p.toks = append(p.toks, tok{tNumber, i, s[i:j]})
			i = j
		default:
			op := ""
			for _, o := range ops {
				if strings.HasPrefix(s[i:], o) {
					op = o
					break
				}
			}
			if op == "" {
				return p.fail(i, fmt.Sprintf("unexpected character %q; allowed are names, numbers, true, false, parentheses and the operators && || ! == != < <= > >=", r))
			}
			p.toks = append(p.toks, tok{tOp, i, op})
			i += len(op)
		}
	}
	p.toks = append(p.toks, tok{tEOF, len(s), ""})
	return nil
}

func isNumByte(c byte) bool {
	return c >= '0' && c <= '9' || c == '.' || c == 'e' || c == 'E' || c == '_' || c == 'x' || c == 'X' ||
		c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

func (p *parser) peek() tok { return p.toks[p.i] }

func (p *parser) next() tok {
	t := p.toks[p.i]
	if t.kind != tEOF {
		p.i++
	}
	return t
}

func (p *parser) accept(op string) bool {
	if t := p.peek(); t.kind == tOp && t.text == op {
		p.i++
		return true
	}
	return false
}

func (p *parser) deeper(depth int) error {
	if depth >= MaxDepth {
		return p.fail(p.peek().at, fmt.Sprintf("the expression nests deeper than %d levels", MaxDepth))
	}
	return nil
}

func (p *parser) or(depth int) (node, error) {
	if err := p.deeper(depth); err != nil {
		return nil, err
	}
	l, err := p.and(depth + 1)
	if err != nil {
		return nil, err
	}
	for {
		at := p.peek().at
		if !p.accept("||") {
			return l, nil
		}
		r, err := p.and(depth + 1)
		if err != nil {
			return nil, err
		}
		l = &binary{at: at, op: "||", l: l, r: r}
	}
}

func (p *parser) and(depth int) (node, error) {
	l, err := p.unary(depth + 1)
	if err != nil {
		return nil, err
	}
	for {
		at := p.peek().at
		if !p.accept("&&") {
			return l, nil
		}
		r, err := p.unary(depth + 1)
		if err != nil {
			return nil, err
		}
		l = &binary{at: at, op: "&&", l: l, r: r}
	}
}

func (p *parser) unary(depth int) (node, error) {
	if err := p.deeper(depth); err != nil {
		return nil, err
	}
	at := p.peek().at
	if p.accept("!") {
		x, err := p.unary(depth + 1)
		if err != nil {
			return nil, err
		}
		return &not{at: at, x: x}, nil
	}
	return p.comparison(depth + 1)
}

var comparisons = []string{"==", "!=", "<", "<=", ">", ">="}

func (p *parser) comparison(depth int) (node, error) {
	l, err := p.operand(depth + 1)
	if err != nil {
		return nil, err
	}
	t := p.peek()
	if t.kind != tOp {
		return l, nil
	}
	for _, c := range comparisons {
		if t.text == c {
			p.next()
			r, err := p.operand(depth + 1)
			if err != nil {
				return nil, err
			}
			return &binary{at: t.at, op: c, l: l, r: r}, nil
		}
	}
	return l, nil
}

func (p *parser) operand(depth int) (node, error) {
	if err := p.deeper(depth); err != nil {
		return nil, err
	}
	t := p.next()
	switch {
	case t.kind == tOp && t.text == "(":
		x, err := p.or(depth + 1)
		if err != nil {
			return nil, err
		}
		if c := p.peek(); !p.accept(")") {
			return nil, p.fail(c.at, fmt.Sprintf("expected \")\" to close the \"(\" at byte %d, found %s", t.at, c))
		}
		return x, nil
	case t.kind == tOp && t.text == "-":
		n := p.next()
		if n.kind != tNumber {
			return nil, p.fail(n.at, fmt.Sprintf("a minus sign goes before a number, found %s", n))
		}
		v, err := parseNumber(n.text)
		if err != nil {
			return nil, p.fail(n.at, err.Error())
		}
		return &number{at: t.at, val: -v, txt: "-" + n.text}, nil
	case t.kind == tNumber:
		v, err := parseNumber(t.text)
		if err != nil {
			return nil, p.fail(t.at, err.Error())
		}
		return &number{at: t.at, val: v, txt: t.text}, nil
	case t.kind == tIdent && (t.text == "true" || t.text == "false"):
		return &boolean{at: t.at, val: t.text == "true"}, nil
	case t.kind == tIdent:
		path := []string{t.text}
		for p.accept(".") {
			n := p.next()
			if n.kind != tIdent {
				return nil, p.fail(n.at, fmt.Sprintf("expected a field name after \".\", found %s", n))
			}
			path = append(path, n.text)
		}
		if len(path) < 2 {
			return nil, p.fail(t.at, fmt.Sprintf("%q is a bare name; name a field of a component as Component.Field (such as Health.Value)", t.text))
		}
		return &fieldRef{at: t.at, path: path}, nil
	}
	return nil, p.fail(t.at, fmt.Sprintf("expected a field (Component.Field), a number, true, false, \"!\" or \"(\", found %s", t))
}

func parseNumber(s string) (float64, error) {
	if v, err := strconv.ParseInt(s, 0, 64); err == nil {
		return float64(v), nil
	}
	if v, err := strconv.ParseUint(s, 0, 64); err == nil {
		return float64(v), nil
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return 0, fmt.Errorf("%q is not a number (write integers like 400 or 0x10, decimals like 2.5 or 1e-3)", s)
	}
	return v, nil
}
