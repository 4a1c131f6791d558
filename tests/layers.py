#!/usr/bin/python3
"""Layers talk one way (docs/architecture.md, "Layers"): each part of the host code may
include only the parts listed for it below. A part not in the table is an error too, so
that a new folder gets its place in the table when it is made.

    config, report (the JSON writer) <- emu <- os <- subsystems (heap, lock, le, fetch, devices, paging) <- app
    os <- trace (the run's Trace Event file, an observer of the dispatcher) <- app
    flashsim (devices and blocks) <- fetch, devices, paging
    emu <- linux (tpfemu exec's Linux personality: nothing of ECBs) <- app

usage: tests/layers.py SOURCE_DIR

The tree is what git tracks (tests/source_tree.py): a user's outputs, build folders and
own files in the checkout are not part of it.
"""
import os
import re
import sys

sys.dont_write_bytecode = True  # no tests/__pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import source_tree  # noqa: E402

SUBSYSTEM = {"config", "emu", "os", "report"}
ALLOWED = {
    "config": set(),
    "report": {"config"},
    "flashsim": {"report"},
    "emu": {"config", "report"},
    "os": {"config", "emu", "report"},
    "linux": {"config", "emu"},
    "heap": SUBSYSTEM,
    "lock": SUBSYSTEM,
    "le": SUBSYSTEM,
    "fetch": SUBSYSTEM | {"flashsim"},
    "devices": SUBSYSTEM | {"flashsim"},
    "paging": SUBSYSTEM | {"flashsim", "devices"},
    "trace": {"config", "report", "emu", "os"},
    "app": {"config", "report", "emu", "os", "linux", "heap", "lock", "le", "fetch", "devices", "paging", "flashsim",
            "trace"},
}
# Folders of guest code (built for s390x, their own include rules) and of everything
# else that is not a layer of the host program.
NOT_LAYERS = {"apps", "examples", "tests", "scripts", "configs", "docs", "cmake", "build"}
INCLUDE = re.compile(r'^\s*#\s*include\s+"([a-z_]+)/')

source = sys.argv[1]
problems = []
by_part = {}
for path in source_tree.files(source):  # what git tracks: a user's out/ or own folders are not layers
    part, sep, rest = path.partition(os.sep)
    if sep and not part.startswith(".") and part not in NOT_LAYERS:
        by_part.setdefault(part, []).append(rest)
for part, paths in sorted(by_part.items()):
    if part not in ALLOWED:
        problems.append(f"{part}/: a folder with no place in tests/layers.py's table")
        continue
    for rest in paths:
        if "guest" in rest.split(os.sep)[:-1] or not rest.endswith((".cpp", ".h")):
            continue  # guest code: s390x, not the host's layers
        path = os.path.join(source, part, rest)
        for n, line in enumerate(open(path, encoding="utf-8"), 1):
            m = INCLUDE.match(line)
            if m and m.group(1) != part and m.group(1) not in ALLOWED[part]:
                rel = os.path.relpath(path, source)
                problems.append(f"{rel}:{n}: {part}/ includes {m.group(1)}/ ({line.strip()})")
if problems:
    print("layers that talk the wrong way:\n  " + "\n  ".join(problems))
    sys.exit(1)
print("layers.one_way: OK")
