#!/usr/bin/env bash
# Measures this SDK beside a hand-written floor (net/http + encoding/json),
# the limit (the HTTP exchange alone) and the official Go clients (a2a-go
# v0.3.15 for A2A v0.3, a2a-go/v2 v2.4.0 for v1.0, over JSON-RPC and
# HTTP+JSON), the clients taking turns round after round in one process
# (TestInterleaved), and writes ../BENCHMARKS.md with the medians.
# Usage: interop/bench.sh
#   ROUNDS=8 BENCHTIME=300ms     rounds, and the length of each run
#   BEFORE=<commit>              also measure the root package as it was at
#                                <commit> ("before"), in the same process
#   BENCH_RAW=<file>             keep the raw runs there (the poller's in <file>.poll, push against
#                                polling, examples/push, in <file>.push)
set -euo pipefail
cd "$(dirname "$0")"
ROUNDS=${ROUNDS:-8}
BENCHTIME=${BENCHTIME:-300ms}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

tags=() modfile=()
if [ -n "${BEFORE:-}" ]; then
  # The root package at $BEFORE, with the internal/ packages it imports,
  # as module before.local/a2a (their imports of each other rewritten).
  mkdir "$work/before"
  module=$(git -C .. show "$BEFORE:go.mod" | sed -n 's/^module //p')
  for f in $( (git -C .. ls-tree --name-only "$BEFORE"; git -C .. ls-tree -r --name-only "$BEFORE" -- internal) | grep '\.go$' | grep -v -e '_test\.go$' -e '/testdata/'); do
    mkdir -p "$work/before/$(dirname "$f")"
    git -C .. show "$BEFORE:$f" | sed "s#\"$module/internal/#\"before.local/a2a/internal/#" > "$work/before/$f"
  done
  git -C .. show "$BEFORE:go.mod" | sed 's#^module .*#module before.local/a2a#' > "$work/before/go.mod"
  git -C .. show "$BEFORE:go.sum" > "$work/before/go.sum"
  cp go.mod "$work/bench.mod"
  cp go.sum "$work/bench.sum"
  printf 'require before.local/a2a v0.0.0\nreplace before.local/a2a => %s\n' "$work/before" >> "$work/bench.mod"
  tags=(-tags before) modfile=(-modfile "$work/bench.mod")
fi

load_start=$(cut -d' ' -f1 /proc/loadavg 2>/dev/null || echo '?')
echo "measuring: $ROUNDS rounds of $BENCHTIME runs, clients interleaved (several minutes)" >&2
A2A_BENCH_ROUNDS=$ROUNDS A2A_BENCH_TIME=$BENCHTIME A2A_BENCH_OUT="$work/bench.txt" \
  go test "${tags[@]}" "${modfile[@]}" -run '^TestInterleaved$' -count 1 -timeout 60m . >&2
go test -run '^$' -bench 'BenchmarkPollerEfficiency' -benchtime 3x -count 1 -timeout 30m . | tee "$work/poll.txt" >&2
# Push against polling (examples/push): one run of each per round, taking turns.
(cd .. && go test -c -o "$work/push.test" ./examples/push)
for _ in $(seq "$ROUNDS"); do
  "$work/push.test" -test.run '^$' -test.bench '^BenchmarkCollect$' -test.benchtime 1x -test.count 1
done | tee "$work/push.txt" >&2
load_end=$(cut -d' ' -f1 /proc/loadavg 2>/dev/null || echo '?')
go run ./benchreport -bench "$work/bench.txt" -poll "$work/poll.txt" -push "$work/push.txt" -notes bench_notes.md \
  -load "$load_start at the start, $load_end at the end" > ../BENCHMARKS.md
if [ -n "${BENCH_RAW:-}" ]; then # keep the raw runs, e.g. to rebuild the report with new notes
  cp "$work/bench.txt" "$BENCH_RAW" && cp "$work/poll.txt" "$BENCH_RAW.poll" && cp "$work/push.txt" "$BENCH_RAW.push"
fi
SPLICE_ONLY=1 ./scale.sh # the scale section (interop/scale.sh measures it) back into BENCHMARKS.md
echo "wrote BENCHMARKS.md" >&2
