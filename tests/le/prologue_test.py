#!/usr/bin/python3
"""cmake/le_prologue.py on a sample of GCC's s390x assembly (tests/le/prologue_sample.s):
the frame size F from each prologue form (aghi, lay, agfi, slgfi), no check in a
frameless function (a leaf, a tail call, a frame lowered only after a branch), the
check's instructions in order before the prologue, LAY only where its displacement
reaches, and the result assembles (when the cross assembler is given).

usage: prologue_test.py SOURCE_DIR SCRATCH [ASSEMBLER]
"""
import os
import re
import subprocess
import sys

source, scratch = sys.argv[1:3]
assembler = sys.argv[3] if len(sys.argv) > 3 else None
sys.path.insert(0, os.path.join(source, "cmake"))
import le_prologue  # noqa: E402

text = open(os.path.join(source, "tests", "le", "prologue_sample.s")).read()
out, done = le_prologue.instrument(text, 0x10000)
failures = []
want = [("small_aghi", 168), ("mid_lay", 8160), ("big_agfi", 600000), ("huge_slgfi", 800160)]
if done != want:
    failures.append(f"instrumented {done}, want {want}")
# Each check sits right after its function's label, before the STMG.
for name, f in want:
    m = re.search(rf"^{name}:\n(.*?)\tstmg", out, re.S | re.M)
    body = m.group(1) if m else ""
    first = f"\tlay\t%r1,-{f}(%r15)\n" if f <= 524288 else f"\tlgr\t%r1,%r15\n\tslgfi\t%r1,{f}\n"
    expect = first + "\tclg\t%r1,65536\t# LE anchor: the trip\n\tjnl\t.Lle_ok{n}\n\tbrasl\t%r0,__le_dsa_check\n" \
        f"\t.long\t{f}\n.Lle_ok{{n}}:\n"
    n = [w[0] for w in want].index(name)
    if body != expect.replace("{n}", str(n)):
        failures.append(f"{name}: the check is\n{body!r}\nnot\n{expect!r}")
for name in ["leaf", "tail_only", "late_frame"]:
    m = re.search(rf"^{name}:\n(.*?)\.size", out, re.S | re.M)
    if not m or "__le_dsa_check" in m.group(1):
        failures.append(f"{name}: frameless, but got a check")
if assembler:
    os.makedirs(scratch, exist_ok=True)
    path = os.path.join(scratch, "sample.le.s")
    # The routine is not appended here: a stand-in label, so that the sample assembles.
    open(path, "w").write(out + "__le_dsa_check:\n\tbr\t%r14\ng:\n\tbr\t%r14\n.L9:\n")
    r = subprocess.run([assembler, "-c", path, "-o", path + ".o"], capture_output=True, text=True)
    if r.returncode:
        failures.append(f"does not assemble: {r.stderr}")
if failures:
    sys.exit("FAIL:\n" + "\n".join(failures))
print("LE prologue insertion: OK")
