#!/usr/bin/env bash
# Prints the pure packages: everything but the platform edge. A package is
# platform code when a path element starts with "gl" (glrender, glfwinput,
# glfwplatform, ...), when it is the framework package itself (which opens
# the window) or its test kit, the oto sound device, or a program: under
# cmd/ or examples/.
set -euo pipefail
cd "$(dirname "$0")/.."
mod=$(go list -m)
go list ./... | grep -vE "^${mod}/(framework(/frameworktest)?|cmd(/.*)?|examples(/.*)?|audio/otoaudio)$" | grep -vE '/gl[^/]*(/|$)'
