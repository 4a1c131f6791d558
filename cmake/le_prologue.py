#!/usr/bin/env python3
"""LE's prologue for an LE-conforming program (issue 25, item 3): inserts, at the entry of
every function of GCC's s390x assembly that allocates a stack frame, the check of
le/guest/le_stack.h, and appends the out-of-line routine (le_dsa_check.S, preprocessed).

usage: le_prologue.py --anchor ADDRESS [--routine ROUTINE.s] IN.s OUT.s

A function is what lies between `NAME:` (declared `.type NAME, @function`) and
`.size NAME`. Its frame size F is the operand of the first instruction that lowers r15
in its prologue, in the forms GCC emits: `aghi %r15,-F`, `lay %r15,-F(%r15)`,
`agfi %r15,-F`, `slgfi %r15,F`. The program is compiled with -fno-shrink-wrap, so that
a function with a frame allocates it before its first label or branch; a function
that does not lower r15 before either is frameless and gets nothing (a leaf, or one
that only tail-calls: it has no frame to fill and takes no stack).
"""
import argparse
import re
import sys

FRAME = [
    re.compile(r"^\s+aghi\s+%r15,-(\d+)\s*$"),
    re.compile(r"^\s+agfi\s+%r15,-(\d+)\s*$"),
    re.compile(r"^\s+lay\s+%r15,-(\d+)\(%r15\)\s*$"),
    re.compile(r"^\s+slgfi\s+%r15,(\d+)\s*$"),
]
FUNCTION_TYPE = re.compile(r"^\s+\.type\s+([^,\s]+),\s*@function")
LABEL = re.compile(r"^([^\s:]+):")
# The end of a prologue: a label, or an instruction that may leave straight-line code.
BRANCH = re.compile(r"^\s+(b\w*|j\w*|cl?g?[ri]j\w*)\s")


def frame_size(lines, start):
    """F of the function whose label is lines[start], or None if it allocates no frame in
    its prologue."""
    for line in lines[start + 1:]:
        if line.lstrip().startswith(".size") or LABEL.match(line):
            return None
        for form in FRAME:
            m = form.match(line)
            if m:
                return int(m.group(1))
        if BRANCH.match(line):
            return None
    return None


def check(f, n, anchor):
    """The inline check for a frame of f bytes (le_stack.h): 3 instructions when nothing
    is to be done."""
    out = []
    if f <= 524288:  # LAY's displacement is 20 bits, signed
        out.append(f"\tlay\t%r1,-{f}(%r15)\n")
    else:
        out += ["\tlgr\t%r1,%r15\n", f"\tslgfi\t%r1,{f}\n"]
    out += [f"\tclg\t%r1,{anchor}\t# LE anchor: the trip\n",
            f"\tjnl\t.Lle_ok{n}\n",
            "\tbrasl\t%r0,__le_dsa_check\n",
            f"\t.long\t{f}\n",
            f".Lle_ok{n}:\n"]
    return out


def instrument(text, anchor):
    """The assembly with the checks inserted, and [(function, F), ...] of those that got one."""
    lines = text.splitlines(keepends=True)
    functions = set()
    for line in lines:
        m = FUNCTION_TYPE.match(line)
        if m:
            functions.add(m.group(1))
    out, done = [], []
    for i, line in enumerate(lines):
        out.append(line)
        m = LABEL.match(line)
        if m and m.group(1) in functions:
            f = frame_size(lines, i)
            if f is not None:
                out += check(f, len(done), anchor)
                done.append((m.group(1), f))
    return "".join(out), done


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--anchor", required=True, help="TPF_EVM_LE_ANCHOR (the trip is its first doubleword)")
    ap.add_argument("--routine", help="__le_dsa_check's assembly, appended if any function got a check")
    ap.add_argument("--list", action="store_true", help="print each function instrumented and its F")
    ap.add_argument("input")
    ap.add_argument("output")
    a = ap.parse_args()
    anchor = int(a.anchor, 0)
    if not 0 <= anchor < 524288:
        sys.exit(f"le_prologue.py: the anchor {a.anchor} is beyond a long displacement from 0 (512 KB)")
    text, done = instrument(open(a.input).read(), anchor)
    if done and a.routine:
        text += "\n# LE's out-of-line stack check (le/guest/le_dsa_check.S)\n" + open(a.routine).read()
    open(a.output, "w").write(text)
    if a.list:
        for name, f in done:
            print(f"{name} {f}")


if __name__ == "__main__":
    main()
