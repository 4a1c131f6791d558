#!/usr/bin/python3
"""tpfemu compare answers the question the two runs were made for (issue 27): E2's pair
(the simple lock before and after PJ46800) at 2 I-streams, compared. Fails unless the
output has, in this order, the headline with B/A and the change, the configuration keys
that differ, what moved most a message with the cycles by cause first (the most cycles a
message moved first), every summary figure with the I-streams' own rows folded
(shown with --all), and the lock's figures matched by its name across the algorithms.

usage: compare_order.py TPFEMU SOURCE_DIR SCRATCH
"""
import os
import shutil
import subprocess
import sys

tpfemu, source, scratch = sys.argv[1:4]
shutil.rmtree(scratch, ignore_errors=True)
os.makedirs(scratch)
dirs = []
for c in ("syslog-csg-loop", "syslog-pj46800"):
    d = os.path.join(scratch, c)
    r = subprocess.run([tpfemu, "run", os.path.join(source, "configs", c + ".yaml"), "--no-progress", "--out", d,
                        "--set", "machine.istreams=2", "--set", "workload.messages=200"], capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit(f"FAIL: {c}: {r.stderr}")
    dirs.append(d)
out = subprocess.run([tpfemu, "compare"] + dirs, capture_output=True, text=True).stdout
full = subprocess.run([tpfemu, "compare"] + dirs + ["--all"], capture_output=True, text=True).stdout
failures = []
order = ["Headline: syslog lines per simulated second", "Configuration: the keys that differ",
         "system.simple_lock.algorithm", "Moved most, a message", "All figures (summary.json)", "locks.json:"]
at = [out.find(s) for s in order]
if -1 in at or at != sorted(at):
    failures.append(f"sections out of order or missing: {list(zip(order, at))}")
moved = [l.split() for l in out[out.find("Moved most"):out.find("All figures")].splitlines()[2:] if l.strip()]
causes = [r for r in moved if r[0] == "cycles:"]
num = lambda t: float(t.replace(",", ""))
amounts = [abs(num(r[3]) - num(r[2])) for r in causes]
if not moved or moved[0][0] != "cycles:" or amounts != sorted(amounts, reverse=True) or len(causes) < 8:
    failures.append(f"the cycles by cause are not first, most cycles a message moved first: {causes}")
if "istreams[0]" in out or "rows of single I-streams (istreams[N].*) left out: --all shows them" not in out:
    failures.append("the I-streams' rows are not folded")
if "istreams[1].busy_cycles" not in full:
    failures.append("--all does not show the I-streams' rows")
if "locks[syslog].csg_attempts" not in out or "locks[csg-loop]" in out:
    failures.append("the lock is not matched by its name")
if failures:
    print(out)
    print("FAIL:\n  " + "\n  ".join(failures))
    sys.exit(1)
print("compare order: OK")
