#!/usr/bin/python3
"""`tpfemu run --trace FILE` (issue 32): the run's events in the Trace Event format.
Runs the demo and an E3 paging run (paging to DASD, with a timeline) with a trace, and fails unless
  - the file parses as JSON (an object: traceEvents, displayTimeUnit "ns", otherData);
  - it has the event kinds it should: a thread_name per I-stream ("I-stream N"), ECB
    dispatches (X, named by program, args ecb/instructions/cycles), SVCs, idle; the E3 run
    page waits (async b/e) and the timeline's counters (C);
  - the dispatch slices are as many as summary.json's control_program.dispatches, and the
    SVC events as many as its svcs, exactly;
  - on each I-stream's track, the slices are in time order in the file, nest (an SVC
    inside its ECB's dispatch, whose ECB number it carries), and lie within the run's
    simulated time (otherData.simulated_us, at least the measurement window);
  - a tiny system.trace.max_events writes exactly that many events, then the note (in
    otherData, on standard error, and as a last instant event);
  - the same run twice writes the same bytes; a trace file that cannot be written is an
    error naming it, before the run.

usage: trace_test.py TPFEMU SOURCE_DIR SCRATCH
"""
import json
import os
import shutil
import subprocess
import sys

tpfemu, source, scratch = (os.path.abspath(a) for a in sys.argv[1:4])
shutil.rmtree(scratch, ignore_errors=True)
os.makedirs(scratch)
# Paging to DASD at the demo's size (as tests/reference_outputs.py's paging-dasd), with a timeline.
E3 = ["configs/demo.yaml", "--set", "system.image=tpf_io.elf", "--set", "workload.program=QPGT",
      "--set", "workload.message_text=10 2", "--set", "workload.terminals=2", "--set", "workload.messages=20",
      "--set", "system.paging.real_storage=8M", "--set", "machine.dasd.page_volumes=16",
      "--set", "system.timeline=500ms"]
failures = []


def check(ok, what):
    if not ok:
        failures.append(what)
        print("FAIL:", what)


def run(name, args, trace, expect=0):
    out = os.path.join(scratch, name)
    p = subprocess.run([tpfemu, "run"] + args + ["--out", out, "--no-progress", "--trace", trace],
                       cwd=source, capture_output=True, text=True)
    if p.returncode != expect:
        sys.exit(f"{name}: exit status {p.returncode}, expected {expect}\n{p.stderr}")
    return out, p


def load(path):
    with open(path) as f:
        return json.load(f)


