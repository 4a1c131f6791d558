#!/usr/bin/python3
"""E4's program in the TPF image (QLE4 on LE storage: system.le.programs) against the LE
heap's host model (issue 25): runs configs/e4-heap.yaml with the given sequence, size and
HEAP option through `tpfemu run`, and fails unless RPTSTG's report (lestorage.json)
gives every counter le_heap_model gives for the same requests, lestorage.txt has LE's
lines in LE's order, the ECB heap was not used, and a second run writes the same bytes.
With "pools", HEAPPOOLS(ON) at IBM's default cells: the pools' counters too (the model's
"pools"), and with EXPECTED, lestorage.txt must be that file, byte for byte.

usage: le_tpf_compare.py TPFEMU MODEL SOURCE_DIR SCRATCH SEQ N INIT INCR KEEP|FREE [pools [EXPECTED]]
"""
import filecmp
import json
import os
import shutil
import subprocess
import sys

tpfemu, model, source, scratch, seq, n, init, incr, disp = sys.argv[1:10]
pools = len(sys.argv) > 10 and sys.argv[10] == "pools"
expected = sys.argv[11] if len(sys.argv) > 11 else None
shutil.rmtree(scratch, ignore_errors=True)
os.makedirs(scratch)
option = f"HEAP({init},{incr},ANYWHERE,{disp}) RPTSTG(ON)" + (" HEAPPOOLS(ON)" if pools else "")


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
                    "FIRST"] + (["pools"] if pools else []), capture_output=True, text=True, check=True).stdout
want = dict(line.split("=", 1) for line in m.splitlines())
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
if pools:
    hp = enclaves[0].get("heappools") if enclaves else None
    if not hp:
        failures.append("no heappools in lestorage.json")
    else:
        if str(hp["requests_greater_than_largest_cell"]) != want["big_requests"]:
            failures.append(f"requests greater than the largest cell: {hp['requests_greater_than_largest_cell']}, "
                            f"the model gives {want['big_requests']}")
        for i, q in enumerate(hp["pools"]):
            ours = (f"{q['cell_size']} {q['extent_percent']} {q['element_size']} {q['cells_per_extent']} "
                    f"gets={q['get_requests']} frees={q['free_requests']} extents={q['extents_allocated']} "
                    f"max_used={q['maximum_cells_used']} in_use={q['cells_in_use']}")
            if ours != want.get(f"pool{i + 1}"):
                failures.append(f"pool {i + 1}: {ours} in lestorage.json, the model gives {want.get(f'pool{i + 1}')}")
text = open(os.path.join(first, "lestorage.txt")).read()
order = ["Storage Report for Enclave QLE4", "HEAP statistics:", "Initial size:", "Increment size:",
         "Total heap storage used (sugg. initial size):", "Successful Get Heap requests:",
         "Successful Free Heap requests:", "Number of segments allocated:", "Number of segments freed:"]
if pools:
    order += ["HEAPPOOLS Statistics:", "Pool  1 size:", "Requests greater than the largest cell size:",
              "HEAPPOOLS Summary:", "Suggested Percentages for current Cell Sizes:", "Suggested Cell Sizes:"]
order += ["End of Storage Report"]
at = 0
for label in order:
    at = text.find(label, at)
    if at < 0:
        failures.append(f"lestorage.txt: no {label!r} (in LE's order)")
        break
if expected and text != open(expected).read():
    failures.append(f"lestorage.txt is not {expected} (diff {os.path.join(first, 'lestorage.txt')} {expected})")
if os.path.exists(os.path.join(first, "heap.json")):
    failures.append("heap.json was written: the ECB heap was used by a program on LE storage")
for name in sorted(os.listdir(first)):
    if name != "config.yaml" and not filecmp.cmp(os.path.join(first, name), os.path.join(second, name), shallow=False):
        failures.append(f"{name} differs between two runs")
for f in failures:
    print("FAIL", f)
if failures:
    sys.exit(1)
print(f"E4 {seq} {n} HEAP({init},{incr},{disp}){' HEAPPOOLS(ON)' if pools else ''}: "
      f"{heap['segments_allocated']} segments, as the model: OK")
