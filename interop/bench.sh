#!/usr/bin/env bash
# Runs the interop benchmarks (this SDK, a hand-written floor, a2a-go
# v0.3.15), summarises them with benchstat and writes ../BENCHMARKS.md.
# Usage: interop/bench.sh            (COUNT=6 BENCHTIME=1s by default)
set -euo pipefail
cd "$(dirname "$0")"
COUNT=${COUNT:-6}
BENCHTIME=${BENCHTIME:-1s}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# benchstat from the Go module proxy, into a private bin directory.
GOBIN="$work/bin" go install golang.org/x/perf/cmd/benchstat@v0.0.0-20260908200009-22c9c6c9d4da

echo "running benchmarks: -count $COUNT -benchtime $BENCHTIME (a few minutes)" >&2
go test -run '^$' -bench 'BenchmarkHTTP|BenchmarkDecode|BenchmarkParallel1000' \
  -count "$COUNT" -benchtime "$BENCHTIME" -timeout 60m . | tee "$work/bench.txt" >&2
go test -run '^$' -bench 'BenchmarkPollerEfficiency' -benchtime 3x -count 1 -timeout 30m . | tee "$work/poll.txt" >&2
"$work/bin/benchstat" -col /client "$work/bench.txt" > "$work/benchstat.txt" 2>&1 || "$work/bin/benchstat" "$work/bench.txt" > "$work/benchstat.txt"
go run ./benchreport -count "$COUNT" -bench "$work/bench.txt" -poll "$work/poll.txt" \
  -benchstat "$work/benchstat.txt" -notes bench_notes.md > ../BENCHMARKS.md
echo "wrote BENCHMARKS.md" >&2
