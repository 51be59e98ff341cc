#!/usr/bin/env bash
# How many matches one core serves at 60 Hz: N dedicated hosts of a
# networked game (--dedicated) run pinned to core 0 (taskset -c 0), each
# with its players as --no-window --bot joiners pinned to core 1, for
# SECONDS of real time, for N = 1, 2, 4, ... up to MAXN, until a host
# misses its 60 Hz: its ticks fall behind real time by more than half a
# second at the end (a host that keeps up stays a few ticks behind, what
# its first updates held while the joiners started; one that does not
# falls further behind every second). It prints one line per N and a last
# line with the largest N that held and the CPU one host takes per match.
#
#   scripts/hostpercore.sh [SECONDS] [MAXN] [GAME]
#
# SECONDS defaults to 30, MAXN to 64, GAME to ./examples/duel; the
# environment's JOINER_CPUS (default 1) lists the cores the joiners run on
# (taskset -c), "1-7" on a larger machine, so that they are not the limit.
# Only
# 127.0.0.1 is used; every process is killed when the script ends. Not
# part of make test: it needs two cores and takes a minute or more. On a
# shared machine other work on core 0 takes from the hosts; the CPU per
# match (user + system time of each host process over its real time) is
# the figure that does not depend on it. When the joiners are what fell
# behind (core 1 is full before core 0 is), the line says so and the limit
# found is the joiners', not the hosts'.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v go >/dev/null || export PATH="/usr/local/go/bin:$PATH"
. scripts/netjoin.sh
secs=${1:-30}
maxn=${2:-64}
game=${3:-./examples/duel}
joiner_cpus=${JOINER_CPUS:-1}
[ "$(nproc)" -ge 2 ] || { echo "hostpercore: needs two cores (hosts on 0, joiners on 1); have $(nproc)"; exit 1; }

dir=$(mktemp -d /tmp/hostpercore.XXXX)
trap 'kill $(jobs -p) 2>/dev/null || true; [ -n "${HOSTPERCORE_KEEP:-}" ] || rm -rf "$dir"' EXIT
go build -o "$dir/game" "$game"
common=(--set net.join_timeout=60s --set audio.enabled=false)
players=$("$dir/game" --print-config | awk -F'[ =]+' '/^\[net\]/{t=1} t && $1=="players"{print $2; exit}')
players=${players:-2}

# round N: prints "ok|host CPU_MS_PER_S_PER_HOST LARGEST_HOST_LAG_TICKS CPU_MS_PER_S_ALL_HOSTS
# LARGEST_JOINER_LAG_TICKS JOINER_CPU_MS_PER_S" (a joiner's ticks up to its
# host's end; its CPU over its whole run)
round() {
  local n=$1 i p
  rm -f "$dir"/h* "$dir"/j*
  for i in $(seq "$n"); do
    timeout $((secs + 90)) taskset -c 0 /usr/bin/time -f '%U %S %e' -o "$dir/h$i.time" \
      "$dir/game" "${common[@]}" --dedicated --host 127.0.0.1:0 --run-for "${secs}s" >"$dir/h$i.out" 2>"$dir/h$i.err" &
  done
  for i in $(seq "$n"); do
    local addr="" token=""
    read -r addr token < <(join_line "$dir/h$i.out") || {
      echo "hostpercore: host $i printed no join line:"; cat "$dir/h$i.out" "$dir/h$i.err"; exit 1; }
    for p in $(seq "$players"); do
      # The joiners outlast the host: its end (a peer left) ends theirs.
      timeout $((secs + 90)) taskset -c "$joiner_cpus" /usr/bin/time -f '%U %S %e' -o "$dir/j$i-$p.time" "$dir/game" "${common[@]}" --no-window --join "$addr" --token "$token" \
        --bot $((i * 10 + p)) --run-for "$((secs + 30))s" >"$dir/j$i-$p.out" 2>"$dir/j$i-$p.err" &
    done
  done
  wait || true
  python3 - "$dir" "$n" "$secs" <<'PY'
import glob, re, sys
d, n, secs = sys.argv[1], int(sys.argv[2]), float(sys.argv[3])
def lag(path):
    m = re.search(r'net: (\d+) ticks in', open(path).read())
    return 60 * secs - int(m[1]) if m else 60 * secs
hosts = [lag(f'{d}/h{i}.out') for i in range(1, n + 1)]
joins = [lag(p) for p in glob.glob(f'{d}/j*.out')]
cpu = []
for i in range(1, n + 1):
    u, s, e = map(float, open(f'{d}/h{i}.time').read().split()[-3:])
    cpu.append((u + s) / secs * 1000)
# A joiner's CPU a second of the match, the baseline: a player's side of
# the same match, which simulates as the host does and predicts one player.
jcpu = []
for p in glob.glob(f'{d}/j*.time'):
    u, s, e = map(float, open(p).read().split()[-3:])
    jcpu.append((u + s) / secs * 1000)
verdict = 'ok' if max(hosts) <= 30 else 'host'
print(verdict, f'{sum(cpu) / len(cpu):.1f}', max(hosts), f'{sum(cpu):.0f}', max(joins, default=-1), f'{sum(jcpu) / max(len(jcpu), 1):.1f}')
PY
}

held=0 heldcpu=""
n=1
while [ "$n" -le "$maxn" ]; do
  read -r verdict cpu hlag total jlag jcpu < <(round "$n")
  echo "hostpercore: $n matches: the slowest host $hlag ticks behind real time after ${secs} s (joiner $jlag), each host ${cpu} ms of CPU a second (all ${total}), each player ${jcpu}"
  if [ "$verdict" != ok ]; then
    why="a host fell behind real time (its joiners on cores $joiner_cpus may be what held it back: a host waits for their inputs)"
    echo "hostpercore: $held matches per core held 60 Hz (${heldcpu} ms of CPU a second per match, $(python3 -c "print(f'{1000/${heldcpu:-1e9}:.0f}')") matches a core by CPU); $n did not: $why"
    exit 0
  fi
  held=$n heldcpu=$cpu
  n=$((n * 2))
done
echo "hostpercore: $held matches per core held 60 Hz (${heldcpu} ms of CPU a second per match, $(python3 -c "print(f'{1000/${heldcpu}:.0f}')") matches a core by CPU); MAXN $maxn reached"
