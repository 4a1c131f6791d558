#!/usr/bin/python3
"""The documents' sample outputs cannot go stale: each code block under a marker in
README.md or in docs/*.md

    <!-- readme-sample: run CONFIG.yaml [--set KEY=VALUE ...] [; REPORT] -->
    <!-- readme-sample: exec PROGRAM.elf [OPTIONS] -->
    <!-- readme-sample: ipl IMAGE.elf [OPTIONS] [; REPORT] -->

is checked against what that command prints now (`tpfemu run ... --no-progress` from the
source folder into a scratch folder: its standard output, or the report file REPORT it
wrote; `tpfemu exec` and `tpfemu ipl`: standard output and error, or for `ipl` the
report file REPORT its --profile wrote). Every
line of the block must appear in the output, in the same order; lines that are "..."
(elisions), start with "$ " (the command as typed) or read "status N" are not output.

usage: tests/readme_samples.py TPFEMU SOURCE_DIR GUEST_DIR SCRATCH_DIR
"""
import os
import re
import shlex
import subprocess
import sys

sys.dont_write_bytecode = True  # no tests/__pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import source_tree  # noqa: E402  (what git tracks)

MARKER = re.compile(r"<!-- readme-sample: (run|exec|ipl) (.*?)(?:; (\S+))? -->")


def samples(readme):
    """(line number, command word, arguments, the block's lines) for each marker."""
    lines = open(readme, encoding="utf-8").read().split("\n")
    out = []
    for i, line in enumerate(lines):
        m = MARKER.search(line)
        if not m:
            continue
        start = next(k for k in range(i + 1, len(lines)) if lines[k].startswith("```"))
        end = next(k for k in range(start + 1, len(lines)) if lines[k].startswith("```"))
        out.append((i + 1, m.group(1), shlex.split(m.group(2)), m.group(3), lines[start + 1:end]))
    return out


def expected(block):
    return [l.rstrip() for l in block
            if l.strip() != "..." and not l.startswith("$ ") and not re.fullmatch(r"status \d+", l.strip())]


def output(tpfemu, source, guest, scratch, word, args, report):
    if word == "run":
        r = subprocess.run([tpfemu, "run"] + args + ["--no-progress", "--out", scratch], capture_output=True,
                           text=True, cwd=source)
        if report:
            path = os.path.join(scratch, report)
            return open(path, encoding="utf-8").read() if os.path.exists(path) else f"(no {report})\n" + r.stderr
        return r.stdout
    # exec, ipl: the program's path as typed (argv[0] is on its stack, so its length moves the
    # stack and the cycles): run where that path leads to the guest folder.
    # The folder named "guest" in the path (build/guest/case_divzero.elf,
    # build/guest/system/selftest.elf) is the guest folder.
    parts = args[0].split("/")
    as_typed = "/".join(parts[:parts.index("guest") + 1]) if "guest" in parts[:-1] else os.path.dirname(args[0])
    os.makedirs(os.path.join(scratch, os.path.dirname(as_typed) or "."), exist_ok=True)
    link = os.path.join(scratch, as_typed)
    if not os.path.islink(link):
        os.symlink(guest, link)
    r = subprocess.run([tpfemu, word] + args, capture_output=True, text=True, cwd=scratch)
    if report:
        path = os.path.join(scratch, report)
        return open(path, encoding="utf-8").read() if os.path.exists(path) else f"(no {report})\n" + r.stderr
    return r.stdout + r.stderr


def first_missing(want, got):
    """The first wanted line not found (in order) in `got`, or None."""
    got = [l.rstrip() for l in got.split("\n")]
    at = 0
    for w in want:
        while at < len(got) and got[at] != w:
            at += 1
        if at == len(got):
            return w
        at += 1
    return None


def documents(source):
    """README.md and the guide's files, as paths relative to the source folder."""
    return ["README.md"] + source_tree.under(source, "docs", ".md")  # what git tracks, not a user's notes


def main():
    tpfemu, source, guest, scratch = sys.argv[1:5]
    found = [(doc, *sample) for doc in documents(source) for sample in samples(os.path.join(source, doc))]
    if not found:
        sys.exit("README.md and docs/*.md have no readme-sample marker")
    failed = 0
    for doc, line, word, args, report, block in found:
        where = f"{doc}:{line}"
        folder = os.path.join(scratch, "sample-" + doc.replace(os.sep, "-").replace(".md", "") + f"-{line}")
        got = output(tpfemu, source, guest, folder, word, args, report)
        missing = first_missing(expected(block), got)
        if missing is not None:
            failed += 1
            print(f"{where}: the sample of `tpfemu {word} {' '.join(args)}` is stale: this line is not in "
                  f"the output (in order):\n  {missing!r}\nthe output now:\n{got}")
        else:
            print(f"{where}: `tpfemu {word} {' '.join(args)}`: {len(expected(block))} lines as shown")
    print(f"{len(found)} samples in {len(set(f[0] for f in found))} documents, {failed} stale")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
