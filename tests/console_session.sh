#!/bin/sh
# console_session.sh OUT TPFEMU CONFIG: docs/console.md's console example, scripted. A run
# with --console 0 --console-wait --pace waits for `tpfemu console`; the client pauses
# it, stops the configuration's ZTRAP EI window (from 0), starts its own and resumes at
# once, stops it a second later (its answer covers its own window only), and reads
# until the run ends and tells it so. Prints what the client printed and the run log's
# console lines, then "console session: OK" or what was wrong. (When the PAUSE lands
# depends on the host: the commands typed during the pause must land at its time.)
out=$1 tpfemu=$2 config=$3
. "$(dirname "$0")/console_port.sh"
rm -rf "$out" && mkdir -p "$out" || exit 1
"$tpfemu" run "$config" --no-progress --out "$out/run" --console 0 --console-wait --pace 0.005 \
  --set workload.messages=0 --set workload.duration=30ms >"$out/run.stdout" 2>"$out/run.stderr" &
run=$!
port=$(console_port "$out/run.stderr" $run) || exit 1
sleep 1
[ -s "$out/run.stdout" ] && echo "the run did not wait for a client"
mkfifo "$out/typed"
(printf 'PAUSE\nZTRAP EI STOP\nZTRAP EI START PROG=slockc\nRESUME\n'; sleep 1; printf 'ZTRAP EI STOP\n'; exec sleep 120) >"$out/typed" &
typist=$!
"$tpfemu" console "$port" <"$out/typed" >"$out/client.out" 2>&1
client=$?
kill $typist
wait $run
status=$?
cat "$out/client.out"
grep "operator console" "$out/run/run.log"
fail() { echo "console session: $*"; exit 1; }
[ $client = 0 ] || fail "the client exited with $client"
[ $status = 0 ] || fail "the run exited with $status"
at=$(sed -n 's/^PAUSED at \([0-9.]*[mu]*s\): simulated time stands still.*/\1/p' "$out/client.out")
[ -n "$at" ] || fail "no PAUSED line"
for line in "ZTRAP EI STARTED at $at PROG=slockc" "RESUMED at $at"; do
  grep -qxF "$line" "$out/client.out" || fail "no line: $line"
done
grep -qE "^ZTRAP EI STOPPED at $at: [0-9]+ samples in the window 0\.\.$at; its top instructions:$" \
  "$out/client.out" || fail "no STOPPED line for the configuration's window 0..$at"
grep -qE "^ZTRAP EI STOPPED at [0-9.]+ms: [1-9][0-9]* samples in the window $at\.\.[0-9.]+ms; its top instructions:$" \
  "$out/client.out" || fail "no STOPPED line with the window since $at"
grep -A1 "^ZTRAP EI STOPPED" "$out/client.out" | grep -q "^  slockc" || fail "no slockc instruction after STOPPED"
grep -qE "^RUN ENDED at [0-9.]+ms simulated: [0-9,]+ messages in the measurement window; reports in .*/run$" \
  "$out/client.out" || fail "no RUN ENDED line"
grep -qF "operator console: ZTRAP EI START PROG=slockc   (to replay: operator: [{at: $at, command: ZTRAP EI START PROG=slockc}])" \
  "$out/run/run.log" || fail "no replay line in run.log"
echo "console session: OK"
