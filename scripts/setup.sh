#!/usr/bin/env bash
# Installs what building and testing Metronome needs on a Debian machine, and
# nothing that is already there: safe to run any number of times.
set -euo pipefail
cd "$(dirname "$0")/.."

# System packages: Xvfb and xdotool for window tests, Mesa for software
# OpenGL, and the X11/GL headers that go-gl/glfw compiles against. For
# sound: the ALSA headers that oto compiles against, and for the device
# tests a PulseAudio server with a null sink (no sound card needed), its
# client tools, and the ALSA plugin that routes ALSA clients to it. For the
# cross-platform checks: MinGW to cross-compile the programs for Windows
# (their cgo half is C), and qemu's user-mode emulator to run the pure
# packages' tests built for arm64. For the browser tests (cmd/webgame):
# Debian's chromium, run headless; for runtime/webplatform's own tests,
# Node.js, which runs GOOS=js test binaries (scripts/cross.sh). For
# scripts/netem.sh: iproute2 (ip netns, veth, tc); netem itself is the
# kernel's (CONFIG_NET_SCH_NETEM, module sch_netem, shipped with Debian's
# kernels), and where a kernel lacks it the script uses cmd/netrelay. For
# the lobby's relay tests: coturn, whose turnserver the tests start
# themselves on the loopback (the package's own service stays stopped).
packages=(
  xvfb xauth xdotool pkg-config gcc
  libgl1-mesa-dev libgl1-mesa-dri libx11-dev libxcursor-dev libxi-dev
  libxinerama-dev libxrandr-dev libxxf86vm-dev
  libasound2-dev pulseaudio pulseaudio-utils libasound2-plugins
  gcc-mingw-w64-x86-64 qemu-user-static
  chromium nodejs
  iproute2
  coturn
  tiled
)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}"
  sudo=""
  if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null; then sudo="sudo"; else
      echo "setup: need root (or sudo) to apt-get install: ${missing[*]}" >&2; exit 1
    fi
  fi
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

if ! command -v go >/dev/null; then
  if [ -x /usr/local/go/bin/go ]; then export PATH="/usr/local/go/bin:$PATH"; else
    echo "setup: Go 1.26 is required (https://go.dev/dl/); go is not in PATH" >&2; exit 1
  fi
fi
go mod download
echo "setup: ok ($(go version | cut -d' ' -f3), packages present)"
