#!/bin/bash
# Measures what --inspect with no page open costs a match's host: the
# duel's host plays 600 headless ticks against a joiner over loopback,
# without recording, with --record and with --inspect, in turns, ROUNDS
# times (default 3), and each run prints the host's CPU time (user +
# system seconds) and the confirmed line it ended on.
set -eu
cd "$(dirname "$0")/.."
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
bin=$dir/duel
go build -o "$bin" ./examples/duel
common="--headless --ticks 600 --set audio.enabled=false --set net.join_timeout=30s"
run() {
	local mode=$1 extra=""
	case $mode in
	record) extra="--record $dir/host.rec" ;;
	inspect) extra="--inspect 127.0.0.1:0" ;;
	esac
	: >"$dir/out"
	/usr/bin/time -f "%U %S" -o "$dir/time" "$bin" $common --host 127.0.0.1:0 --bot 1 $extra >"$dir/out" 2>/dev/null &
	local tpid=$!
	for _ in $(seq 300); do grep -q -- "--token" "$dir/out" && break; sleep 0.1; done
	"$bin" $common $(grep -o -- "--join [^ ]* --token [^ ]*" "$dir/out") --bot 2 >/dev/null 2>&1
	if [ "$mode" = inspect ]; then # the inspector serves on after the match until stopped
		for _ in $(seq 300); do grep -q "the game ended" "$dir/out" && break; sleep 0.1; done
		pkill -INT -P "$tpid"
	fi
	wait "$tpid" || true
	echo "$mode: host CPU $(awk '{print $1+$2}' "$dir/time") s, $(grep -o 'confirmed tick.*' "$dir/out")"
}
for _ in $(seq "${ROUNDS:-3}"); do
	for mode in none record inspect; do run $mode; done
done
