#!/bin/sh
# One experiment run into an emptied OUT: a case must never read a report that an
# earlier run left behind (an etim.json, say, that this run no longer writes).
# usage: fresh_run.sh OUT TPFEMU run ARGS...
set -e
out=$1
shift
rm -rf "$out"
exec "$@" --out "$out"
