#!/bin/sh
# console_banner.sh OUT TPFEMU CONFIG: a run with --console and no --pace is paced by
# default (it says at which ratio); a client is greeted with every command the run
# takes (ZTRAP, ZSTAT, the devices' when configured, PAUSE, RESUME); ZSTAT answers with
# the ECBs in use and each I-stream's lists and utilization; a command refused is in
# run.log with why. Prints "console banner: OK" or what was wrong.
out=$1 tpfemu=$2 config=$3
. "$(dirname "$0")/console_port.sh"
rm -rf "$out" && mkdir -p "$out" || exit 1
"$tpfemu" run "$config" --no-progress --out "$out/run" --console 0 --console-wait \
  --set workload.messages=0 --set workload.duration=20ms >"$out/run.stdout" 2>"$out/run.stderr" &
run=$!
port=$(console_port "$out/run.stderr" $run) || exit 1
printf 'ZSTAT\nFROB NICATE\nZSTAT\n' | "$tpfemu" console "$port" >"$out/client.out" 2>&1
wait $run
status=$?
cat "$out/client.out"
fail() { echo "console banner: $*"; exit 1; }
[ $status = 0 ] || fail "the run exited with $status"
grep -q "paced at 0.01 (a simulated 10 ms a host second; --pace 0: as fast as it can)" "$out/run.stderr" ||
  fail "no default pace said"
head -1 "$out/client.out" | grep -q "^tpfemu operator console. The commands" || fail "no greeting"
for c in "ZTRAP EI START" "ZTRAP EI STOP" "ZSTAT " "PAUSE " "RESUME "; do
  grep -q "^$c" "$out/client.out" || fail "the greeting lists no $c"
done
grep -qE "^ZSTAT at [0-9.]+[mu]?s: [0-9]+ ECBs in use; cross list [0-9]+, held \(nondispatchable\) [0-9]+$" \
  "$out/client.out" || fail "no ZSTAT header"
grep -qE "^  000  [A-Z0-9-]+ +[0-9]+ +[0-9]+ +[0-9]+  [0-9.]+%$" "$out/client.out" || fail "no I-stream line"
[ "$(grep -c '^  IS   RUNNING' "$out/client.out")" = 2 ] || fail "not two ZSTAT displays"
grep -q "UTIL since 0$" "$out/client.out" || fail "the first display's window is not from the start"
grep -qE "operator console: FROB NICATE   REFUSED: ERROR at .*" "$out/run/run.log" || fail "no REFUSED line in run.log"
echo "console banner: OK"
