#!/usr/bin/python3
"""Layers talk one way (docs/architecture.md, "Layers"): each part of the host code may
include only the parts listed for it below. A part not in the table is an error too, so
that a new folder gets its place in the table when it is made.

    config, report (the JSON writer) <- emu <- os <- subsystems (heap, lock, le, fetch, devices, paging) <- app
    os <- trace (the run's Trace Event file, an observer of the dispatcher) <- app
    flashsim (devices and blocks) <- fetch, devices, paging
    emu <- linux (tpfemu exec's Linux personality: nothing of ECBs) <- app

usage: tests/layers.py SOURCE_DIR
"""
import os
import re
import sys

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
for part in sorted(os.listdir(source)):
    folder = os.path.join(source, part)
    if part.startswith(".") or part in NOT_LAYERS or not os.path.isdir(folder):
        continue
    if os.path.exists(os.path.join(folder, "CMakeCache.txt")):
        continue  # a build tree in the source folder (build-asan/, ...), whatever its name
    if part not in ALLOWED:
        problems.append(f"{part}/: a folder with no place in tests/layers.py's table")
        continue
    for folder, dirs, files in os.walk(os.path.join(source, part)):
        dirs[:] = [d for d in dirs if d != "guest"]  # guest code: s390x, not the host's layers
        for name in sorted(files):
            if not name.endswith((".cpp", ".h")):
                continue
            path = os.path.join(folder, name)
            for n, line in enumerate(open(path, encoding="utf-8"), 1):
                m = INCLUDE.match(line)
                if m and m.group(1) != part and m.group(1) not in ALLOWED[part]:
                    rel = os.path.relpath(path, source)
                    problems.append(f"{rel}:{n}: {part}/ includes {m.group(1)}/ ({line.strip()})")
if problems:
    print("layers that talk the wrong way:\n  " + "\n  ".join(problems))
    sys.exit(1)
print("layers.one_way: OK")