def check_trace(name, trace, summary, page_waits):
    t = load(trace)
    check(set(t) == {"traceEvents", "displayTimeUnit", "otherData"} and t["displayTimeUnit"] == "ns",
          f"{name}: the object form of the Trace Event format")
    events, other = t["traceEvents"], t["otherData"]
    istreams = len(summary["istreams"])
    names = {e["tid"]: e["args"]["name"] for e in events if e["ph"] == "M" and e["name"] == "thread_name"}
    check(names == {i: f"I-stream {i}" for i in range(istreams)}, f"{name}: one named track per I-stream: {names}")
    counted = [e for e in events if e["ph"] != "M"]
    check(other["events"] == len(counted) and not other["capped"], f"{name}: otherData counts every event")
    dispatches = [e for e in events if e.get("cat") == "ecb"]
    svcs = [e for e in events if e.get("cat") == "svc"]
    idle = [e for e in events if e.get("cat") == "idle"]
    cp = summary["control_program"]
    check(len(dispatches) == cp["dispatches"],
          f"{name}: {len(dispatches)} dispatch slices, summary.json's dispatches {cp['dispatches']}")
    check(len(svcs) == cp["svcs"], f"{name}: {len(svcs)} SVC events, summary.json's svcs {cp['svcs']}")
    check(idle and all(e["ph"] == "X" for e in idle), f"{name}: idle slices")
    check(all(e["name"] == "QZZ0" or e["name"].startswith("Q") for e in dispatches) and
          all(set(e["args"]) == {"ecb", "instructions", "cycles"} for e in dispatches),
          f"{name}: dispatches named by program, with the ECB, instructions and cycles")
    check(sum(e["args"]["instructions"] for e in dispatches) > 0, f"{name}: instructions counted")
    end = other["simulated_us"]
    check(end >= float(summary["simulated_seconds"]) * 1e6, f"{name}: the run ({end} us) holds the window")
    # Each track: in time order in the file, inside the run, an SVC inside its ECB's dispatch.
    for i in range(istreams):
        track = [e for e in events if e["ph"] == "X" and e["tid"] == i]
        check(all(a["ts"] <= b["ts"] for a, b in zip(track, track[1:])), f"{name}: I-stream {i} in time order")
        check(all(0 <= e["ts"] and e["ts"] + e["dur"] <= end + 0.001 for e in track),
              f"{name}: I-stream {i} within the run")
        parent = None
        for e in track:
            if e["cat"] == "svc":
                check(parent is not None and parent["args"]["ecb"] == e["args"]["ecb"] and
                      parent["ts"] <= e["ts"] and e["ts"] + e["dur"] <= parent["ts"] + parent["dur"] + 0.0005,
                      f"{name}: I-stream {i}: SVC at {e['ts']} us inside its ECB's dispatch")
            else:
                check(parent is None or e["ts"] >= parent["ts"] + parent["dur"] - 0.0005,
                      f"{name}: I-stream {i}: {e['name']} at {e['ts']} us after the slice before")
                parent = e if e["cat"] == "ecb" else None
    begins = [e for e in events if e["ph"] == "b"]
    ends = [e for e in events if e["ph"] == "e"]
    if page_waits:
        check(len(begins) == page_waits and len(ends) <= len(begins) and ends,
              f"{name}: {len(begins)} page waits begun, paging.json's fault_waits {page_waits}")
        counters = {e["name"] for e in events if e["ph"] == "C"}
        check({"messages_per_s", "cpu_percent"} <= counters, f"{name}: the timeline's counters: {counters}")
    return t


# The demo, twice: the same bytes.
demo_trace = os.path.join(scratch, "demo.trace.json")
out, p = run("demo", ["configs/demo.yaml"], demo_trace)
check(f"trace: {demo_trace}" in p.stdout, "run names the trace it wrote")
check_trace("demo", demo_trace, load(os.path.join(out, "summary.json")), 0)
again = os.path.join(scratch, "demo-again.trace.json")
run("demo-again", ["configs/demo.yaml"], again)
with open(demo_trace, "rb") as a, open(again, "rb") as b:
    check(a.read() == b.read(), "demo: the same run writes the same trace bytes")

# E3: paging to DASD, page waits and counters.
e3_trace = os.path.join(scratch, "e3.trace.json")
out, p = run("e3", E3, e3_trace)
paging = load(os.path.join(out, "paging.json"))
waits = paging.get("fault_waits", paging.get("counters", {}).get("fault_waits"))
check(isinstance(waits, int) and waits > 0, f"e3: paging.json's fault_waits: {waits}")
check_trace("e3", e3_trace, load(os.path.join(out, "summary.json")), waits)

# The cap: exactly max_events events, then the note everywhere.
capped = os.path.join(scratch, "capped.trace.json")
out, p = run("capped", ["configs/demo.yaml", "--set", "system.trace.max_events=25"], capped)
t = load(capped)
counted = [e for e in t["traceEvents"] if e["ph"] != "M"]
note = t["otherData"].get("note", "")
check(len(counted) == 26 and counted[-1]["name"] == "trace capped" and counted[-1]["args"]["note"] == note,
      f"cap: 25 events and the note's event ({len(counted)} events)")
check(t["otherData"]["capped"] and note.startswith("trace capped at 25 events at simulated time ") and
      note.endswith("; raise system.trace.max_events") and note in p.stderr, f"cap: the note ({note!r})")

# A trace file that cannot be written: an error naming it, and no run.
bad = os.path.join(scratch, "no-such-folder", "t.json")
q = subprocess.run([tpfemu, "run", "configs/demo.yaml", "--out", os.path.join(scratch, "bad"), "--no-progress",
                    "--trace", bad], cwd=source, capture_output=True, text=True)
check(q.returncode == 2 and bad in q.stderr and "summary" not in q.stdout, f"unwritable trace: {q.stderr.strip()}")

if failures:
    sys.exit(f"{len(failures)} failure(s)")
print("trace: demo, E3 paging, cap, determinism: OK")
