#!/bin/sh
# wasmsize.sh prints the README's table of browser build sizes: each game
# built as cmd/webgame ships it (GOOS=js GOARCH=wasm, -trimpath, stripped
# with -ldflags='-s -w'), raw and compressed with gzip -9, and which
# network code the linker kept: quic-go, crypto/tls, and net's sockets
# (a game may import a package whose transport it never lists: the
# linker's -dumpdep says what is reached, go list only what is imported).
#
#	scripts/wasmsize.sh
set -eu
cd "$(dirname "$0")/.."
root=$(pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

go run ./cmd/newgame -replace "$root" "$tmp/scaffold" >/dev/null
go run ./cmd/newgame -players 2 -replace "$root" "$tmp/netscaffold" >/dev/null

mb() { awk -v n="$1" 'BEGIN { printf "%.2f MB", n / 1e6 }'; }

# reached prints the names of the network code the dump of reached
# symbols in $1 holds, or "none".
reached() {
	kept=""
	grep -q ' -> github.com/quic-go/quic-go\.' "$1" && kept="quic-go"
	grep -q ' -> crypto/tls\.' "$1" && kept="$kept${kept:+, }crypto/tls"
	grep -q ' -> net\.(\*netFD)' "$1" && kept="$kept${kept:+, }net sockets"
	echo "${kept:-none}"
}

row() {
	(cd "$2" && GOOS=js GOARCH=wasm go build -trimpath -ldflags='-s -w -dumpdep' -o "$tmp/game.wasm" . 2>"$tmp/dep.txt")
	raw=$(wc -c <"$tmp/game.wasm")
	gz=$(gzip -9 -c "$tmp/game.wasm" | wc -c)
	printf '| %s | %s | %s | %s |\n' "$1" "$(mb "$raw")" "$(mb "$gz")" "$(reached "$tmp/dep.txt")"
}

echo '| game | `.wasm` raw | gzip -9 | network code linked |'
echo '|---|---|---|---|'
row '`examples/breakout`' examples/breakout
row '`cmd/demo`' cmd/demo
row '`examples/duel`' examples/duel
row 'a scaffolded game (`newgame DIR`)' "$tmp/scaffold"
row 'a scaffolded networked game (`newgame -players 2 DIR`)' "$tmp/netscaffold"
