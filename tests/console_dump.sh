#!/bin/sh
# console_dump.sh OUT TPFEMU CONFIG: issue 48's console, as an analyst types it. A QPGT run
# paging to DASD, with a dump volume, waits for `tpfemu console`; the client types DUMP,
# D M=CPU, D A,L, D IOS,CONFIG and a TRACE, and reads until the run ends. The console
# must show the DUMP's IEA045I and then, on their own, IEA794I when the dump is captured
# and IEA611I when it is written; each display in its z/OS message; the trace in
# itrace.txt. Prints what the client printed, then "console dump: OK" or what was wrong.
out=$1 tpfemu=$2 config=$3
. "$(dirname "$0")/console_port.sh"
rm -rf "$out" && mkdir -p "$out" || exit 1
"$tpfemu" run "$config" --no-progress --out "$out/run" --console 0 --console-wait --pace 0.5 \
  --set system.image=tpf_io.elf --set workload.program=QPGT --set workload.warmup=0 \
  --set workload.terminals=2 --set workload.messages=2 --set "workload.message_text=6 2" \
  --set system.paging.real_storage=8M --set machine.dasd.page_volumes=4 --set machine.dasd.dump_volumes=1 \
  >"$out/run.stdout" 2>"$out/run.stderr" &
run=$!
port=$(console_port "$out/run.stderr" $run) || exit 1
mkfifo "$out/typed"
(sleep 1; printf 'DUMP COMM=(QPGT PAGES),JOBNAME=(QPGT)\nD M=CPU\nD A,L\nD IOS,CONFIG\nTRACE I=0,COUNT=5\n'; exec sleep 120) >"$out/typed" &
typist=$!
"$tpfemu" console "$port" <"$out/typed" >"$out/client.out" 2>&1
client=$?
kill $typist
wait $run
status=$?
cat "$out/client.out"
fail() { echo "console dump: $*"; exit 1; }
[ $client = 0 ] || fail "the client exited with $client"
[ $status = 0 ] || fail "the run exited with $status"
grep -qE '^IEA045I AN SVC DUMP HAS STARTED AT TIME=[0-9]{2}\.[0-9]{2}\.[0-9]{2}\.[0-9]{3} FOR ASIDS\(' "$out/client.out" ||
  fail "no IEA045I with the simulated time"
grep -qxF 'IEA794I SVC DUMP HAS CAPTURED: DUMPID=001 REQUESTED BY OPERATOR TITLE=QPGT PAGES' "$out/client.out" ||
  fail "no IEA794I on the console"
grep -qE '^IEA611I COMPLETE DUMP ON SYS1.DUMP00 DUMPID=001 \([0-9]+ pages\)$' "$out/client.out" ||
  fail "no IEA611I on the console"
[ "$(grep -n '^IEA794I' "$out/client.out" | cut -d: -f1)" -lt "$(grep -n '^IEA611I' "$out/client.out" | cut -d: -f1)" ] ||
  fail "IEA611I before IEA794I"
for m in 'IEE174I [0-9.]{12} DISPLAY M 1' 'IEE114I [0-9.]{12} 0000.000 ACTIVITY 2' 'IOS506I [0-9.]{12} I/O CONFIG DATA' \
         'TRACE STARTED at [0-9.]+[mu]?s: 5 instructions to itrace.txt'; do
  grep -qE "^$m\$" "$out/client.out" || fail "no line: $m"
done
grep -qE '^RUN ENDED at ' "$out/client.out" || fail "no RUN ENDED line"
[ "$(grep -c '^IS00 ' "$out/run/itrace.txt")" = 5 ] || fail "itrace.txt does not hold 5 instructions of I-stream 0"
echo "console dump: OK"
