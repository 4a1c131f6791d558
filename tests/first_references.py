#!/usr/bin/python3
"""First references to the ECB's stack and to the ECB heap's 4 KB pages (issue 47 item
3): each page is backed on its first reference by a page fault the paging subsystem
takes, charged system.service_cost + system.paging.first_reference_cost, counted in
paging.txt and paging.json (real storage not modelled: they are the whole report).
  - the demo (QZZ0, one ECB a message; one I-stream, one terminal): at least one first reference a message (its
    stack), each charged what the two keys say; 10,000 cycles more a fault move the
    I-stream's cycles by exactly faults x 10,000 and the instructions not at all;
  - E3d's region with its heap in 4 KB frames takes at least a first reference for each
    page of its 8 MB working set more than with 1 MB frames (backed whole, at the
    heap's frame request).

usage: first_references.py TPFEMU SOURCE_DIR SCRATCH
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
MESSAGES = 200


def run(name, config, *sets):
    out = os.path.join(scratch, name)
    cmd = [tpfemu, "run", os.path.join(source, "configs", config), "--out", out, "--no-progress"]
    for s in sets:
        cmd += ["--set", s]
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
    load = lambda f: json.load(open(os.path.join(out, f))) if os.path.exists(os.path.join(out, f)) else {}
    text = open(os.path.join(out, "paging.txt")).read() if os.path.exists(os.path.join(out, "paging.txt")) else ""
    return load("paging.json"), load("summary.json"), text


def fail(why):
    sys.exit(f"first_references: {why}")


ONE = [f"workload.messages={MESSAGES}", "machine.istreams=1", "workload.terminals=1"]  # the same path at any cost
base_p, base_s, base_txt = run("demo", "demo.yaml", *ONE)
faults = base_p.get("first_references", 0)
if faults < MESSAGES or "first references (a fault and a frame each)" not in base_txt:
    fail(f"the demo's {MESSAGES} ECBs took {faults} first references, fewer than one a stack")
if base_p["first_reference_cycles"] != faults * (400 + 256):
    fail(f"{faults} faults charged {base_p['first_reference_cycles']} cycles, not {faults} x (400 + 256)")
more_p, more_s, _ = run("demo-more", "demo.yaml", *ONE,
                        f"system.paging.first_reference_cost={256 + EXTRA}")
if more_p["first_references"] != faults:
    fail(f"the cost changed the faults taken: {faults} against {more_p['first_references']}")
if more_s["instructions"] != base_s["instructions"]:
    fail("the fault's cost moved the instructions")
diff = sum(i["cycles"] for i in more_s["istreams"]) - sum(i["cycles"] for i in base_s["istreams"])
if diff != faults * EXTRA:
    fail(f"CPU differs by {diff} cycles, not {faults} x {EXTRA}")

REGION = ["workload.prelude_text=8 2 0 0 0", "workload.terminals=2", "workload.messages=20", "workload.warmup=0"]
large_p, _, _ = run("heap-1m", "e3-large-pages.yaml", *REGION)
small_p, _, _ = run("heap-4k", "e3-large-pages.yaml", *REGION, "system.ecb_heap.large_frames=false")
more = small_p.get("first_references", 0) - large_p.get("first_references", 0)
if more < 8 * 256:
    fail(f"the heap in 4 KB frames took {more} first references more than in 1 MB frames, fewer than its "
         f"{8 * 256} pages")
print(f"demo: {faults} first references, {faults * EXTRA} cycles more at +{EXTRA} each; "
      f"the heap's 4 KB pages: {more} more: OK")
