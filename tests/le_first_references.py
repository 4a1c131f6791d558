#!/usr/bin/python3
"""First references to LE storage (issue 47 item 3): each page LE_GETMAIN gives is
backed on its first reference by a page fault the paging subsystem takes, charged
system.service_cost + system.paging.first_reference_cost. QLE4 tuned (HEAP(100M,100M),
a few hundred requests), twice: the default cost and 10,000 cycles more. Fails unless
  - paging.txt and paging.json count the first references (real storage not modelled),
    and each charged what the two keys say,
  - the two runs take the same faults and their CPU differs by exactly faults x 10,000,
  - the heap's counters (lestorage.json) are the same: the cost moves no figure but CPU.

usage: le_first_references.py TPFEMU SOURCE_DIR SCRATCH
"""
import json
import os
import shutil
import subprocess
import sys

tpfemu, source, scratch = sys.argv[1:4]
shutil.rmtree(scratch, ignore_errors=True)
os.makedirs(scratch)
EXTRA = 10000


def run(name, *sets):
    out = os.path.join(scratch, name)
    cmd = [tpfemu, "run", os.path.join(source, "configs", "e4-heap.yaml"), "--out", out,
           "--set", "workload.message_text=A 300", "--set", "system.le.options=HEAP(100M,100M) RPTSTG(ON)"]
    for s in sets:
        cmd += ["--set", s]
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
    load = lambda f: json.load(open(os.path.join(out, f)))
    return load("paging.json"), load("summary.json"), load("lestorage.json"), open(os.path.join(out, "paging.txt")).read()


def fail(why):
    sys.exit(f"le_first_references: {why}")


base_p, base_s, base_le, base_txt = run("base")
more_p, more_s, more_le, _ = run("more", f"system.paging.first_reference_cost={256 + EXTRA}")
faults = base_p["first_references"]
if faults <= 0 or "first references (a fault and a frame each)" not in base_txt:
    fail(f"no first references counted: {base_p}")
if base_p["first_reference_cycles"] != faults * (400 + 256):
    fail(f"{faults} faults charged {base_p['first_reference_cycles']} cycles, not {faults} x (400 + 256)")
if more_p["first_references"] != faults:
    fail(f"the cost changed the faults taken: {faults} against {more_p['first_references']}")
diff = more_s["istreams"][0]["cycles"] - base_s["istreams"][0]["cycles"]
if diff != faults * EXTRA:
    fail(f"CPU differs by {diff} cycles, not {faults} x {EXTRA}")
if base_le["enclaves"][0]["heap"] != more_le["enclaves"][0]["heap"]:
    fail("the heap's counters moved with the fault's cost")
print(f"{faults} first references, {faults * EXTRA} cycles more at +{EXTRA} each: OK")
