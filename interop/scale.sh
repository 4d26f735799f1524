#!/usr/bin/env bash
# Measures pending waits at scale with examples/scale: 1,000 / 10,000 /
# 100,000 waits by push and by polling, a few rounds each, and writes the
# "## Scale: pending waits" section of ../BENCHMARKS.md (that section
# only: replaced where it is, else put before "## How these figures were
# made"). The section is kept in interop/scale.md too, so that bench.sh,
# which rewrites BENCHMARKS.md, can put it back (SPLICE_ONLY=1).
# Usage: interop/scale.sh
#   SIZES="1000 10000 100000"  the numbers of waits
#   ROUNDS=5                   rounds per size below 100,000 (3 at 100,000)
#   POLL_LIMIT=300             seconds the polling run of 100,000 waits (all
#                              its rounds) may take before it is stopped and
#                              reported as not measured
#   SPLICE_ONLY=1              measure nothing: put interop/scale.md back
#                              into BENCHMARKS.md
set -euo pipefail
cd "$(dirname "$0")"
section=scale.md
bench=../BENCHMARKS.md
heading='## Scale: pending waits'

splice() { # replace the section in BENCHMARKS.md, or insert it
  awk -v heading="$heading" -v file="$section" '
    function put() { while ((getline line < file) > 0) print line; close(file); print ""; done = 1 }
    $0 == heading { put(); skip = 1; next }
    skip && /^## / { skip = 0 }
    skip { next }
    !done && $0 == "## How these figures were made" { put() }
    { print }
    END { if (!done) { print ""; put() } }
  ' "$bench" > "$bench.tmp"
  mv "$bench.tmp" "$bench"
}
if [ -n "${SPLICE_ONLY:-}" ]; then
  splice
  echo "put $section back into BENCHMARKS.md" >&2
  exit 0
fi

SIZES=${SIZES:-1000 10000 100000}
ROUNDS=${ROUNDS:-5}
POLL_LIMIT=${POLL_LIMIT:-300}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
(cd .. && go build -o "$work/scale" ./examples/scale)

commit=$(git rev-parse --short HEAD)
load_start=$(cut -d' ' -f1 /proc/loadavg 2>/dev/null || echo '?')
for run in push poll:WaitTasks poll:WaitTask; do
  mode=${run%%:*} poller=${run#*:}
  [ "$mode" = push ] && poller=WaitTasks # not used by push
  touch "$work/$mode.rows" "$work/$mode.spread"
  for n in $SIZES; do
    rounds=$ROUNDS
    [ "$n" -ge 100000 ] && rounds=$(( ROUNDS < 3 ? ROUNDS : 3 ))
    limit=1800
    [ "$mode" = poll ] && [ "$n" -ge 100000 ] && limit=$POLL_LIMIT
    name=$mode; [ "$mode" = poll ] && name="poll $poller"
    echo "scale: $name, $n waits, $rounds rounds" >&2
    # A run still going 60 s past its own -timeout (stuck) is stopped.
    ok=true
    timeout -k 10 $(( limit + 60 )) "$work/scale" -mode "$mode" -poller "$poller" -waits "$n" -rounds "$rounds" -timeout "${limit}s" > "$work/out" 2> "$work/err" || ok=false
    # The table's header as the program prints it, before any round.
    [ -s "$work/$mode.head" ] || grep -m2 -e '^| mode |' -e '^|---|' "$work/out" > "$work/$mode.head" || true
    if $ok; then
      cat "$work/out" >&2
      grep '(median of' "$work/out" | sed 's/ (median of [0-9]*)//' >> "$work/$mode.rows"
      sed -n "s/^spread over/$name, $n waits: spread over/p" "$work/out" >> "$work/$mode.spread"
    else
      # The rounds that ended in time, as they are; the failure noted.
      cat "$work/out" >&2; tail -3 "$work/err" >&2
      grep '(round' "$work/out" >> "$work/$mode.rows" || true
      echo "$name, $n waits: $(grep -c '(round' "$work/out") of $rounds rounds measured (rows marked *round*), the run failed or took over ${limit}s: $(tail -1 "$work/err" | cut -c1-200)" >> "$work/$mode.spread"
    fi
  done
done
load_end=$(cut -d' ' -f1 /proc/loadavg 2>/dev/null || echo '?')

{
  echo "$heading"
  echo
  echo "\`examples/scale\` (\`interop/scale.sh\`), $(date -u '+%Y-%m-%d %H:%M UTC'), commit $commit, $(nproc) cores, load average $load_start at the start, $load_end at the end. One process: a lean JSON-RPC agent on loopback (not a2atest, whose request log would outweigh the waits) holds N tasks \`working\`; the waits are made, measured once all are pending (live heap and stack in use after a collection, goroutines), then the agent releases the tasks. Medians of the rounds (${ROUNDS} below 100,000 waits, 3 at 100,000); spread below each table."
  echo
  echo "**Push** (\`scale -mode push\`): N tasks sent through one \`PushReceiver\` (\`PushFallbackAfter(time.Hour)\`: no fallback poll while they are made, tasks/get counted, none), each wait under \`context.Background()\`. *heap/wait* = (live heap with N waits pending − the same agent holding N tasks with no wait) / N; connections closed before each measure. The agent POSTs each task's end from 16 goroutines over 16 connections; *notifications/s* = N / (release → last POST answered); the *bare handler* (reads the body, answers 204) takes the same notifications from the same senders on the same server, before the receiver every other round; *ratio* = the median of the rounds' notifications/s over bare handler/s; *time to drain* = release → last wait ended (PushOnDone); *all pending after* = first send → last wait registered (16 senders)."
  echo
  cat "$work/push.head" "$work/push.rows"
  echo
  sed 's/^/- /' "$work/push.spread"
  echo
  echo "**Polling** (\`scale -mode poll\`): N waits on a default client (\`DefaultMaxPollsInFlight\` = 64 tasks/get at once), by one \`WaitTasks\` call (*poll WaitTasks*) or by a goroutine and \`WaitTask\` per task (*poll WaitTask*, \`-poller WaitTask\`); the default schedule (500 ms ×1.5 to 5 s, ±20 %), with \`PollTimeout(30*time.Minute)\` and \`PollMaxAttempts(100000)\` so no budget ends a wait; measured once every task has been asked for once. The agent runs in the same process, so its connection goroutines and buffers count in the figures. *connections accepted* = the agent's \`http.Server\` ConnState StateNew count over the round, *most open* = the most open at once, *most in flight* = the most tasks/get inside the agent's handler at once; *time to drain* = release → last wait ended; *all pending after* = start → every task asked for once."
  echo
  cat "$work/poll.head" "$work/poll.rows"
  echo
  sed 's/^/- /' "$work/poll.spread"
  if [ -f scale_before.md ]; then
    echo
    cat scale_before.md
  fi
} > "$section"
splice
echo "wrote $section and its section of BENCHMARKS.md" >&2
