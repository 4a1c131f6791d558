#!/usr/bin/python3
"""LE's enclaves through the control program (issue 25, item 5): QLEL (configs/
e4-enclaves.yaml) reaches N deep by LINK and by dynamic call, with small options so that
their sizes are seen to land. Fails unless
  - a dynamic call costs no region storage (our programs are resident in the image),
  - each LINK costs exactly its new enclave's block, initial stack and the initial
    segments of its HEAP and ANYHEAP (page-rounded), BELOWHEAP's below the line,
  - lestorage.json reports N + 1 enclaves, the innermost first, each with one segment
    of each heap begun, HEAP24 used once by the last program, each LINK's block got and
    freed from its caller's ANYHEAP,
  - a second run writes the same bytes,
  - a LINKed LE-conforming program (QLE5) runs on its enclave's own stack: its STACK
    section says how much it used, in one segment; outgrowing that segment ends the
    ECB with a dump that says so,
  - LINK 1 deep writes lestorage.txt exactly as tests/le/lestorage-qlel-link1.txt (LE's
    layout; after a deliberate change, copy the new report there and say why).

usage: le_enclaves.py TPFEMU SOURCE_DIR SCRATCH
"""
import filecmp
import json
import os
import re
import shutil
import subprocess
import sys

tpfemu, source, scratch = sys.argv[1:4]
shutil.rmtree(scratch, ignore_errors=True)
os.makedirs(scratch)
OPTIONS = "STACK(64K,64K) HEAP(16K,16K) ANYHEAP(8K,8K) BELOWHEAP(4K,4K) RPTSTG(ON)"
PAGE = 4096
ENCLAVE_BLOCK = 32 + 4 * 112  # struct le_enclave
page_up = lambda n: (n + PAGE - 1) // PAGE * PAGE
PER_LINK = page_up(ENCLAVE_BLOCK) + 64 * 1024 + 16 * 1024 + 8 * 1024
PER_LINK_BELOW = 4 * 1024
failures = []


def run(text, out, query=True):
    r = subprocess.run([tpfemu, "run", os.path.join(source, "configs", "e4-enclaves.yaml"), "--no-progress",
                        "--set", f"workload.message_text={text}", "--set", f"system.le.options={OPTIONS}",
                        "--out", out], capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit(f"FAIL: tpfemu run {text}: exit {r.returncode}\n{r.stdout}\n{r.stderr}")
    log = open(os.path.join(out, "run.log")).read()
    if not query:
        report = os.path.join(out, "lestorage.json")
        return log, json.load(open(report))["enclaves"] if os.path.exists(report) else []
    m = re.search(r"QLEL: . reached: (\d+) bytes .* below 16 MB (\d+)", log)
    if not m:
        sys.exit(f"FAIL: {text}: no QLEL line in run.log:\n{log}")
    return int(m.group(1)), int(m.group(2)), json.load(open(os.path.join(out, "lestorage.json")))["enclaves"]


base, base24, _ = run("C 0", os.path.join(scratch, "C0"))
for n in (1, 3):
    got, got24, enclaves = run(f"C {n}", os.path.join(scratch, f"C{n}"))
    if (got, got24) != (base, base24):
        failures.append(f"C {n}: {got} / {got24} bytes obtainable, not {base} / {base24} as with no call")
    if len(enclaves) != 1:
        failures.append(f"C {n}: {len(enclaves)} enclaves reported, not 1")
    out = os.path.join(scratch, f"L{n}")
    got, got24, enclaves = run(f"L {n}", out)
    if got != base - n * PER_LINK or got24 != base24 - n * PER_LINK_BELOW:
        failures.append(f"L {n}: {got} / {got24} bytes obtainable, not {base - n * PER_LINK} / "
                        f"{base24 - n * PER_LINK_BELOW} ({n} LINKs of {PER_LINK} / {PER_LINK_BELOW})")
    if [e["depth"] for e in enclaves] != list(range(n, -1, -1)):
        failures.append(f"L {n}: enclave depths {[e['depth'] for e in enclaves]}, not {n}..0")
    for e in enclaves:
        for heap in ("heap", "anyheap", "belowheap"):
            if e[heap]["segments_allocated"] != 1:
                failures.append(f"L {n} depth {e['depth']}: {heap} has {e[heap]['segments_allocated']} segments")
        want24 = 1 if e["depth"] == n else 0
        if (e["heap24"]["get_requests"], e["heap24"]["free_requests"]) != (want24, want24):
            failures.append(f"L {n} depth {e['depth']}: heap24 gets/frees {e['heap24']['get_requests']}/"
                            f"{e['heap24']['free_requests']}, not {want24}")
        wantany = 0 if e["depth"] == n else 1
        if (e["anyheap"]["get_requests"], e["anyheap"]["free_requests"]) != (wantany, wantany):
            failures.append(f"L {n} depth {e['depth']}: anyheap gets/frees {e['anyheap']['get_requests']}/"
                            f"{e['anyheap']['free_requests']}, not {wantany} (the LINK block)")
        if e["heap"]["initial_size"] != 16384 or e["anyheap"]["initial_size"] != 8192:
            failures.append(f"L {n}: the options did not land: {e['heap']['initial_size']}, {e['anyheap']['initial_size']}")
    again = os.path.join(scratch, f"L{n}-again")
    run(f"L {n}", again)
    for f in ("lestorage.txt", "lestorage.json", "summary.txt"):
        if not filecmp.cmp(os.path.join(out, f), os.path.join(again, f), shallow=False):
            failures.append(f"L {n}: {f} differs between two runs")
log, enclaves = run("5 DEEP 20", os.path.join(scratch, "QLE5"), query=False)
linked = [e for e in enclaves if e["depth"] == 1]
stack = linked[0]["stack"] if linked else None
if not stack or not 20 * 1000 < stack["largest_used_any_thread"] < 64 * 1024 or stack["segments_allocated"] != 1:
    failures.append(f"QLE5 LINKed, DEEP 20: its enclave's stack is {stack}, not 20-64 KB used in one segment")
log, _ = run("5 DEEP 80", os.path.join(scratch, "QLE5-deep"), query=False)
dumps = open(os.path.join(scratch, "QLE5-deep", "dumps.txt")).read()
if "a LINKed enclave" not in dumps or "outgrown" not in dumps:
    failures.append("QLE5 LINKed, DEEP 80: no dump saying its enclave's stack was outgrown")
expected = os.path.join(source, "tests", "le", "lestorage-qlel-link1.txt")
if not filecmp.cmp(os.path.join(scratch, "L1", "lestorage.txt"), expected, shallow=False):
    failures.append(f"L 1: lestorage.txt is not {expected}: diff them")
text = open(os.path.join(scratch, "L3", "lestorage.txt")).read()
order = ["THREADSTACK statistics:", "LIBSTACK statistics:", "THREADHEAP statistics:", "HEAP statistics:",
         "HEAP24 statistics:", "ANYHEAP statistics:", "BELOWHEAP statistics:", "End of Storage Report"]
at = [text.find(s) for s in order]
if -1 in at or at != sorted(at):
    failures.append(f"lestorage.txt: sections missing or out of LE's order: {dict(zip(order, at))}")
for f in failures:
    print("FAIL:", f)
if failures:
    sys.exit(1)
print(f"enclaves: LINK costs {PER_LINK} + {PER_LINK_BELOW} below, a call nothing: OK")
