#!/usr/bin/env bash
# run.sh MODE TPFEMU GUEST_DIR SOURCE_DIR: the process tests that need more than one
# program (a root directory holding them as /bin/...), or that QEMU cannot be the
# reference for.
#   pipeline     a three-stage pipeline through pl_shell (fork, pipe2, dup2, execve, wait)
#                against the same three programs piped by bash, each under qemu-s390x-static
#   exec         exec_probe against exec_probe.expected (QEMU cannot run an s390x execve)
#   fork-bomb    fork_bomb is stopped by --max-processes: status 124 and the message
#   determinism  the pipeline and process_fork twice: the same bytes, counters included
#   busybox      BusyBox's sh runs busybox_script.sh (pipelines, substitutions, subshells,
#                background jobs, traps, applets as processes) under tpfemu and under QEMU
#                in a directory holding busybox_data.txt: the same output and status
#                (BUSYBOX names Debian's busybox-static for s390x, which scripts/setup fetches)
set -u
mode=$1 tpfemu=$2 guest=$3 src=$4
qemu=${QEMU_S390X:-}
case "$qemu" in "" | *NOTFOUND) qemu=$(command -v qemu-s390x-static || true) ;; esac
tmp=$(mktemp -d "${TMPDIR:-/tmp}/tpfemu-process.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
ulimit -c 0 2>/dev/null || true

make_root() {
  mkdir -p "$tmp/root/bin"
  cp "$guest/process_pl_gen.elf" "$tmp/root/bin/gen"
  cp "$guest/process_pl_sort.elf" "$tmp/root/bin/sort"
  cp "$guest/process_pl_uniqc.elf" "$tmp/root/bin/uniqc"
  cp "$guest/process_exec_probe.elf" "$tmp/root/bin/probe"
  cp "$guest/process_pl_gen.elf" "$tmp/root/bin/not-executable" && chmod 644 "$tmp/root/bin/not-executable"
  printf 'hello\n' >"$tmp/root/bin/text-file" && chmod 755 "$tmp/root/bin/text-file"
}
fail() {
  echo "FAIL: $*"
  exit 1
}
pipeline() {  # pipeline OUT ERR [tpfemu options...]
  local out=$1 err=$2
  shift 2
  timeout 120 "$tpfemu" exec "$guest/process_pl_shell.elf" --root "$tmp/root" "$@" \
    -- "/bin/gen 20000 7 | /bin/sort | /bin/uniqc" >"$out" 2>"$err" </dev/null
}

make_root
case "$mode" in
pipeline)
  [ -x "$qemu" ] || fail "qemu-s390x-static not found (run scripts/setup)"
  "$qemu" "$guest/process_pl_gen.elf" 20000 7 | "$qemu" "$guest/process_pl_sort.elf" |
    "$qemu" "$guest/process_pl_uniqc.elf" >"$tmp/qemu.out" || fail "the reference pipeline failed"
  pipeline "$tmp/tpfemu.out" "$tmp/tpfemu.err"
  rc=$?
  [ $rc -eq 0 ] || { cat "$tmp/tpfemu.err"; fail "pl_shell exited $rc"; }
  cmp -s "$tmp/qemu.out" "$tmp/tpfemu.out" || {
    diff -u --label qemu --label tpfemu "$tmp/qemu.out" "$tmp/tpfemu.out" | head -20
    fail "the pipeline's output differs from bash's pipeline under QEMU"
  }
  grep -q "stage 3: exited 0" "$tmp/tpfemu.err" || fail "pl_shell did not report its stages"
  echo "ok: three-stage pipeline, $(wc -l <"$tmp/tpfemu.out") lines, as under QEMU"
  ;;
exec)
  (cd "$tmp" && timeout 120 "$tpfemu" exec "$guest/process_exec_probe.elf" --root "$tmp/root") \
    >"$tmp/out" 2>"$tmp/err" </dev/null
  rc=$?
  [ $rc -eq 0 ] || { cat "$tmp/err"; fail "exec_probe exited $rc"; }
  cmp -s "$src/exec_probe.expected" "$tmp/out" || {
    diff -u --label expected --label tpfemu "$src/exec_probe.expected" "$tmp/out"
    fail "exec_probe differs from exec_probe.expected"
  }
  echo "ok: exec_probe matches exec_probe.expected"
  ;;
fork-bomb)
  timeout 120 "$tpfemu" exec "$guest/process_fork_bomb.elf" --max-processes 64 >"$tmp/out" 2>"$tmp/err" </dev/null
  rc=$?
  [ $rc -eq 124 ] || { cat "$tmp/err"; fail "fork_bomb exited $rc, not 124"; }
  grep -q "the most \`tpfemu exec\` allows is 64 (--max-processes)" "$tmp/err" || {
    cat "$tmp/err"
    fail "no message naming the limit"
  }
  echo "ok: the fork bomb stopped at 64 processes: $(head -c 200 "$tmp/err")"
  ;;
determinism)
  for k in 1 2; do
    pipeline "$tmp/p$k.out" "$tmp/p$k.err" --counters --istreams 2 || fail "pipeline run $k failed"
    timeout 120 "$tpfemu" exec "$guest/process_fork.elf" --counters >"$tmp/f$k.out" 2>"$tmp/f$k.err" </dev/null
  done
  for f in p.out p.err f.out f.err; do
    cmp -s "$tmp/${f%%.*}1.${f#*.}" "$tmp/${f%%.*}2.${f#*.}" || fail "two runs differ in ${f}"
  done
  grep -q "elapsed_cycles=" "$tmp/p1.err" || fail "no counters"
  echo "ok: two runs of the pipeline and of process_fork give the same bytes ($(grep elapsed_cycles "$tmp/p1.err"))"
  ;;
busybox)
  [ -x "$qemu" ] || fail "qemu-s390x-static not found (run scripts/setup)"
  bb=${BUSYBOX:-/var/cache/tpfemu/busybox-s390x}
  [ -x "$bb" ] || fail "BusyBox for s390x not found at $bb (scripts/setup fetches it)"
  mkdir -p "$tmp/bb"
  cp "$src/busybox_script.sh" "$tmp/bb/script.sh"
  cp "$src/busybox_data.txt" "$tmp/bb/data.txt"
  (cd "$tmp/bb" && timeout 120 "$qemu" "$bb" sh script.sh) >"$tmp/qemu.out" 2>"$tmp/qemu.err" </dev/null
  qrc=$?
  timeout 120 "$tpfemu" exec "$bb" --root "$tmp/bb" -- sh script.sh >"$tmp/tpfemu.out" 2>"$tmp/tpfemu.err" </dev/null
  trc=$?
  cmp -s "$tmp/qemu.out" "$tmp/tpfemu.out" || {
    diff -u --label qemu --label tpfemu "$tmp/qemu.out" "$tmp/tpfemu.out" | head -30
    head -20 "$tmp/tpfemu.err"
    fail "BusyBox's sh gives other output under tpfemu"
  }
  [ $qrc -eq $trc ] || fail "exit status: QEMU $qrc, tpfemu $trc"
  echo "ok: BusyBox sh ran the script as under QEMU ($(wc -l <"$tmp/tpfemu.out") lines, status $trc)"
  ;;
*) fail "unknown mode $mode" ;;
esac
