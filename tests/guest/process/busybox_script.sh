# Run by BusyBox's sh (Debian's busybox-static for s390x) under tpfemu exec and under
# qemu-s390x-static, in a directory holding data.txt: the same output (run.sh busybox).
# Paths are relative: the working directory is the root under tpfemu, the same
# directory under QEMU.
sort data.txt | uniq -c | sort -rn
echo "lines: $(wc -l < data.txt), words: $(cat data.txt | wc -w)"
seq 1 20000 | tr 0 o | grep -c o
x=$(echo inner | tr a-z A-Z); echo "command substitution: $x"
(echo in a subshell; exit 4); echo "subshell status $?"
false | true; echo "pipeline status $?"
sh -c 'exit 7'; echo "child shell status $?"
sort -r data.txt > out.txt && head -n 2 out.txt && rm out.txt
echo background & wait; echo "waited $?"
sleep 0.05 & pid=$!; wait $pid; echo "sleep status $?"
trap 'echo trapped USR1' USR1; kill -USR1 $$; echo after trap
for i in 1 2 3; do printf '%s-' $i; done; echo
cat data.txt | head -n 3 | tail -n 1
exit 5
