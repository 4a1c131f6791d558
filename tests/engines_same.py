#!/usr/bin/python3
"""The two engines' contract (issue 45, /work/shared DESIGN "Wave 4"): machine.engine
compile and interpret write the same bytes, every count, cycle and sample included.

1. Every guest program `tpfemu exec` runs in the tree (GUEST_DIR's diff_*, vector_*,
   glibc_*, case_*, linux_*, le_*, process_* and bench_* images; the benchmarks and
   case_spin stopped after 5 million instructions) under both engines with --profile: exit status,
   stdout, stderr and the ETIM profile (text and JSON: executions and cycles per
   program and displacement) must be equal. The diff programs also with
   machine.compile.block_length=1 (every block one instruction).
2. Short `tpfemu run` configurations (the demo, E1's TLS, E2's syslog on 4 I-streams, E3's
   paging to SCM, E3d, E4's heap, E5's fetch) under the stress settings that put a stop
   or a sample inside every block: machine.quantum=1, system.ztrap.interval=1,
   machine.compile.block_length=1, and the defaults: every report file the run writes
   must be equal.
(reference.outputs_compiled compares the compiler with the stored references too.)

--cosim (engines.cosim): the same programs and runs under machine.engine cosim instead of
compile: every compiled block also interpreted in a copy of the process and compared
(emu/jit/cosim.cpp), the run stopping at the first difference; and the outputs still
the interpreter's. The benchmarks and case_spin stop at 300,000 instructions there, the
diff programs do not run again with blocks of one instruction, and only every fifteenth
program and one run (E2, defaults and quantum 1) are compared (a fork per block
comparison).

usage: engines_same.py TPFEMU SOURCE_DIR GUEST_DIR SCRATCH [--only exec|run] [--cosim]
"""
import filecmp
import glob
import os
import shutil
import subprocess
import sys

tpfemu, source, guest, scratch = (os.path.abspath(a) for a in sys.argv[1:5])
only = sys.argv[6] if sys.argv[5:6] == ["--only"] else None
cosim = "--cosim" in sys.argv[5:]
shutil.rmtree(scratch, ignore_errors=True)
os.makedirs(scratch)
failures = []
compared = 0
ENGINES = ("interpret", "cosim" if cosim else "compile")
LIMIT = "300000" if cosim else "5000000"


def run_exec(elf, engine, extra, out):
    prof = os.path.join(out, "etim")
    os.makedirs(out, exist_ok=True)
    try:
        r = subprocess.run([tpfemu, "exec", "./" + os.path.basename(elf), "--profile", prof, "--set",
                            f"machine.engine={engine}"] + extra, capture_output=True, cwd=guest,
                           stdin=subprocess.DEVNULL, timeout=300)
    except subprocess.TimeoutExpired:
        return None
    return r.returncode, r.stdout, r.stderr, [prof, prof + ".json"]


def same_exec(elf, extra, label):
    global compared
    results = [run_exec(elf, e, extra, os.path.join(scratch, label, e)) for e in ENGINES]
    if None in results:
        failures.append(f"{label}: timed out under {ENGINES[results.index(None)]}")
        return
    (rc_i, out_i, err_i, files_i), (rc_c, out_c, err_c, files_c) = results
    compared += 1
    if (rc_i, out_i, err_i) != (rc_c, out_c, err_c):
        failures.append(f"{label}: exit/stdout/stderr differ (interpret {rc_i}, compile {rc_c}; "
                        f"see {os.path.join(scratch, label)})")
        for e, (rc, out, err, _) in zip(ENGINES, results):
            with open(os.path.join(scratch, label, e, "stdout"), "wb") as f:
                f.write(out)
            with open(os.path.join(scratch, label, e, "stderr"), "wb") as f:
                f.write(err)
    for a, b in zip(files_i, files_c):
        if os.path.exists(a) != os.path.exists(b) or (os.path.exists(a) and not filecmp.cmp(a, b, shallow=False)):
            failures.append(f"{label}: {os.path.basename(a)} differs (diff {a} {b})")


