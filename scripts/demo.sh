#!/usr/bin/env bash
# Runs the demo. With a display it opens the window; without one (a server,
# CI) it runs headless under Xvfb for a few seconds and writes a screenshot
# and the timing report. Extra arguments go to the demo.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v go >/dev/null || export PATH="/usr/local/go/bin:$PATH"
mkdir -p bin out
go build -o bin/demo ./cmd/demo

if [ -n "${DISPLAY:-}" ] && [ -z "${CI:-}" ]; then
  exec bin/demo "$@"
fi

echo "demo: no display, running headless under Xvfb for 5 seconds"
xvfb-run -a -s "-screen 0 1920x1080x24 -nolisten tcp" \
  bin/demo --headless --run-for 5s \
    --screenshot out/demo.png --timing-report out/timing-report.json "$@"
echo "demo: screenshot     $(pwd)/out/demo.png"
echo "demo: timing report  $(pwd)/out/timing-report.json"
