#!/bin/sh
# Sends SIGNAL to a `tpfemu run` that would go on for hours, once it has started (its
# output directory exists: tpfemu handles the signal from before it creates it), and
# prints its output (standard output, then standard error), its exit status and, for each report, whether it is marked.
# SIGNAL "none": no signal, the run ends by itself (a run that ends early of itself).
# usage: run_signal.sh SIGNAL OUT_DIR TPFEMU ARGS...
sig=$1 out=$2
shift 2
rm -rf "$out"
mkdir -p "$(dirname "$out")"
"$@" --out "$out" >"$out.stdout" 2>"$out.stderr" &
pid=$!
if [ "$sig" != none ]; then
  i=0
  while [ ! -d "$out" ] && [ $i -lt 600 ]; do sleep 0.1; i=$((i + 1)); done
  sleep 0.5  # well into the run (its figures do not matter, only that it stops)
  kill -s "$sig" $pid
fi
wait $pid
status=$?
cat "$out.stdout" "$out.stderr"
echo "exit status $status"
# Each report: how many times it says it ended early, and its first line.
for f in "$out"/*; do
  echo "$(basename "$f"): marked $(grep -c -i 'ended.early' "$f") times, $(head -1 "$f" | cut -c 1-100)"
done
