#!/bin/sh
# pace_same_figures.sh OUT TPFEMU CONFIG [run options...]: the run paced (--console 0
# --pace 0.01: a hundredth of real time) takes at least its simulated time times 100 of
# host time, and writes the same reports as the run unpaced without a console.
out=$1 tpfemu=$2 config=$3
shift 3
rm -rf "$out"
start=$(date +%s%N)
"$tpfemu" run "$config" --no-progress --out "$out/paced" --console 0 --pace 0.01 "$@" >/dev/null 2>&1 || exit 1
took_ms=$(( ($(date +%s%N) - start) / 1000000 ))
"$tpfemu" run "$config" --no-progress --out "$out/unpaced" "$@" >/dev/null 2>&1 || exit 1
status=0
for f in "$out"/paced/*; do
  [ "$(basename "$f")" = config.yaml ] && continue  # the record of what ran: its command line differs
  cmp -s "$f" "$out/unpaced/$(basename "$f")" || { echo "$(basename "$f") differs when paced"; status=1; }
done
echo "paced run took $took_ms ms of host time"
[ $status = 0 ] && echo "paced: same figures"
exit $status
