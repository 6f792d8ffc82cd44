#!/usr/bin/env bash
# Runs a command and ends it, with everything it started in this process group, once the process that started
# this script is gone: a test run killed outright (SIGKILL, a CI timeout) must not leave Xvfb, WebKitWebDriver or
# Firefox running. Chromium needs no guard: it exits when playwright's pipe to it closes.
# Usage: guard.sh COMMAND [ARGS...], or SLUICE_GUARD_TARGET=COMMAND guard.sh ARGS... (for a launcher such as
# playwright that runs an executable path with arguments of its own). Start it as a process group leader.
if [[ -n ${SLUICE_GUARD_TARGET:-} ]]; then
  set -- "$SLUICE_GUARD_TARGET" "$@"
  unset SLUICE_GUARD_TARGET
fi
parent=$PPID
"$@" &
child=$!
trap 'kill -TERM "$child" 2>/dev/null' TERM INT HUP
while kill -0 "$parent" 2>/dev/null; do
  sleep 0.5 &
  ticker=$!
  # Returns when either ends (or a trapped signal arrives); -p names which one it reaped.
  wait -n -p ended "$child" "$ticker"
  status=$?
  if [[ ${ended:-} == "$child" ]]; then
    kill "$ticker" 2>/dev/null
    exit "$status"
  fi
  unset ended
done
# The parent is gone: end the command and all it started, then this script.
trap '' TERM
kill -TERM 0 2>/dev/null
sleep 2
kill -KILL 0 2>/dev/null
