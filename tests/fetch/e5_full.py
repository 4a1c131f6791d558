#!/usr/bin/python3
"""E5 at the document's size (seed 001): scripts/experiment-fetch's studies at --scale 1
(5,000 LOADs of IEFBR14, 1,000 of ARCCTL), and the document's statements as directions:
  - IEFBR14: the same CPU, EXCPs (2 a LOAD: 10,000) and elapsed at every block size;
  - ARCCTL: 32760 less elapsed and CPU than 6144 (the document: almost half, greatly less);
  - the PDSE (NOPACK,NOPRIME): less elapsed, fewer EXCPs and less CPU than any PDS; with
    PACK,PRIME less elapsed than the 6144 PDS;
  - 32760 the fewest tracks; the PDS of 4,200 members slower than that of 2, the PDSEs alike.
Prints the tables (the E5 rows of README.md and docs/e5-fetch.md come from them).

usage: e5_full.py TPFEMU SOURCE_DIR OUT
"""
import json
import os
import subprocess
import sys

tpfemu, source, out = sys.argv[1:4]
env = dict(os.environ, TPFEMU_BUILD_DIR=os.path.dirname(os.path.abspath(tpfemu)), TPFEMU_NO_SETUP="1")
r = subprocess.run([os.path.join(source, "scripts", "experiment-fetch"), "--out", out, "--no-plots",
                    "--studies", "blocksize,arcctl,space,directory"], capture_output=True, text=True, env=env)
print(r.stdout)
if r.returncode != 0:
    sys.exit(f"FAIL: experiment-fetch: exit {r.returncode}\n{r.stderr}")
res = json.load(open(os.path.join(out, "results.json")))
failures = []
bs = res["blocksize"]
if len({(x["cpu_s"], x["excps"], x["elapsed_s"]) for x in bs}) != 1 or bs[0]["excps"] != 10000:
    failures.append("IEFBR14: the block size changed its figures, or not 10,000 EXCPs")
arc = {x["run"]: x for x in res["arcctl"]}
if not (arc["PDS 32760"]["elapsed_s"] < arc["PDS 6144"]["elapsed_s"] and arc["PDS 32760"]["cpu_s"] < arc["PDS 6144"]["cpu_s"]):
    failures.append("ARCCTL: 32760 not faster and cheaper than 6144")
pdse = arc["PDSE (NOPACK,NOPRIME)"]
for k in ("PDS 6144", "PDS 23440", "PDS 32760"):
    if not (pdse["elapsed_s"] < arc[k]["elapsed_s"] and pdse["excps"] < arc[k]["excps"] and pdse["cpu_s"] < arc[k]["cpu_s"]):
        failures.append(f"ARCCTL: the PDSE not ahead of {k}")
if not arc["PDSE (PACK,PRIME)"]["elapsed_s"] < arc["PDS 6144"]["elapsed_s"]:
    failures.append("ARCCTL: PDSE PACK,PRIME not faster than the 6144 PDS")
sp = {x["run"]: x["tracks"] for x in res["space"]}
if not sp["PDS 32760"] < sp["PDS 23440"] < sp["PDS 6144"]:
    failures.append(f"space: {sp}")
d = {(x["run"], x["module"]): x for x in res["directory"]}
if not d[("PDS 4,200 members", "IEFBR14")]["elapsed_s"] > d[("PDS 2 members", "IEFBR14")]["elapsed_s"]:
    failures.append("directory: the 4,200-member PDS no slower")
a, b = d[("PDSE 2 members", "IEFBR14")]["elapsed_s"], d[("PDSE 4,200 members", "IEFBR14")]["elapsed_s"]
if abs(b / a - 1) > 0.01:
    failures.append(f"directory: PDSEs not alike ({a} s against {b} s)")
if failures:
    print("FAIL:\n  " + "\n  ".join(failures))
    sys.exit(1)
print("E5 at full size, the document's directions: OK")
