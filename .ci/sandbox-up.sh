#!/usr/bin/env bash
# Makes the sandbox backends ready for the tests: installs what is missing, starts dockerd unless one already
# answers, and builds the default sandbox image. Idempotent. Run after `npm ci` (it uses the built CLI).
# A dockerd it starts is recorded in $STATE/dockerd.pid, so that sandbox-down.sh stops only that one.
set -euo pipefail
cd "$(dirname "$0")/.."
# Short on purpose: unix sockets under it must stay within 108 bytes.
STATE=${STATE:-$PWD/.ci/state}
mkdir -p "$STATE"
export DEBIAN_FRONTEND=noninteractive

# Command -> Debian package; only missing ones are installed.
need=()
for pair in bwrap:bubblewrap dockerd:docker.io socat:socat busybox:busybox-static openssl:openssl; do
  command -v "${pair%%:*}" >/dev/null || need+=("${pair#*:}")
done
if ((${#need[@]})); then
  timeout 300 apt-get update -q
  timeout 600 apt-get install -y -q --no-install-recommends "${need[@]}"
fi

daemon_answers() { timeout 5 docker version >/dev/null 2>&1; }

# No service manager here starts dockerd (apt's policy-rc.d forbids it), so it is started by hand. Without
# --iptables=false --ip-forward=false --bridge=none it would leave NAT rules, ip_forward=1 and docker0 behind
# on this reused machine; containers run with --network none anyway.
if ! daemon_answers; then
  # A pid file left by a killed dockerd makes the next one refuse to start; keep it only if its dockerd lives.
  if [ -f /var/run/docker.pid ] && [ "$(cat "/proc/$(cat /var/run/docker.pid)/comm" 2>/dev/null)" != dockerd ]; then
    rm -f /var/run/docker.pid
  fi
  setsid dockerd --storage-driver=overlay2 --iptables=false --ip-forward=false --bridge=none \
    > "$STATE/dockerd.log" 2>&1 < /dev/null &
  echo $! > "$STATE/dockerd.pid"
  for _ in $(seq 1 150); do daemon_answers && break; sleep 0.2; done
  daemon_answers || { echo "dockerd did not answer; the end of $STATE/dockerd.log:" >&2; tail -20 "$STATE/dockerd.log" >&2; exit 1; }
fi

[ -f dist/bundle/wave.cjs ] || { echo 'dist/ is not built: run npm ci (or npm run build) first' >&2; exit 1; }
node bin/wave.cjs sandbox image