PREFIXES = ("diff_", "vector_", "glibc_", "case_", "linux_", "le_", "process_", "bench_")
elves = [] if only == "run" else sorted(e for e in glob.glob(os.path.join(guest, "*.elf")) if os.path.basename(e).startswith(PREFIXES))
if cosim:
    # A fork per block comparison: every fifteenth program in name order (a spread over the
    # kinds: diff, vector, glibc, case, linux, le, process, bench), so the test stays
    # within minutes; engines.same runs them all under compile.
    elves = elves[::15]
if not elves and only != "run":
    sys.exit(f"FAIL: no guest programs in {guest} (build the guest_* targets)")
for elf in elves:
    name = os.path.basename(elf)[:-4]
    # The benchmarks and case_spin (a loop without end) stop at an instruction limit,
    # the same instruction under both engines.
    extra = ["--max-instructions", LIMIT] if name.startswith(("bench_", "case_spin")) else []
    same_exec(elf, extra, name)
    # (Not under cosim: blocks of one instruction make a fork of every instruction's first
    # entries; engines.same covers them.)
    if name.startswith("diff_") and not name.endswith(("_z13", "_z14", "_z15")) and not cosim:
        same_exec(elf, extra + ["--set", "machine.compile.block_length=1"], name + ".block1")

ZTRAP = ["--set", "system.ztrap.ei=whole-run"]
SHORT = ["--set", "workload.messages=40", "--set", "workload.warmup=10"]
RUNS = {
    "demo": ["configs/demo.yaml", "--set", "workload.messages=40"] + ZTRAP,
    "tls": ["configs/tls-baseline.yaml"] + SHORT + ZTRAP,
    "syslog": ["configs/syslog-pj46800.yaml", "--set", "machine.istreams=4"] + SHORT,
    "paging-scm": ["configs/demo.yaml", "--set", "system.image=tpf_io.elf", "--set", "workload.program=QPGT",
                   "--set", "workload.message_text=10 2", "--set", "workload.terminals=2", "--set",
                   "workload.messages=2", "--set", "system.paging.real_storage=8M", "--set",
                   "machine.scm.card_pairs=1"] + ZTRAP,
    "large-pages": ["configs/e3-large-pages.yaml"] + SHORT + ZTRAP,
    "e4-heap": ["configs/e4-heap.yaml", "--set", "workload.message_text=A 300"] + ZTRAP,
    "e5-fetch": ["configs/e5-fetch.yaml", "--set", "workload.message_text=L IEFBR14 20"] + ZTRAP,
}
STRESS = {
    "defaults": [],
    "quantum1": ["--set", "machine.quantum=1"],
    "interval1": ["--set", "system.ztrap.interval=1"],
    "block1": ["--set", "machine.compile.block_length=1"],
}
if cosim:  # the shortest run (E2 on 4 I-streams), defaults and quantum 1
    RUNS = {k: RUNS[k] for k in ("syslog",)}
    STRESS = {k: STRESS[k] for k in ("defaults", "quantum1")}
for name, args in ({} if only == "exec" else RUNS).items():
    if not os.path.exists(os.path.join(source, args[0])):
        failures.append(f"{name}: no {args[0]}")
        continue
    for stress, sets in STRESS.items():
        label = f"{name}.{stress}"
        outs = []
        for e in ENGINES:
            out = os.path.join(scratch, label, e)
            r = subprocess.run([tpfemu, "run"] + args + sets + ["--set", f"machine.engine={e}", "--no-progress",
                                                                "--out", out],
                               capture_output=True, text=True, cwd=source, timeout=600)
            if r.returncode != 0:
                failures.append(f"{label}: {e}: exit {r.returncode}: {r.stderr.strip()[:400]}")
            outs.append(out)
        if len(failures) and failures[-1].startswith(label):
            continue
        compared += 1
        files = sorted(f for f in os.listdir(outs[0]) if f.endswith((".json", ".txt", ".csv", ".log")))
        if sorted(os.listdir(outs[0])) != sorted(os.listdir(outs[1])):
            failures.append(f"{label}: the engines wrote different files")
        for f in files:
            a, b = os.path.join(outs[0], f), os.path.join(outs[1], f)
            if not os.path.exists(b) or not filecmp.cmp(a, b, shallow=False):
                failures.append(f"{label}: {f} differs (diff {a} {b})")

if failures:
    print("FAIL:\n  " + "\n  ".join(failures))
    sys.exit(1)
print(f"engines the same: {compared} comparisons: OK")
