// Package query is the condition language of Metronome's replay
// debugger: "the first tick where Ball.Y > 400", "who wrote Ball.X",
// "a test that checks Health.Value <= 0 after tick 437". It parses a
// condition, checks it against a world's registered component types and
// evaluates it entity by entity. It only reads a world; the replays that
// ask it questions are package framework's (FirstWhere, WhoWrote,
// WriteTest and a game's --where, --who-wrote and --write-test flags).
//
// # The language
//
// A condition is about one entity at a time: it holds for the entities
// that have every component it names and whose values make it true.
//
//	Position.Y > 400 && Health.Value <= 0
//	!(Ball.Stuck || Ball.Speed < 2.5)
//	Player.Grounded == false && Player.Velocity.Y > 0
//
// Its parts:
//
//   - A field is Component.Field, with further .Field steps into nested
//     structs. The component is named by its Go type's name (Ball), or
//     with its package (main.Ball) when two packages have one of that
//     name. The field reached must be a number (any integer or float
//     type) or a bool.
//   - Literals: integers (400, -3, 0x1f4, 1_000), decimals (2.5, 1e-3),
//     true and false.
//   - Comparisons: == != < <= > >= between two numbers, == and !=
//     between two bools. Numbers compare as float64 (exact for integers
//     up to 2^53); a constant compared with a float32 field is rounded to
//     float32 first, so the value Go prints for the field compares equal.
//   - Logic: && (before ||), || and !, with parentheses. A bool field
//     is a condition by itself (Health.Dead).
//
// There is no arithmetic and no comparison between two entities. An
// expression is at most [MaxLength] bytes and nests at most [MaxDepth]
// levels.
//
// # Errors
//
// [Parse] reports a [SyntaxError]; [Compile] reports every
// [TypeError] at once. Each names the byte offset, what was wrong and
// what is allowed: the component types the world has, the fields of the
// struct, the types an operator takes.
//
// # Tests from recordings
//
// [TestSource] writes a Go test that replays a recording with
// frameworktest.NewReplay to a tick and checks a condition with
// [Prepare] and [Cond.Eval]: what --write-test puts into a game's
// package. Only native builds write tests: in a browser build TestSource
// checks its spec and says so, and links no template or gofmt code.
package query
