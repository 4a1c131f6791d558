#!/bin/sh
# The guest LE heap against its host model (issue 25, E4): runs E4's sequence on the
# guest heap under `tpfemu exec` and on le_heap_model with the same arguments, and
# fails unless every line the model prints (every counter, and the placement checksum:
# each element in the same segment at the same offset) is in the guest's output, the
# guest's environment saw one getmain per segment allocated and one freemain per
# segment freed, its chain is whole and all free after the sequence, and a second
# guest run prints the same bytes.
#   le_heap_compare.sh TPFEMU ELF MODEL SEQ N INIT INCR KEEP|FREE FIRST|BEST
set -u
tpfemu=$1 elf=$2 model=$3
shift 3
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
"$model" "$@" placement >"$dir/model" || { echo "le_heap_model failed"; exit 1; }
"$tpfemu" exec "$elf" "$@" placement >"$dir/guest" || { echo "tpfemu exec failed"; cat "$dir/guest"; exit 1; }
"$tpfemu" exec "$elf" "$@" placement >"$dir/guest2" || { echo "second tpfemu exec failed"; exit 1; }
status=0
while IFS= read -r line; do
  grep -qxF "$line" "$dir/guest" || { echo "model: $line; guest: $(grep "^${line%%=*}=" "$dir/guest")"; status=1; }
done <"$dir/model"
value() { sed -n "s/^$1=//p" "$dir/guest"; }
[ "$(value env_getmain_calls)" = "$(value segments_allocated)" ] || { echo "getmain calls != segments allocated"; status=1; }
[ "$(value env_freemain_calls)" = "$(value segments_freed)" ] || { echo "freemain calls != segments freed"; status=1; }
[ "$(value chain_check)" = ok ] || { echo "the guest's chain after the sequence: $(value chain_check)"; status=1; }
cmp -s "$dir/guest" "$dir/guest2" || { echo "two guest runs differ"; status=1; }
[ $status = 0 ] && { cat "$dir/guest"; echo "guest and model agree"; }
exit $status
