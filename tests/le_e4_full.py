#!/usr/bin/python3
"""E4 at the document's size (issue 25; label `long`): QLE4's sequence A, 50,000 random
requests of 1 byte to 32 KB, untuned HEAP(32K,32K) against tuned HEAP(100M,100M),
through `tpfemu run` (the untuned run executes about 4.7 G instructions: some 13 minutes
of host time). Fails unless each run's heap counters (lestorage.json) are the host
model's for the same requests, and the untuned run's simulated CPU is more than 100
times the tuned run's (the document: 15.44 s against 0.12 s, 129x; docs/e4-le.md).

usage: le_e4_full.py TPFEMU MODEL SOURCE_DIR SCRATCH
"""
import json
import os
import shutil
import subprocess
import sys

tpfemu, model, source, scratch = sys.argv[1:5]
shutil.rmtree(scratch, ignore_errors=True)
os.makedirs(scratch)
RUNS = {"untuned": (32768, "HEAP(32K,32K,ANYWHERE,KEEP) RPTSTG(ON)"),
        "tuned": (100 << 20, "HEAP(100M,100M,ANYWHERE,KEEP) RPTSTG(ON)")}
procs = {}
for name, (_, option) in RUNS.items():
    procs[name] = subprocess.Popen([tpfemu, "run", os.path.join(source, "configs", "e4-heap.yaml"), "--no-progress",
                                    "--set", "workload.message_text=A 50000", "--set", f"system.le.options={option}",
                                    "--out", os.path.join(scratch, name)], stdout=subprocess.DEVNULL,
                                   stderr=subprocess.PIPE, text=True)
failures, cpu = [], {}
for name, p in procs.items():
    err = p.communicate()[1]
    if p.returncode != 0:
        sys.exit(f"FAIL: tpfemu run ({name}): exit {p.returncode}\n{err}")
    size = RUNS[name][0]
    m = subprocess.run([model, "A", "50000", str(size), str(size), "KEEP", "FIRST"], capture_output=True, text=True,
                       check=True).stdout
    want = dict(line.split("=", 1) for line in m.split())
    heap = json.load(open(os.path.join(scratch, name, "lestorage.json")))["enclaves"][0]["heap"]
    for ours, theirs in [("segments_allocated", "segments_allocated"), ("total_used", "total_heap_used"),
                         ("get_requests", "get_requests"), ("free_requests", "free_requests")]:
        if str(heap[ours]) != want[theirs]:
            failures.append(f"{name}: {ours} {heap[ours]}, the model gives {want[theirs]}")
    cpu[name] = json.load(open(os.path.join(scratch, name, "summary.json")))["ms_per_message"]
    print(f"{name}: {heap['segments_allocated']} segments, CPU {cpu[name]:.3f} ms")
ratio = cpu["untuned"] / cpu["tuned"]
if ratio <= 100:
    failures.append(f"untuned / tuned CPU {ratio:.0f}x, not more than 100x (the document's 129x)")
for f in failures:
    print("FAIL:", f)
if failures:
    sys.exit(1)
print(f"E4 A 50000: untuned / tuned CPU {ratio:,.0f}x (document 129x), segments as the model: OK")
