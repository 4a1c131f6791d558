#!/usr/bin/python3
"""tpfemu compare answers the question the two runs were made for (issue 27): E2's pair
(the simple lock before and after PJ46800) at 2 I-streams, compared. Fails unless the
output has, in this order, the headline with B/A and the change, the configuration keys
that differ, what moved most a message with the cycles by cause first (the most cycles a
message moved first), every summary figure with the I-streams' own rows folded
(shown with --all), and the lock's figures matched by its name across the algorithms; and
that ETIM's differences (two demo runs) rank the programs whose cycles moved most first,
with the samples taken while no ECB ran folded away (shown with --all).

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
# ETIM's differences (issue 48): the programs whose cycles moved most first, each program's
# figures together, and the samples taken while no ECB ran folded away (--all shows them).
# Two demo runs with ZTRAP EI for the whole run, 200 and 300 messages.
etim_dirs = []
for n in (200, 300):
    d = os.path.join(scratch, f"demo-{n}")
    r = subprocess.run([tpfemu, "run", os.path.join(source, "configs", "demo.yaml"), "--no-progress", "--out", d,
                        "--set", f"workload.messages={n}", "--set", "system.ztrap.ei=whole-run"],
                       capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit(f"FAIL: demo {n}: {r.stderr}")
    etim_dirs.append(d)
etim_out = subprocess.run([tpfemu, "compare"] + etim_dirs, capture_output=True, text=True).stdout
etim_all = subprocess.run([tpfemu, "compare"] + etim_dirs + ["--all"], capture_output=True, text=True).stdout
section = etim_out[etim_out.find("etim.json:"):]
section = section[:section.find("\n\n")] if "\n\n" in section else section
programs, moved_by = [], {}
for line in section.splitlines():
    cols = line.split()
    if cols and cols[0].startswith("programs[") and cols[0].endswith("].cycles"):
        programs.append(cols[0][len("programs["):-len("].cycles")])
        moved_by[programs[-1]] = abs(num(cols[2]) - num(cols[1])) if cols[1] != "-" and cols[2] != "-" else None
firsts = [l.split()[0] for l in section.splitlines() if l.split() and l.split()[0].startswith("programs[")]
grouped = [f.split("]")[0] for f in firsts]
changes = [moved_by[p] for p in programs if moved_by[p] is not None]
if len(programs) < 5 or changes != sorted(changes, reverse=True):
    failures.append(f"ETIM's programs are not ranked by the cycles that moved: {list(moved_by.items())}")
if any(grouped[i] != grouped[i - 1] and grouped[i] in grouped[:i] for i in range(1, len(grouped))):
    failures.append("an ETIM program's figures are not together")
if "(no ECB)" in section.replace("figures of (no ECB)", "") or "figures of (no ECB)" not in section:
    failures.append("the (no ECB) figures are not folded away with a note")
if "[(no ECB)]" not in etim_all:
    failures.append("--all does not show the (no ECB) figures")
if failures:
    print(out)
    print(etim_out)
    print("FAIL:\n  " + "\n  ".join(failures))
    sys.exit(1)
print("compare order: OK")
