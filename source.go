package metronome

import (
	"embed"
	"io/fs"
)

// simulation is the Go source of every framework package whose code can
// change a world's state or what the simulation is given: the loop, the
// ECS, rollback and its wire, the scheduler and queue, input, geometry,
// assets (text layout) and the configuration. The packages that only draw,
// play sound, open windows or record are left out, as are test helpers.
// A pattern here can only name files of this module, and go:embed cannot
// leave out the _test.go files, so they come along and are skipped when
// hashed.
//
//go:embed assets/*.go assets/internal/ttf/*.go
//go:embed ecs/*.go
//go:embed framework/*.go framework/config/*.go
//go:embed geom/*.go input/*.go option/*.go window/*.go
//go:embed rollback/*.go rollback/netplay/*.go
//go:embed runtime/*.go runtime/work/*.go
//go:embed schedule/*.go timing/*.go
var simulation embed.FS

// Source returns the framework's simulation source as this binary was
// built from it: the same files on every platform, whatever their build
// constraints, since go:embed does not read them. Package framework hashes
// it into a match's identity.
func Source() fs.FS { return simulation }
