#!/usr/bin/python3
"""E1's heap_cycles (configs/sweeps/e1-tls.yaml) selects exactly the ECB heap's code
among the profile's rows, which name functions: every function the heap's objects
define matches its filter (a static function added without the eheap_ prefix would
silently drop out of the heap's share), and every function of the image that matches
is the heap's, or one of its services (tpf_heap_*, os/guest/tpf/tpf.c), so that no
other guest function named like one of the heap's is counted as the heap.

usage: tests/heap_cycles_rows.py SOURCE_DIR IMAGE.elf HEAP_OBJECT.o...
"""
import fnmatch
import os
import subprocess
import sys


def functions(path):
    """The functions PATH (an ELF object or image) defines, by the symbol table (readelf)."""
    r = subprocess.run(["readelf", "-sW", path], capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit(f"FAIL: readelf -sW {path}: {r.stderr.strip()}")
    names = set()
    for line in r.stdout.splitlines():
        f = line.split()
        if len(f) == 8 and f[3] == "FUNC" and f[6] != "UND":
            names.add(f[7])
    return names


def main():
    src, image, objects = sys.argv[1], sys.argv[2], sys.argv[3:]
    sys.path.insert(0, os.path.join(src, "scripts"))
    sys.dont_write_bytecode = True  # no scripts/__pycache__ in the source tree
    import tpfemu_sweep as sw
    fig = sw.load(os.path.join(src, "configs", "sweeps", "e1-tls.yaml"))["collect"]["heap_cycles"]
    (member, conds), = [s for s in fig["path"] if s[1]]
    (field, patterns), = conds
    if (fig["file"], member, field) != ("etim.json", "rows", "prog"):
        sys.exit(f"FAIL: heap_cycles is {sw.figure_text(fig)}, not a filter of etim.json's rows by prog")

    def selected(name):
        return any(fnmatch.fnmatchcase(name, p) for p in patterns)

    heap = set()
    for o in objects:
        heap |= functions(o)
    if not heap:
        sys.exit(f"FAIL: no functions in {objects}")
    missed = sorted(n for n in heap if not selected(n))
    if missed:
        sys.exit(f"FAIL: heap_cycles misses the heap's functions {missed}: name them eheap_* "
                 "(or add a C API function to the filter)")
    others = sorted(n for n in functions(image) - heap if selected(n) and not n.startswith("tpf_heap_"))
    if others:
        sys.exit(f"FAIL: heap_cycles counts {others} of {image}, which are not the heap's")
    print(f"heap_cycles_rows: OK ({len(heap)} functions of the heap)")


if __name__ == "__main__":
    main()
