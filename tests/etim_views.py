#!/usr/bin/python3
"""ZTRAP EI as an analyst reads it (issue 27): the TLS run profiled over the summary's
measurement window (system.ztrap.ei: measurement). Fails unless
  - etim.json's instructions are the summary's to within 0.01% (the same window), and a
    program's EXECUTIONS in etim.txt add up over all its rows to the header's INSTRUCTIONS;
  - the view by ECB program is there (text and JSON): QTLS's samples include the heap's
    functions it called (inclusive), each place named by segment, file and function, the
    places adding up to the program and the programs to every sample;
  - the P IS column names I-streams (not always 000), and each program's samples split by
    I-stream add up to its total;
  - PROG=QSSL keeps QSSL's ECBs with the code they call (the heap's lock), not only QSSL's own;
  - PROG=QZZ1, a program the demo's QZZ0 ENTERs (issue 48), has its rows: samples go to the
    program entered until its BACK, so QZZ1's own code is under QZZ1, not QZZ0.

usage: etim_views.py TPFEMU SOURCE_DIR SCRATCH
"""
import json
import os
import re
import shutil
import subprocess
import sys

tpfemu, source, scratch = sys.argv[1:4]
shutil.rmtree(scratch, ignore_errors=True)
os.makedirs(scratch)
failures = []


def check(ok, what):
    if not ok:
        failures.append(what)


def run(name, sets):
    out = os.path.join(scratch, name)
    cmd = [tpfemu, "run", os.path.join(source, "configs", "tls-baseline.yaml"), "--no-progress", "--out", out,
           "--set", "workload.messages=300", "--set", "workload.warmup=50"]
    for s in sets:
        cmd += ["--set", s]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit(f"FAIL: {' '.join(cmd)}: {r.stderr}")
    return out


out = run("window", ["system.ztrap.ei=measurement"])
summary = json.load(open(os.path.join(out, "summary.json")))
etim = json.load(open(os.path.join(out, "etim.json")))
text = open(os.path.join(out, "etim.txt")).read()
check(abs(etim["instructions"] / summary["instructions"] - 1) < 1e-4,
      f"etim.json {etim['instructions']} instructions, summary.json {summary['instructions']}")
m = re.search(r"INSTRUCTIONS ([0-9,]+)", text)
header = int(m.group(1).replace(",", ""))
progs = re.search(r"PROGRAMS BY COUNT \(samples\)\n.*?\n(.*?)\n\n", text, re.S).group(1).splitlines()
check(sum(int(l.split()[3].replace(",", "")) for l in progs) == header,
      "the programs' EXECUTIONS do not add up to the header's INSTRUCTIONS")
view = etim.get("by_ecb_program", [])
check("BY ECB PROGRAM, INCLUSIVE" in text and view, "no view by ECB program")
total = sum(r["count"] for r in etim["rows"])
check(sum(v["samples"] for v in view) == total, "the programs' samples are not every sample")
check(re.search(r"^(QTLS|QSSL) +[0-9,]+ +[0-9.]+%", text, re.M) is not None, "no program row in the view")
for v in view:
    check(sum(p["samples"] for p in v["places"]) == v["samples"], f"{v['program']}: places do not add up")
    check(sum(v["by_istream"]) == v["samples"], f"{v['program']}: I-streams do not add up")
qtls = next((v for v in view if v["program"] == "QTLS"), None)
check(qtls is not None and any(p["function"].startswith("eheap") for p in qtls["places"])
      and any(p["segment"] == "QTLS" and p["function"] == "QTLS" for p in qtls["places"]),
      "QTLS's view does not hold its own code and the heap it called")
check(any(p["file"] for p in qtls["places"]), "no place names its file")
check(re.search(r"^P 00[1-3] ", text, re.M) is not None, "the P IS column never names an I-stream but 000")

# PROG= on the ECB's program keeps what it called: the operator entry through a YAML file.
cfg = os.path.join(scratch, "qssl.yaml")
with open(cfg, "w") as f:
    f.write("operator:\n  - at: 0\n    command: ZTRAP EI START PROG=QSSL\n")
out = os.path.join(scratch, "qssl")
r = subprocess.run([tpfemu, "run", os.path.join(source, "configs", "tls-baseline.yaml"), cfg, "--no-progress", "--out",
                    out, "--set", "workload.messages=300", "--set", "workload.warmup=50"], capture_output=True, text=True)
if r.returncode != 0:
    sys.exit(f"FAIL: PROG=QSSL run: {r.stderr}")
etim = json.load(open(os.path.join(out, "etim.json")))
view = etim.get("by_ecb_program", [])
check([v["program"] for v in view] == ["QSSL"] and any("heap" in p["function"] for p in view[0]["places"]),
      f"PROG=QSSL's view: {[v['program'] for v in view]}")
# The view's shares are of its own samples, not of the PROG= rows' (which leave out the heap).
check(re.search(r"^QSSL +[0-9,]+ +100\.00%", open(os.path.join(out, "etim.txt")).read(), re.M) is not None,
      "PROG=QSSL: its row in the view is not 100% of the view")

# PROG= on a program entered by ENTER, not by an input message: the demo's QZZ1.
cfg = os.path.join(scratch, "qzz1.yaml")
with open(cfg, "w") as f:
    f.write("operator:\n  - at: 0\n    command: ZTRAP EI START PROG=QZZ1\n")
out = os.path.join(scratch, "qzz1")
r = subprocess.run([tpfemu, "run", os.path.join(source, "configs", "demo.yaml"), cfg, "--no-progress", "--out", out,
                    "--set", "workload.messages=500"], capture_output=True, text=True)
if r.returncode != 0:
    sys.exit(f"FAIL: PROG=QZZ1 run: {r.stderr}")
etim = json.load(open(os.path.join(out, "etim.json")))
view = etim.get("by_ecb_program", [])
check([v["program"] for v in view] == ["QZZ1"] and any(p["function"] == "QZZ1" for p in view[0]["places"]),
      f"PROG=QZZ1's view: {[v['program'] for v in view]}")
text = open(os.path.join(out, "etim.txt")).read().partition("BY ECB PROGRAM, INCLUSIVE")[2]
check(re.search(r"^QZZ1 +[0-9,]+ +100\.00%", text, re.M) is not None, "PROG=QZZ1: no QZZ1 row in etim.txt's view")

if failures:
    print("FAIL:\n  " + "\n  ".join(failures))
    sys.exit(1)
print("ETIM views: OK")
