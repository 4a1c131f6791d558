#!/bin/sh
# tpfemu runs from any directory (configs/README.md, "Paths"): the build tree's
# tpfemu on the source tree's configs/demo.yaml from a fresh temporary directory;
# then `cmake --install` into a temporary prefix and the installed tpfemu on the
# installed configurations from another one, demo.yaml and a TLS configuration (its
# ../heap/traces/ data file) cut short. Every run's summary.json must equal the
# build tree's but for its "config" line (the path given). Fails loudly, cleans up.
#
# usage: run_anywhere.sh CMAKE TPFEMU SOURCE_DIR BUILD_DIR
set -eu
unset TPFEMU_GUEST_DIR  # what is tested is tpfemu's own search for its images
cmake=$1 tpfemu=$2 src=$3 build=$4
tmp=$(mktemp -d "${TMPDIR:-/tmp}/tpfemu-anywhere.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM
fail() { echo "run_anywhere: FAILED: $*" >&2; exit 1; }
# summary.json without its "config" line, which names the file as given.
figures() { grep -v '^  "config": ' "$1/summary.json"; }
tls_short="--set workload.messages=20 --set workload.warmup=0"

mkdir "$tmp/cwd-build" "$tmp/cwd-installed"
echo "== build tree: $tpfemu run $src/configs/demo.yaml, from $tmp/cwd-build"
cd "$tmp/cwd-build"
"$tpfemu" run "$src/configs/demo.yaml" --no-progress --out "$tmp/out-build" ||
  fail "the build tree's tpfemu did not run demo.yaml from $tmp/cwd-build"
"$tpfemu" run "$src/configs/tls-baseline.yaml" $tls_short --no-progress --out "$tmp/out-build-tls" >/dev/null ||
  fail "the build tree's tpfemu did not run tls-baseline.yaml from $tmp/cwd-build"
[ -z "$(ls -A "$tmp/cwd-build")" ] || fail "tpfemu wrote into the current directory: $(ls -A "$tmp/cwd-build")"

echo "== cmake --install $build --prefix $tmp/prefix"
"$cmake" --install "$build" --prefix "$tmp/prefix" >"$tmp/install.log" 2>&1 ||
  { cat "$tmp/install.log" >&2; fail "cmake --install"; }
for f in bin/tpfemu share/tpfemu/guest/tpf_apps.elf share/tpfemu/guest/demo.elf share/tpfemu/configs/demo.yaml \
         share/tpfemu/configs/README.md share/tpfemu/heap/traces/tls13-server.trace \
         share/tpfemu/scripts/experiment-tls share/tpfemu/scripts/experiment-syslog; do
  [ -e "$tmp/prefix/$f" ] || fail "cmake --install did not install $f"
done

echo "== installed: $tmp/prefix/bin/tpfemu run $tmp/prefix/share/tpfemu/configs/demo.yaml, from $tmp/cwd-installed"
cd "$tmp/cwd-installed"
"$tmp/prefix/bin/tpfemu" run "$tmp/prefix/share/tpfemu/configs/demo.yaml" --no-progress \
  --out "$tmp/out-installed" || fail "the installed tpfemu did not run the installed demo.yaml"
"$tmp/prefix/bin/tpfemu" run "$tmp/prefix/share/tpfemu/configs/tls-baseline.yaml" $tls_short \
  --no-progress --out "$tmp/out-installed-tls" >/dev/null ||
  fail "the installed tpfemu did not run the installed tls-baseline.yaml"

figures "$tmp/out-build" >"$tmp/a"
figures "$tmp/out-installed" >"$tmp/b"
cmp -s "$tmp/a" "$tmp/b" || { diff "$tmp/a" "$tmp/b" >&2; fail "demo: the installed run's figures differ"; }
figures "$tmp/out-build-tls" >"$tmp/a"
figures "$tmp/out-installed-tls" >"$tmp/b"
cmp -s "$tmp/a" "$tmp/b" || { diff "$tmp/a" "$tmp/b" >&2; fail "tls-baseline: the installed run's figures differ"; }
echo "run_anywhere: OK"
