#!/usr/bin/env bash
# compare.sh TPFEMU ELF [EXPECTED]: run ELF under `TPFEMU exec` and under
# qemu-s390x-static (the reference) and require byte-identical stdout and the same
# exit status. On a mismatch, print the first differing lines, both statuses, and
# tpfemu's stderr (it holds the program-check dump that names an unimplemented
# instruction). QEMU_S390X may name the qemu binary; otherwise qemu-s390x-static is
# looked up in PATH.
#
# COMPARE_ROOT=DIR: the program reads files: tpfemu runs it with --root DIR, QEMU
# with DIR as its working directory (the program opens relative paths).
# COMPARE_TPFEMU_ARGS: further options for tpfemu exec (e.g. --istreams 4).
#
# With EXPECTED (a file of the exact expected stdout, for programs that exercise
# instructions QEMU 7.2 gets wrong; the program's source says which and why), tpfemu's
# stdout must equal that file and its exit status must be 0; QEMU is still run, but
# only to note whether it agrees.
set -u
if [ $# -ne 2 ] && [ $# -ne 3 ]; then
  echo "usage: compare.sh TPFEMU ELF [EXPECTED]" >&2
  exit 2
fi
tpfemu=$1
elf=$2
expected=${3:-}
qemu=${QEMU_S390X:-}
case "$qemu" in "" | *NOTFOUND) qemu=$(command -v qemu-s390x-static || true) ;; esac
if [ -z "$qemu" ] || [ ! -x "$qemu" ]; then
  echo "FAIL: qemu-s390x-static not found; it is the reference for the differential" >&2
  echo "      tests and a required dependency (run scripts/setup, or apt-get install" >&2
  echo "      qemu-user-static)" >&2
  exit 1
fi
if [ ! -x "$tpfemu" ]; then
  echo "FAIL: tpfemu binary '$tpfemu' not found or not executable" >&2
  exit 1
fi
if [ ! -f "$elf" ]; then
  echo "FAIL: guest program '$elf' not found (was it built?)" >&2
  exit 1
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/tpfemu-diff.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT

# A hung emulator must not hang the suite: both runs get a generous time limit. No
# core files from a crashing run (QEMU 7.2 crashes on some instructions).
ulimit -c 0 2>/dev/null || true
# (The outer 2>/dev/null only silences the shell's own "Segmentation fault" notice.)
root=${COMPARE_ROOT:-}
root_args=()
[ -n "$root" ] && root_args=(--root "$root")
# The newest architecture level: QEMU's CPU model has every facility the table knows.
root_args+=(--set machine.arch=z15)
read -r -a extra_args <<<"${COMPARE_TPFEMU_ARGS:-}"
root_args+=("${extra_args[@]}")
{ (cd "${root:-.}" && exec timeout 60 "$qemu" "$elf") >"$tmp/qemu.out" 2>"$tmp/qemu.err" </dev/null; } 2>/dev/null
qemu_rc=$?
{ timeout 60 "$tpfemu" exec "$elf" "${root_args[@]}" >"$tmp/tpfemu.out" 2>"$tmp/tpfemu.err" </dev/null; } 2>/dev/null
tpfemu_rc=$?

name=$(basename "$elf")
fail=0
if [ -n "$expected" ]; then
  if [ ! -f "$expected" ]; then
    echo "FAIL: expected-output file '$expected' not found" >&2
    exit 1
  fi
  if ! cmp -s "$expected" "$tmp/tpfemu.out"; then
    fail=1
    echo "FAIL: $name: stdout differs from $(basename "$expected") (--- expected per the PoO, +++ tpfemu exec)"
    diff -u --label expected --label tpfemu "$expected" "$tmp/tpfemu.out" | head -n 40
  fi
  if [ "$tpfemu_rc" -ne 0 ]; then
    fail=1
    echo "FAIL: $name: exit status $tpfemu_rc, expected 0"
  fi
  if [ $fail -ne 0 ]; then
    if [ -s "$tmp/tpfemu.err" ]; then
      echo "--- tpfemu stderr:"
      head -n 40 "$tmp/tpfemu.err"
    fi
    exit 1
  fi
  if cmp -s "$expected" "$tmp/qemu.out" && [ "$qemu_rc" -eq 0 ]; then
    echo "ok: $name: matches $(basename "$expected"); qemu-s390x-static agrees"
  else
    echo "ok: $name: matches $(basename "$expected"); qemu-s390x-static does not (exit status $qemu_rc), as the source explains"
  fi
  exit 0
fi
# QEMU stopping on an illegal instruction means the reference lacks what the program
# tests: agreeing with that proves nothing (the program needs NAME.expected instead).
if [ "$qemu_rc" -eq 132 ]; then
  echo "FAIL: $name: qemu-s390x-static stopped on an illegal instruction (exit status 132): it cannot"
  echo "      be the reference here; give the program a NAME.expected (tests/guest/diff/README.md)"
  head -n 5 "$tmp/qemu.err"
  exit 1
fi
if ! cmp -s "$tmp/qemu.out" "$tmp/tpfemu.out"; then
  fail=1
  echo "FAIL: $name: stdout differs (--- qemu-s390x-static, +++ tpfemu exec)"
  diff -u --label qemu --label tpfemu "$tmp/qemu.out" "$tmp/tpfemu.out" | head -n 40
fi
if [ "$qemu_rc" -ne "$tpfemu_rc" ]; then
  fail=1
  echo "FAIL: $name: exit status differs"
fi
if [ $fail -ne 0 ]; then
  echo "exit status: qemu $qemu_rc, tpfemu $tpfemu_rc$([ "$tpfemu_rc" -eq 124 ] && echo ' (timed out)')"
  if [ -s "$tmp/tpfemu.err" ]; then
    echo "--- tpfemu stderr:"
    head -n 40 "$tmp/tpfemu.err"
  fi
  if [ -s "$tmp/qemu.err" ]; then
    echo "--- qemu stderr:"
    head -n 10 "$tmp/qemu.err"
  fi
  exit 1
fi
echo "ok: $name: $(wc -c <"$tmp/qemu.out") bytes of stdout, exit status $qemu_rc"
exit 0
