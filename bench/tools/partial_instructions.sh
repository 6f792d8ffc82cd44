#!/usr/bin/env bash
# Instructions per token (callgrind, load-independent) of bench/tools/partial_instructions.mjs: MODE at SIZE bytes, the
# difference between RUNS2 and RUNS1 runs of the whole document, so start-up and compilation cancel out.
# usage: bash bench/tools/partial_instructions.sh freeze|finished|nofreeze|jsonriver SIZE [RUNS1 RUNS2]
# (freeze: every snapshot frozen; finished: only finished containers, the default; nofreeze: none)
set -euo pipefail
mode=$1 size=$2 r1=${3:-5} r2=${4:-25}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
here=$(dirname "$0")
count() {
  valgrind --tool=callgrind --smc-check=all-non-file --callgrind-out-file="$dir/out.$1" \
    node --single-threaded "$here/partial_instructions.mjs" "$mode" "$size" "$1" 2>"$dir/err.$1" >"$dir/log.$1"
  sed -n 's/.*Collected : \([0-9]*\).*/\1/p' "$dir/err.$1"
}
a=$(count "$r1")
b=$(count "$r2")
tokens=$(sed -n 's/.* runs of \([0-9]*\) tokens.*/\1/p' "$dir/log.$r2")
echo "$mode $size: $(( (b - a) / ((r2 - r1) * tokens) )) instructions per token ($tokens tokens, runs $r1..$r2)"
