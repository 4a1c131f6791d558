#!/usr/bin/python3
"""Every figure stays exact (issue 28's rule, before any speed change): short runs of the
demo, E1 (TLS through the ECB heap), E2 (syslog through the simple lock, 4 I-streams),
E3 (paging to SCM and to DASD: QPGT) and E3d (large pages), each with ZTRAP EI over the
whole run, and `tpfemu exec --profile` of the allocator benchmark, must write the same
bytes as the reference outputs stored in tests/reference/: summary.json (instructions,
cycles by cause, per I-stream), etim.json (per program and displacement: executions,
cycles, samples) and the subsystems' JSON reports. A change that moves any of them is
either a bug or a deliberate change of the model: then run this script with --update,
look at the difference (git diff tests/reference) and say why in the commit.

usage: reference_outputs.py TPFEMU SOURCE_DIR GUEST_DIR SCRATCH [--update] [--set KEY=VALUE ...]

--set adds a key to every run: `--set machine.engine=compile` checks that the block
compiler writes the interpreter's bytes (the stored references), test
reference.outputs_compiled.
"""
import filecmp
import os
import shutil
import subprocess
import sys

tpfemu, source, guest, scratch = (os.path.abspath(a) for a in sys.argv[1:5])
update = "--update" in sys.argv[5:]
EXTRA = []
for k, arg in enumerate(sys.argv[5:-1], start=5):
    if arg == "--set":
        EXTRA += ["--set", sys.argv[k + 1]]
REF = os.path.join(source, "tests", "reference")
ZTRAP = ["--set", "system.ztrap.ei=whole-run"]
QPGT = ["--set", "system.image=tpf_io.elf", "--set", "workload.program=QPGT", "--set", "workload.message_text=10 2",
        "--set", "workload.terminals=2", "--set", "workload.messages=2", "--set", "system.paging.real_storage=8M"]
RUNS = {
    "demo": (["configs/demo.yaml"] + ZTRAP, ["summary.json", "etim.json", "rmfwlm.json", "smf30.json"]),
    "tls": (["configs/tls-baseline.yaml", "--set", "workload.messages=300", "--set", "workload.warmup=50"] + ZTRAP,
            ["summary.json", "etim.json", "heap.json"]),
    # (its configuration starts ZTRAP EI itself)
    "syslog": (["configs/syslog-pj46800.yaml", "--set", "machine.istreams=4", "--set", "workload.messages=200"],
               ["summary.json", "etim.json", "locks.json"]),
    "paging-scm": (["configs/demo.yaml"] + QPGT + ["--set", "machine.scm.card_pairs=1"] + ZTRAP,
                   ["summary.json", "etim.json", "paging.json", "devices.json", "rmfdev.json", "rmfwlm.json",
                    "smf30.json"]),
    "paging-dasd": (["configs/demo.yaml"] + QPGT + ["--set", "machine.dasd.page_volumes=16"] + ZTRAP,
                    ["summary.json", "etim.json", "paging.json", "devices.json", "rmfdev.json", "rmfwlm.json",
                     "smf30.json"]),
    "large-pages": (["configs/e3-large-pages.yaml", "--set", "workload.messages=400", "--set", "workload.warmup=100"] + ZTRAP,
                    ["summary.json", "etim.json", "heap.json"]),
}
shutil.rmtree(scratch, ignore_errors=True)
os.makedirs(scratch)
os.makedirs(REF, exist_ok=True)
failures = []


def compare(name, produced):
    ref = os.path.join(REF, name)
    if update:
        shutil.copyfile(produced, ref)
    elif not os.path.exists(ref):
        failures.append(f"{name}: no reference (run with --update once, and commit it)")
    elif not filecmp.cmp(produced, ref, shallow=False):
        failures.append(f"{name}: differs from the reference (diff {produced} {ref})")


for name, (args, files) in RUNS.items():
    out = os.path.join(scratch, name)
    r = subprocess.run([tpfemu, "run"] + args + EXTRA + ["--no-progress", "--out", out], capture_output=True, text=True,
                       cwd=source)
    if r.returncode != 0:
        sys.exit(f"FAIL: {name}: exit {r.returncode}: {r.stderr}")
    for f in files:
        compare(f"{name}.{f}", os.path.join(out, f))
prof = os.path.join(scratch, "bench_alloc.etim")
# From the image's folder, as ./bench_alloc.elf: argv[0] is on the guest's stack, and a
# longer path would move the stack and with it the cache figures.
r = subprocess.run([tpfemu, "exec", "./bench_alloc.elf", "--profile", prof] + EXTRA, capture_output=True, text=True,
                   cwd=guest)
if r.returncode != 0:
    sys.exit(f"FAIL: exec bench_alloc: exit {r.returncode}: {r.stderr}")
compare("bench_alloc.etim.json", prof + ".json")
stdout = os.path.join(scratch, "bench_alloc.stdout")
with open(stdout, "w") as f:
    f.write(r.stdout)   # its checksum
compare("bench_alloc.stdout", stdout)
if failures:
    print("FAIL:\n  " + "\n  ".join(failures))
    sys.exit(1)
print(f"reference outputs: {'updated' if update else 'the same'}: OK")
