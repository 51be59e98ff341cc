#!/bin/sh
# wasmsize.sh prints the README's table of browser build sizes: each game
# built as cmd/webgame ships it (GOOS=js GOARCH=wasm, -trimpath, stripped
# with -ldflags='-s -w'), raw and compressed with gzip -9, and whether it
# links quic-go or crypto/tls.
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

row() {
	(cd "$2" && GOOS=js GOARCH=wasm go build -trimpath -ldflags='-s -w' -o "$tmp/game.wasm" .)
	raw=$(wc -c <"$tmp/game.wasm")
	gz=$(gzip -9 -c "$tmp/game.wasm" | wc -c)
	deps=$(cd "$2" && GOOS=js GOARCH=wasm go list -deps . | grep -E '^(github.com/quic-go/quic-go|crypto/tls)$' | tr '\n' ' ' | sed 's/ $//' || true)
	printf '| %s | %s | %s | %s |\n' "$1" "$(mb "$raw")" "$(mb "$gz")" "${deps:-neither}"
}

echo '| game | `.wasm` raw | gzip -9 | links quic-go, crypto/tls |'
echo '|---|---|---|---|'
row '`examples/breakout`' examples/breakout
row '`cmd/demo`' cmd/demo
row '`examples/duel`' examples/duel
row 'a scaffolded game (`newgame DIR`)' "$tmp/scaffold"
row 'a scaffolded networked game (`newgame -players 2 DIR`)' "$tmp/netscaffold"
