#!/bin/sh
# What a run records and how it treats its output directory (issue 17), checked on
# real runs of configs/demo.yaml:
#   record   config.yaml: version, command line, both files, the image and its SHA-256,
#            every key with where its value came from; summary.txt names both files
#   same     the same command twice: config.yaml byte-identical (no host time in it)
#   rerun    `tpfemu run config.yaml` gives the same reports
#   stale    files an earlier run left that this run would write are gone; others stay
#   nodir    a run that fails before it starts leaves no directory
#   compare  `tpfemu compare` names the keys that differ and compares the JSON reports
# Usage: cli_record.sh TPFEMU SOURCE_DIR WORK_DIR. Prints "CHECK: OK" for each check,
# "FAIL: CHECK: why" and exits 1 at the first that fails.
set -u
tpfemu=$1 src=$2 work=$3
rm -rf "$work" && mkdir -p "$work"
fail() { echo "FAIL: $*"; exit 1; }
has() { grep -Eq -- "$2" "$1" || fail "$3: $1 has no line matching: $2"; }

a="$work/a"
run_a() {
  "$tpfemu" run "$src/configs/demo.yaml" "$src/tests/configs/fewer-messages.yaml" --set workload.seed=5 \
    --no-progress --out "$a" >"$work/a.out" 2>&1 || fail "$1: the run failed: $(cat "$work/a.out")"
}
run_a record
has "$a/config.yaml" '^# tpfemu: [0-9]+\.[0-9]+' record
has "$a/config.yaml" "^# command: .*tpfemu run .*demo.yaml .*fewer-messages.yaml --set workload.seed=5 --no-progress --out $a\$" record
has "$a/config.yaml" '^# configuration files: .*configs/demo.yaml, .*tests/configs/fewer-messages.yaml$' record
has "$a/config.yaml" '^# system.image sha256: [0-9a-f]{64}$' record
has "$a/config.yaml" '^  istreams: 4 +# .*configs/demo.yaml:[0-9]+$' record
has "$a/config.yaml" '^  messages: 300 +# .*fewer-messages.yaml:3$' record
has "$a/config.yaml" '^  seed: 5 +# --set$' record
has "$a/config.yaml" '^  clock: 5.2GHz +# default$' record
has "$a/config.yaml" '^  image: ".*/tpf_apps.elf" +# .*demo.yaml:[0-9]+, written tpf_apps.elf$' record
has "$a/summary.txt" 'configuration +.*configs/demo.yaml, .*tests/configs/fewer-messages.yaml$' record
echo "record: OK"

cp "$a/config.yaml" "$work/first.yaml"
run_a same
cmp -s "$a/config.yaml" "$work/first.yaml" || fail "same: config.yaml differs between two runs of one command"
echo "same: OK"

"$tpfemu" run "$a/config.yaml" --no-progress --out "$work/rerun" >/dev/null 2>&1 || fail "rerun: the run of config.yaml failed"
for f in "$a"/*.txt "$a"/*.json "$a"/*.log; do
  case $(basename "$f") in summary.*) continue ;; esac  # they name the configuration file
  cmp -s "$f" "$work/rerun/$(basename "$f")" || fail "rerun: $(basename "$f") differs"
done
echo "rerun: OK"

for f in etim.txt etim.json timeline.txt timeline.json summary.txt; do echo stale >"$a/$f"; done
echo mine >"$a/notes.txt"
run_a stale
for f in etim.txt etim.json timeline.txt timeline.json; do
  [ ! -e "$a/$f" ] || fail "stale: $f of an earlier run is still there"
done
grep -q stale "$a/summary.txt" && fail "stale: summary.txt was not rewritten"
[ "$(cat "$a/notes.txt")" = mine ] || fail "stale: a file the run does not write (notes.txt) was touched"
echo "stale: OK"

"$tpfemu" run "$src/configs/demo.yaml" --no-progress --set workload.program=QXXX --out "$work/never/made" \
  >/dev/null 2>&1 && fail "nodir: a run of a program that is not there succeeded"
[ ! -e "$work/never" ] || fail "nodir: a run that failed before it started left $work/never"
echo "nodir: OK"

"$tpfemu" run "$src/configs/demo.yaml" "$src/tests/configs/fewer-messages.yaml" --set workload.seed=5 \
  --set machine.istreams=2 --no-progress --out "$work/b" >/dev/null 2>&1 || fail "compare: run B failed"
"$tpfemu" compare "$a" "$work/b" >"$work/compare.out" 2>&1 || fail "compare: exit status $?: $(cat "$work/compare.out")"
has "$work/compare.out" '^  machine.istreams +4 +2$' compare
grep -Eq 'workload.seed|^  command' "$work/compare.out" && fail "compare: lists keys that are the same (or the command line)"
has "$work/compare.out" '^messages_per_second ' compare
grep -Eq '^(heap|locks).json' "$work/compare.out" && fail "compare: a report neither demo run writes (heap, locks)"
for n in 4 2; do
  "$tpfemu" run "$src/configs/syslog-pj46800.yaml" --set machine.istreams=$n --set workload.terminals=$n \
    --set workload.messages=40 --set workload.warmup=4 --no-progress --out "$work/syslog$n" >/dev/null 2>&1 ||
    fail "compare: the syslog run on $n I-streams failed"
done
"$tpfemu" compare "$work/syslog4" "$work/syslog2" >"$work/compare-syslog.out" 2>&1 || fail "compare: syslog runs"
has "$work/compare-syslog.out" '^locks.json: [0-9]+ figures differ, [0-9]+ the same$' compare
has "$work/compare-syslog.out" '^etim.json: [0-9]+ figures differ' compare
echo "compare: OK"
