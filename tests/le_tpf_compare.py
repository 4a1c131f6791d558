#!/usr/bin/python3
"""E4's program in the TPF image (QLE4 on LE storage: system.le.programs) against the LE
heap's host model (issue 25): runs configs/e4-heap.yaml with the given sequence, size and
HEAP option through `tpfemu run`, and fails unless RPTSTG's report (lestorage.json)
gives every counter le_heap_model gives for the same requests, lestorage.txt has LE's
lines in LE's order, the ECB heap was not used, and a second run writes the same bytes.

usage: le_tpf_compare.py TPFEMU MODEL SOURCE_DIR SCRATCH SEQ N INIT INCR KEEP|FREE
"""
import filecmp
import json
import os
import shutil
import subprocess
import sys

tpfemu, model, source, scratch, seq, n, init, incr, disp = sys.argv[1:10]
shutil.rmtree(scratch, ignore_errors=True)
os.makedirs(scratch)
option = f"HEAP({init},{incr},ANYWHERE,{disp}) RPTSTG(ON)"


def run(out):
    r = subprocess.run([tpfemu, "run", os.path.join(source, "configs", "e4-heap.yaml"), "--no-progress",
                        "--set", f"workload.message_text={seq} {n}", "--set", f"system.le.options={option}",
                        "--out", out], capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit(f"FAIL: tpfemu run: exit {r.returncode}\n{r.stdout}\n{r.stderr}")


first, second = os.path.join(scratch, "1"), os.path.join(scratch, "2")
run(first)
run(second)
size = {"K": 1024, "M": 1 << 20}
m = subprocess.run([model, seq, n, str(int(init[:-1]) * size[init[-1]]), str(int(incr[:-1]) * size[incr[-1]]), disp,
                    "FIRST"], capture_output=True, text=True, check=True).stdout
want = dict(line.split("=", 1) for line in m.split())
enclaves = json.load(open(os.path.join(first, "lestorage.json")))["enclaves"]
failures = []
if len(enclaves) != 1:
    failures.append(f"{len(enclaves)} enclaves in lestorage.json, not 1")
heap = enclaves[0]["heap"] if enclaves else {}
for ours, model_key in [("initial_size", "init_size"), ("increment_size", "incr_size"), ("disposition", "disposition"),
                        ("get_requests", "get_requests"), ("free_requests", "free_requests"),
                        ("segments_allocated", "segments_allocated"), ("segments_freed", "segments_freed"),
                        ("total_used", "total_heap_used"), ("in_use_at_end", "bytes_in_use"), ("errors", "errors"),
                        ("get_failures", "get_failures")]:
    if str(heap.get(ours)) != want[model_key]:
        failures.append(f"{ours}: {heap.get(ours)} in lestorage.json, the model gives {want[model_key]}")
text = open(os.path.join(first, "lestorage.txt")).read()
order = ["Storage Report for Enclave QLE4", "HEAP statistics:", "Initial size:", "Increment size:",
         "Total heap storage used (sugg. initial size):", "Successful Get Heap requests:",
         "Successful Free Heap requests:", "Number of segments allocated:", "Number of segments freed:",
         "End of Storage Report"]
at = 0
for label in order:
    at = text.find(label, at)
    if at < 0:
        failures.append(f"lestorage.txt: no {label!r} (in LE's order)")
        break
if os.path.exists(os.path.join(first, "heap.json")):
    failures.append("heap.json was written: the ECB heap was used by a program on LE storage")
for name in sorted(os.listdir(first)):
    if name != "config.yaml" and not filecmp.cmp(os.path.join(first, name), os.path.join(second, name), shallow=False):
        failures.append(f"{name} differs between two runs")
for f in failures:
    print("FAIL", f)
if failures:
    sys.exit(1)
print(f"E4 {seq} {n} HEAP({init},{incr},{disp}): {heap['segments_allocated']} segments, as the model: OK")
