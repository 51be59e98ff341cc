#!/usr/bin/env bash
# Runs the shape benchmark: Ebitengine's vector package (antialiased, as
# Metronome always is, and not) against Metronome's shapes and against
# Metronome's sprites of the same covered area, for stroked lines and
# filled circles, 1,000 and 10,000 a frame, each in its own process in an
# 800x600 window with vsync off, one after another on this machine. With
# no DISPLAY it runs under xvfb-run. Prints each result line, then the
# ratios per case (frame time and process CPU time per frame, the
# software rasteriser's threads included; CPU is the steadier on a shared
# machine). FRAMES (default 100) frames are measured after 30 to warm up.
set -euo pipefail
cd "$(dirname "$0")"
if [ -z "${DISPLAY:-}" ]; then
	xvfb-run -a -s "-screen 0 1024x768x24" bash "$0"
	exit
fi
frames=${FRAMES:-100}
BIN=$(mktemp -d)
out=$BIN/results
trap 'rm -rf "$BIN"' EXIT
go build -o "$BIN/ebitenshapes" ./ebitenshapes
go build -o "$BIN/metronomeshapes" ./metronomeshapes
for n in 1000 10000; do
	for kind in lines circles; do
		"$BIN/ebitenshapes" -kind $kind -n $n -frames "$frames" | tee -a "$out"
		"$BIN/ebitenshapes" -kind $kind -n $n -frames "$frames" -aa=false | tee -a "$out"
		"$BIN/metronomeshapes" -kind $kind -n $n -frames "$frames" | tee -a "$out"
		"$BIN/metronomeshapes" -kind ${kind%s}-sprites -n $n -frames "$frames" | tee -a "$out"
	done
done
awk '
{ for (i = 1; i <= NF; i++) { split($i, kv, "="); f[kv[1]] = kv[2] }
  k = f["kind"]; sub(/-sprites$/, "s", k); eng = f["engine"]; if (f["kind"] ~ /sprites$/) eng = "sprites"
  wall[eng, k, f["n"]] = f["frame_ms"]; cpu[eng, k, f["n"]] = f["cpu_ms"] }
END {
  split("1000 10000", ns, " "); split("lines circles", ks, " ")
  for (a = 1; a <= 2; a++) for (b = 1; b <= 2; b++) {
    n = ns[a]; k = ks[b]; m = "metronome"
    printf "%s n=%s: metronome/ebitengine frame %.3f cpu %.3f; metronome/ebitengine-noaa frame %.3f cpu %.3f; shapes/sprites frame %.3f cpu %.3f\n", k, n,
      wall[m,k,n]/wall["ebitengine",k,n], cpu[m,k,n]/cpu["ebitengine",k,n],
      wall[m,k,n]/wall["ebitengine-noaa",k,n], cpu[m,k,n]/cpu["ebitengine-noaa",k,n],
      wall[m,k,n]/wall["sprites",k,n], cpu[m,k,n]/cpu["sprites",k,n]
  }
}' "$out"
