#!/usr/bin/env bash
# CI's own Docker engine (plain dockerd: its own socket, exec root and data root, no iptables), for the
# Docker driver's tests: `start` (a no-op when it answers), `stop` (waits until it is gone). The tests
# restart it mid-operation through this script (SLG_TEST_DOCKERD_CONTROL). The data root persists, so
# the base image is built once and reused by later runs.
set -euo pipefail
SOCKET="${SLG_CI_DOCKER_SOCKET:-/run/slg-ci-docker.sock}"
DATA_ROOT="${SLG_CI_DOCKER_DATA_ROOT:-/var/lib/slg-ci-docker}"
EXEC_ROOT="${SLG_CI_DOCKER_EXEC_ROOT:-/run/slg-ci-docker-exec}"
PIDFILE="${SLG_CI_DOCKER_PIDFILE:-/run/slg-ci-docker.pid}"
LOG="${SLG_CI_DOCKER_LOG:-/var/log/slg-ci-dockerd.log}"
# Its own bridge: another dockerd on the machine (a developer's) would hand out the same addresses on docker0.
BRIDGE="${SLG_CI_DOCKER_BRIDGE:-slgci0}"
BRIDGE_ADDRESS="${SLG_CI_DOCKER_BRIDGE_ADDRESS:-172.31.250.1/24}"

answers() { DOCKER_HOST="unix://$SOCKET" docker version >/dev/null 2>&1; }

case "${1:-}" in
  start)
    answers && exit 0
    mkdir -p "$DATA_ROOT" "$EXEC_ROOT"
    if ! ip link show "$BRIDGE" >/dev/null 2>&1; then
      ip link add "$BRIDGE" type bridge
      ip addr add "$BRIDGE_ADDRESS" dev "$BRIDGE"
    fi
    ip link set "$BRIDGE" up
    setsid dockerd --iptables=false --ip6tables=false --bridge "$BRIDGE" --host "unix://$SOCKET" --data-root "$DATA_ROOT" \
      --exec-root "$EXEC_ROOT" --pidfile "$PIDFILE" >>"$LOG" 2>&1 < /dev/null &
    for _ in $(seq 1 60); do answers && exit 0; sleep 0.5; done
    tail -20 "$LOG"
    exit 1
    ;;
  stop)
    [ -f "$PIDFILE" ] || exit 0
    pid="$(cat "$PIDFILE")"
    kill "$pid" 2>/dev/null || exit 0
    for _ in $(seq 1 60); do kill -0 "$pid" 2>/dev/null || exit 0; sleep 0.5; done
    exit 1
    ;;
  *)
    echo "usage: $0 start|stop" >&2
    exit 2
    ;;
esac
