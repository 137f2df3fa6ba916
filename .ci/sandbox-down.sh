#!/usr/bin/env bash
# Stops the dockerd that sandbox-up.sh started, by the PID it recorded, and nothing else. Always exits 0.
cd "$(dirname "$0")/.."
STATE=${STATE:-$PWD/.ci/state}
file="$STATE/dockerd.pid"
[ -f "$file" ] || exit 0
pid=$(cat "$file")
# Running, and still a dockerd: after a reboot the recorded PID may belong to another program.
ours() { [ "$(cat "/proc/$pid/comm" 2>/dev/null)" = dockerd ] && [ "$(sed -E 's/^.*\) (.).*/\1/' "/proc/$pid/stat" 2>/dev/null)" != Z ]; }
if ours; then
  # SIGTERM lets dockerd stop its containerd and containers (about 3 s); SIGKILL after 10 s.
  kill "$pid" 2>/dev/null
  for _ in $(seq 1 100); do ours || break; sleep 0.1; done
  ours && kill -9 "$pid" 2>/dev/null
fi
rm -f "$file"
exit 0
