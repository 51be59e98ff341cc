#!/usr/bin/env bash
# The cross-platform checks, run by scripts/test.sh (and alone: scripts/cross.sh).
# Games ship for Windows and macOS as well as Linux; this machine is Linux,
# so what it can prove it proves here:
#
#   1. no file built for Windows or macOS uses a name only Linux, X11 or
#      Unix has (a source check: it also covers the cgo packages, which
#      cannot be vetted for macOS without Apple's SDK);
#   2. go vet for windows and darwin, amd64 and arm64, over every package
#      that needs no cgo there (CGO_ENABLED=0), and for windows/amd64 over
#      all of them with MinGW as the C compiler;
#   3. Windows executables of the demo, every example and a freshly
#      scaffolded game (vetted for Windows too), built with MinGW into
#      out/windows/ (sizes printed);
#   4. the pure packages' tests built for linux/arm64 and run under
#      qemu-user-static (binfmt need not be registered: -exec runs them),
#      all but the allocation tests. Among them ecs's
#      TestReplayAcrossMachines replays a session recorded on amd64 to the
#      same world hashes, where arm64's fused multiply-adds would break it;
#   5. the same replay built for GOAMD64=v3, which fuses them on amd64
#      too, when this CPU can run it;
#   6. the browser build (GOOS=js GOARCH=wasm): go vet over every package
#      whose tests build there, and every example and the demo built, with
#      no cgo and no GLFW linked (the browser tests themselves are
#      cmd/webgame's, in the race step of scripts/test.sh).
#
# What needs a Windows or macOS machine (running those executables, macOS
# cgo builds) is out of reach here; README.md says how to build on each.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v go >/dev/null || export PATH="/usr/local/go/bin:$PATH"
step() { printf '\n== %s\n' "$*"; }
mingw=x86_64-w64-mingw32-gcc

step "cross: no Linux-, X11- or Unix-only name in a file built for Windows or macOS"
# Names that exist only on Linux or only with X11 (GLFW's X11 accessors,
# libX11, the X test tools, Linux system calls and their constants) ...
linux_only='GetX11|X11Window|X11/X|-lX11|\.X11-unix|/internal/xclose"|/internal/xwin"|xclose\.|xwin\.|xdotool|Pdeathsig|PR_SET_|PR_GET_|Prctl|SYS_FUTEX|SYS_PRCTL|ClockNanosleep|TIMER_ABSTIME|RUSAGE_THREAD|Gettid\('
# ... and names every Unix has but Windows lacks.
unix_only='syscall\.(Getrusage|Rusage|RUSAGE_|SIGSTOP|SIGCONT|Setpriority|Getpriority|Kill\()|"golang\.org/x/sys/unix"'
bad=0
for os in windows darwin; do
  names=$linux_only
  [ "$os" = windows ] && names="$linux_only|$unix_only"
  # Every Go file the go command would compile for $os (with cgo, so cgo
  # files count too), tests included, in this module and in bench/'s.
  mapfile -t files < <(for m in . bench; do (cd "$m" && GOOS=$os CGO_ENABLED=1 go list -e -f \
    '{{$d := .Dir}}{{range .GoFiles}}{{$d}}/{{.}}{{"\n"}}{{end}}{{range .CgoFiles}}{{$d}}/{{.}}{{"\n"}}{{end}}{{range .TestGoFiles}}{{$d}}/{{.}}{{"\n"}}{{end}}{{range .XTestGoFiles}}{{$d}}/{{.}}{{"\n"}}{{end}}' \
    ./...); done | sed '/^$/d')
  # Comment lines are prose; a cgo preamble is a block comment and counts.
  hits=$(grep -nE "$names" "${files[@]}" | grep -vE '^[^:]+:[0-9]+:[[:space:]]*//' || true)
  if [ -n "$hits" ]; then
    echo "built for $os but uses a name $os does not have (move it to a _linux.go or _unix.go file with its pair):"
    echo "$hits" | sed "s|^$(pwd)/|  |"
    bad=1
  fi
  echo "$os: ${#files[@]} files checked"
done
[ $bad -eq 0 ] || exit 1

