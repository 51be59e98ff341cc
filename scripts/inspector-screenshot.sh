#!/bin/sh
# Retakes docs/inspector.png, the README's picture of the inspector: the
# real page in headless chromium on a Breakout demo recording
# (TestInspectorPage in examples/breakout).
set -eu
cd "$(dirname "$0")/.."
go test ./examples/breakout -run '^TestInspectorPage$' -count=1 -args -inspector-png "$PWD/docs/inspector.png"
