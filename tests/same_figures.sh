#!/bin/sh
# same_figures.sh OUT TPFEMU IMAGE_A IMAGE_B CONFIG [run options...]: runs CONFIG once
# with each image and checks that every report of the two runs is byte-identical
# (the program-layout test: IMAGE_B is IMAGE_A with a program more), but for run.log's
# HOST MEMORY lines (the host's count of the image's pages). Prints
# "same figures: OK" or the first report that differs and how.
out=$1 tpfemu=$2 a=$3 b=$4 config=$5
shift 5
rm -rf "$out" && mkdir -p "$out" || exit 1
for side in a b; do
  if [ $side = a ]; then image=$a; else image=$b; fi
  "$tpfemu" run "$config" --no-progress --out "$out/$side" --set system.image="$image" "$@" >"$out/$side.stdout" 2>&1 || {
    echo "run with $image failed:"; cat "$out/$side.stdout"; exit 1; }
done
cmp -s "$a" "$b" && { echo "the two images are the same file: nothing was added"; exit 1; }
status=0
for f in "$out"/a/*; do
  name=$(basename "$f")
  [ "$name" = config.yaml ] && continue  # the record of what ran: the image's path and hash differ, as they should
  # The host memory a run took (run.log's HOST MEMORY lines) grows with the image's own
  # pages: a count of the host, not a figure of the run.
  if ! cmp -s "$f" "$out/b/$name" &&
     ! [ "$(grep -v "HOST MEMORY" "$f")" = "$(grep -v "HOST MEMORY" "$out/b/$name")" ]; then
    echo "$name differs with the program added:"
    diff "$f" "$out/b/$name" | head -20
    status=1
  fi
done
[ "$(ls "$out/a" | wc -l)" = "$(ls "$out/b" | wc -l)" ] || { echo "the runs wrote different reports"; status=1; }
[ $status = 0 ] && echo "same figures: OK ($(ls "$out/a" | wc -l) reports)"
exit $status
