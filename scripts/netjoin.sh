# Sourced by the scripts that start a networked game's host and join it
# (netmatch.sh, netem.sh, hostpercore.sh); not run on its own.

# join_line OUT [PID] waits up to 30 s for a host, whose standard output
# goes to the file OUT, to print its join command, and prints "ADDR TOKEN"
# from it. With PID, it stops waiting when that process has exited. It
# prints nothing when the host printed no join command, so that
#   read -r addr token < <(join_line "$out" "$pid") || ...
# fails.
join_line() {
  local out=$1 pid=${2:-}
  for _ in $(seq 300); do
    grep -q -- '--token' "$out" 2>/dev/null && break
    [ -z "$pid" ] || kill -0 "$pid" 2>/dev/null || break
    sleep 0.1
  done
  grep -o -- '--join [^ ]* --token [^ ]*' "$out" 2>/dev/null | awk '{print $2, $4}'
}
