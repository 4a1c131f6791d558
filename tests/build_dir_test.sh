#!/usr/bin/env bash
# scripts/run and the experiment scripts with --build-dir DIR (or TPFEMU_BUILD_DIR) use
# the tpfemu built there and build nothing (issue 48: a newcomer with a build does not
# wait for another): cmake and ninja are replaced on PATH by stand-ins that fail loudly,
# so any build attempt fails the test.
# usage: tests/build_dir_test.sh SOURCE_DIR BUILD_DIR SCRATCH_DIR
set -u
source=$1 build=$(cd "$2" && pwd) scratch=$3
rm -rf "$scratch" && mkdir -p "$scratch/bin"
for tool in cmake ninja; do
  printf '#!/bin/sh\necho "%s was run: a build was attempted" >&2\nexit 99\n' "$tool" > "$scratch/bin/$tool"
  chmod +x "$scratch/bin/$tool"
done
export PATH="$scratch/bin:$PATH"
unset TPFEMU_BUILD_DIR TPFEMU_NO_SETUP
failures=0
expect() {  # WHAT STATUS OUTPUT-FILE PATTERN
  if [ "$2" -ne 0 ] || ! grep -q -- "$4" "$3"; then
    echo "FAILED: $1 (status $2)"; cat "$3"; failures=$((failures + 1))
  fi
}
cd "$scratch"  # anywhere: the scripts find their tree themselves
"$source/scripts/run" --build-dir "$build" --set workload.messages=40 --set workload.warmup=0 \
  --no-progress --out "$scratch/demo" > run.txt 2>&1
expect "scripts/run --build-dir" $? run.txt "tpfemu run summary"
TPFEMU_BUILD_DIR=$build "$source/scripts/run" --set workload.messages=40 --set workload.warmup=0 \
  --no-progress --out "$scratch/demo-env" > env.txt 2>&1
expect "TPFEMU_BUILD_DIR=DIR scripts/run" $? env.txt "tpfemu run summary"
# the experiment scripts' shared setup (scripts/tpfemu_runs.py), as each script calls it
PYTHONDONTWRITEBYTECODE=1 python3 - "$source/scripts" "$build" > exp.txt 2>&1 <<'PY'
import sys
scripts, build = sys.argv[1], sys.argv[2]
sys.argv = ["experiment", "--build-dir", build]
sys.path.insert(0, scripts)
import tpfemu_runs
tpfemu_runs.setup()
assert tpfemu_runs.TPFEMU == build + "/tpfemu", tpfemu_runs.TPFEMU
print("experiment setup: used", tpfemu_runs.TPFEMU)
PY
expect "tpfemu_runs.setup() with --build-dir" $? exp.txt "experiment setup: used $build/tpfemu"
echo "build_dir: $failures failures"
[ "$failures" -eq 0 ]