# needs_cgo prints the packages that link C code for $1/$2 (theirs or a
# dependency's, tests included): they cannot be vetted without that
# system's C toolchain.
needs_cgo() {
  local os=$1 arch=$2
  mapfile -t cgo < <(GOOS=$os GOARCH=$arch CGO_ENABLED=1 go list -e -deps -test \
    -f '{{if and (not .Standard) .CgoFiles}}{{.ImportPath}}{{end}}' ./... | sed '/^$/d' | sort -u)
  [ ${#cgo[@]} -gt 0 ] || return 0
  GOOS=$os GOARCH=$arch CGO_ENABLED=1 go list -e -test -f '{{.ImportPath}} {{join .Deps " "}}' ./... |
    awk -v list="${cgo[*]}" 'BEGIN { n = split(list, c, " "); for (i = 1; i <= n; i++) cg[c[i]] = 1 }
      { p = $1; sub(/ \[.*$/, "", p); sub(/\.test$/, "", p); sub(/_test$/, "", p)
        if (cg[p]) { print p; next }
        for (i = 2; i <= NF; i++) if (cg[$i]) { print p; next } }' | sort -u
}

step "cross: go vet for windows and darwin, amd64 and arm64"
mapfile -t all < <(go list ./...)
for os in windows darwin; do
  for arch in amd64 arm64; do
    mapfile -t skip < <(needs_cgo "$os" "$arch")
    mapfile -t pkgs < <(printf '%s\n' "${all[@]}" | grep -vxF -f <(printf '%s\n' "${skip[@]}" '-'))
    GOOS=$os GOARCH=$arch CGO_ENABLED=0 go vet "${pkgs[@]}"
    echo "$os/$arch: ${#pkgs[@]} packages vetted without cgo; ${#skip[@]} need $os's C toolchain"
  done
done
GOOS=windows GOARCH=amd64 CGO_ENABLED=1 CC=$mingw go vet ./...
echo "windows/amd64: all ${#all[@]} packages vetted with cgo (MinGW)"

step "cross: Windows executables with MinGW"
out=$(pwd)/out/windows
rm -rf "$out" && mkdir -p "$out"
win() { GOOS=windows GOARCH=amd64 CGO_ENABLED=1 CC=$mingw go build "$@"; }
win -o "$out/" ./cmd/demo ./examples/...
# A scaffolded game, built against this checkout offline, as a player
# would get it.
game=$(mktemp -d)
trap 'rm -rf "$game"' EXIT
go run ./cmd/newgame -replace "$(pwd)" "$game/scaffolded" >/dev/null
(
  cd "$game/scaffolded"
  export GOFLAGS=-mod=mod GOPROXY=off
  GOOS=windows GOARCH=amd64 CGO_ENABLED=1 CC=$mingw go vet ./...
  win -o "$out/scaffolded.exe" .
)
for f in "$out"/*.exe; do
  # A PE file starts with "MZ"; its COFF header's machine field is 0x8664.
  magic=$(head -c 2 "$f")
  machine=$(od -An -tx2 -j $(($(od -An -tu4 -j 60 -N 4 "$f") + 4)) -N 2 "$f" | tr -d ' ')
  if [ "$magic" != MZ ] || [ "$machine" != 8664 ]; then echo "$f is not a Windows x86-64 executable"; exit 1; fi
  printf '  %-28s %6.1f MB\n' "${f#"$(pwd)/"}" "$(stat -c %s "$f" | awk '{ print $1 / 1048576 }')"
done

step "cross: pure packages' tests for linux/arm64 under qemu"
mapfile -t pure < <(scripts/pure-packages.sh)
# The allocation tests are left to the native run: under emulation the Go
# runtime's own caches miss more often (a sudog for a channel wait), and
# runtime's allocation probe, which goes by call stack, charges that to the
# module's frame that waited.
# A test that starts its own binary again (lobbyload's workers) runs it
# through the emulator named in METRONOME_TEST_EXEC.
METRONOME_TEST_EXEC=qemu-aarch64-static GOARCH=arm64 CGO_ENABLED=0 go test -count=1 -skip Alloc -exec qemu-aarch64-static "${pure[@]}"

step "cross: the amd64 recording replayed by a GOAMD64=v3 build (fused multiply-adds)"
if grep -qw fma /proc/cpuinfo && grep -qw avx2 /proc/cpuinfo; then
  GOAMD64=v3 CGO_ENABLED=0 go test -count=1 -run TestReplayAcrossMachines ./ecs
else
  echo "skipped: this CPU cannot run GOAMD64=v3 code"
fi

step "cross: the browser build (js/wasm)"
# Every package whose tests build for js (the GL and GLFW packages, and
# those whose tests open a desktop window, do not), then the programs.
mapfile -t web < <(GOOS=js GOARCH=wasm go list -e -test -f '{{.ImportPath}} {{join .Deps " "}} {{if or .Error .DepsErrors}}BAD{{end}}' ./... |
  awk '$1 !~ /\.test$/ { p = $1; sub(/_test$/, "", p); if ($NF == "BAD" || / github\.com\/go-gl\/gl/) bad[p] = 1; else ok[p] = 1 }
    END { for (p in ok) if (!bad[p]) print p }' | sort)
GOOS=js GOARCH=wasm CGO_ENABLED=0 go vet "${web[@]}"
GOOS=js GOARCH=wasm CGO_ENABLED=0 go build -o /dev/null ./framework ./runtime/webplatform ./render2d/glrender
for prog in ./examples/* ./cmd/demo; do
  GOOS=js GOARCH=wasm CGO_ENABLED=0 go build -o /dev/null "$prog"
  if GOOS=js GOARCH=wasm go list -deps "$prog" | grep -qE 'go-gl/(gl|glfw)/|runtime/cgo'; then
    echo "$prog links GL, GLFW or cgo in its browser build"; exit 1
  fi
done
# The web platform's own tests (the gamepad's records and allocations) run
# under Node.js with a fake navigator; the page-level ones are cmd/webgame's.
if command -v node >/dev/null; then
  PATH="$(go env GOROOT)/lib/wasm:$PATH" GOOS=js GOARCH=wasm CGO_ENABLED=0 go test -count=1 ./runtime/webplatform
elif [ "${CI:-}" = true ]; then
  echo "CI=true and no node on PATH (scripts/setup.sh installs nodejs) for runtime/webplatform's tests"; exit 1
else
  echo "no node on PATH: runtime/webplatform's tests skipped"
fi
echo "js/wasm: ${#web[@]} packages vetted; the examples and the demo build for the browser"
echo "cross: done in ${SECONDS}s"
