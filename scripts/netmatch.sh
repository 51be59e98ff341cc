#!/usr/bin/env bash
# Two processes of a networked game play a match against each other on the
# loopback, each with seeded random input (--bot), and must end on the same
# confirmed tick with the same world hash (0 desyncs: a desync stops both).
#
#   scripts/netmatch.sh [DURATION] [TRANSPORT] [GAME]
#   SPECTATE=1 scripts/netmatch.sh ...   # and a spectator (--spectate) joins
#                                       # a few seconds in; it must end on the
#                                       # same line
#
# DURATION is game time at 60 ticks a second (default 60s; 10m for the
# soak run), TRANSPORT udp (default) or quic (for a GAME that lists quicnet.Network()
# in its framework.Net, as the duel does), GAME the package
# (default ./examples/duel). Only 127.0.0.1 is used; both processes are
# killed if the match has not ended within twice its duration plus a minute.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v go >/dev/null || export PATH="/usr/local/go/bin:$PATH"
. scripts/netjoin.sh
duration=${1:-60s}
transport=${2:-udp}
game=${3:-./examples/duel}

secs=$(python3 -c "
import re,sys
m=re.fullmatch(r'(\d+)(s|m|h)', sys.argv[1]) or sys.exit('duration: want a number of s, m or h, such as 60s or 10m; got '+sys.argv[1])
print(int(m[1])*{'s':1,'m':60,'h':3600}[m[2]])" "$duration")
ticks=$((secs * 60 + 30)) # a little past the last hash, so both peers have it
limit=$((secs * 2 + 60))

dir=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$dir"' EXIT
go build -o "$dir/game" "$game"
common=(--headless --ticks "$ticks" --set "net.transport=$transport" --set audio.enabled=false --set net.join_timeout=30s)

timeout "$limit" "$dir/game" "${common[@]}" --host 127.0.0.1:0 --bot 1 >"$dir/host.out" 2>"$dir/host.err" &
host=$!
read -r addr token < <(join_line "$dir/host.out" "$host") || {
  echo "netmatch: the host printed no join line:"; cat "$dir/host.out" "$dir/host.err"; exit 1; }

start=$(date +%s)
jrc=0
if [ "${SPECTATE:-0}" = 1 ]; then
  (sleep 3; timeout "$limit" "$dir/game" "${common[@]/--headless/--no-window}" --spectate "$addr" --token "$token" >"$dir/spec.out" 2>"$dir/spec.err") &
  spec=$!
fi
timeout "$limit" "$dir/game" "${common[@]}" --join "$addr" --token "$token" --bot 2 >"$dir/join.out" 2>"$dir/join.err" || jrc=$?
hrc=0
wait "$host" || hrc=$?
if [ $hrc -ne 0 ] || [ $jrc -ne 0 ]; then
  echo "netmatch: host exited $hrc, joiner $jrc"; cat "$dir/host.err" "$dir/join.err"; exit 1
fi
grep -h "^net:" "$dir/host.out" "$dir/join.out" || true
h=$(grep -o 'confirmed tick [0-9]* hash [0-9a-f]*' "$dir/host.out" || true)
j=$(grep -o 'confirmed tick [0-9]* hash [0-9a-f]*' "$dir/join.out" || true)
echo "netmatch: $duration over $transport in $(( $(date +%s) - start )) s: host: $h; joiner: $j"
if [ -z "$h" ] || [ "$h" != "$j" ]; then
  echo "netmatch: the peers end apart"; cat "$dir/host.err" "$dir/join.err"; exit 1
fi
if [ "${SPECTATE:-0}" = 1 ]; then
  src=0
  wait "$spec" || src=$?
  s=$(grep -o 'confirmed tick [0-9]* hash [0-9a-f]*' "$dir/spec.out" || true)
  echo "netmatch: spectator: $s"
  if [ $src -ne 0 ] || [ "$s" != "$h" ]; then
    echo "netmatch: the spectator exited $src and ends apart"; cat "$dir/spec.out" "$dir/spec.err"; exit 1
  fi
fi
