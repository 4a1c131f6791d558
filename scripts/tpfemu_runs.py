"""What the experiment scripts (scripts/experiment-*) share: building tpfemu, running
it, reading a run's reports, printing aligned tables and making plots.

Packages come from scripts/setup (python3-matplotlib included); nothing here
installs anything.
"""
import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _named_build_dir(argv):
    """The folder of --build-dir DIR (or --build-dir=DIR) in ARGV, else TPFEMU_BUILD_DIR,
    else None. Read when this module is imported, before anything takes TPFEMU's value,
    so that every script's runs use it (add_build_dir_option declares it to argparse)."""
    for i, arg in enumerate(argv):
        if arg == "--build-dir" and i + 1 < len(argv):
            return argv[i + 1]
        if arg.startswith("--build-dir="):
            return arg.partition("=")[2]
    return os.environ.get("TPFEMU_BUILD_DIR") or None


NAMED_BUILD = _named_build_dir(sys.argv[1:])
if NAMED_BUILD:
    NAMED_BUILD = os.path.abspath(NAMED_BUILD)
    os.environ["TPFEMU_BUILD_DIR"] = NAMED_BUILD  # and for the tpfemu and scripts it starts
BUILD = NAMED_BUILD or os.path.join(ROOT, "build")
# Installed (cmake --install: share/tpfemu/scripts/, with no scripts/setup beside it),
# the prefix's bin/tpfemu runs and nothing is built; in a source tree, the build's.
INSTALLED = not os.path.exists(os.path.join(ROOT, "scripts", "setup"))
TPFEMU = os.path.join(ROOT, "..", "..", "bin", "tpfemu") if INSTALLED else os.path.join(BUILD, "tpfemu")
PROG = os.path.basename(sys.argv[0])  # names the script in its messages


def document_figures(config):
    """The source document's figures for configs/CONFIG ({key: value}), from
    configs/document-figures.json, the one place they are written (tpfemu report reads it too)."""
    with open(os.path.join(ROOT, "configs", "document-figures.json")) as f:
        entry = json.load(f)["configurations"][config]
    return {fig["key"]: fig["value"] for fig in entry["figures"]}


def add_build_dir_option(ap):
    """--build-dir DIR on a script's command line (its value is read at import: _named_build_dir)."""
    ap.add_argument("--build-dir", metavar="DIR",
                    help="use the tpfemu built in DIR and build nothing (also TPFEMU_BUILD_DIR=DIR); "
                         "without it, scripts/setup builds tpfemu and its guest images in build/")


def setup():
    """Installs what is missing and builds what the scripts run (scripts/setup tpfemu: tpfemu
    and its guest images, not the tests), quietly. Nothing when installed, when a build
    folder was named (--build-dir, TPFEMU_BUILD_DIR) and holds a tpfemu, or under a test
    (TPFEMU_NO_SETUP)."""
    if INSTALLED or os.environ.get("TPFEMU_NO_SETUP"):
        return
    if NAMED_BUILD and os.access(TPFEMU, os.X_OK):
        return
    subprocess.run([os.path.join(ROOT, "scripts", "setup"), "tpfemu"], check=True, stdout=subprocess.DEVNULL)


def default_out(name):
    """out/NAME: in the source tree's root, or (installed) in the current directory."""
    return os.path.join("out", name) if INSTALLED else os.path.join(ROOT, "out", name)


def run(args, out, sets=(), cwd=None):
    """`tpfemu run ARGS` into OUT (made absolute: the run may have another working
    directory), then the --set KEY=VALUE of SETS; exits with tpfemu's messages if it
    fails. Relative configurations are taken from CWD. Returns summary.json."""
    out = os.path.abspath(out)
    cmd = [TPFEMU, "run"] + list(args) + ["--no-progress", "--out", out]
    for s in sets:
        cmd += ["--set", s]
    p = subprocess.run(cmd, capture_output=True, text=True, cwd=cwd)
    if p.returncode != 0:
        sys.exit(f"{PROG}: {' '.join(cmd)} failed:\n{p.stderr}")
    return read_json(out, "summary.json")


def read_json(run_dir, name):
    with open(os.path.join(run_dir, name)) as f:
        return json.load(f)


def etim_rows(run_dir):
    """The rows of etim.json, or [] when ZTRAP EI did not run (no etim.json)."""
    if not os.path.exists(os.path.join(run_dir, "etim.json")):
        return []
    etim = read_json(run_dir, "etim.json")
    return etim["rows"] if isinstance(etim, dict) else etim


class Column:
    """A table column: TITLE over values formatted with FMT then SUFFIX, right-aligned
    in WIDTH (left-aligned with left=True); GAP spaces before it."""

    def __init__(self, title, width, fmt="", suffix="", left=False, gap=1):
        self.title, self.width, self.fmt, self.suffix, self.left, self.gap = title, width, fmt, suffix, left, gap

    def cell(self, text):
        return text.ljust(self.width) if self.left else text.rjust(self.width)


class Table:
    """Rows printed as they come (a run at a time), flushed, under one header."""

    def __init__(self, columns, indent=""):
        self.columns, self.indent = columns, indent

    def _line(self, cells):
        line = self.indent
        for k, (c, text) in enumerate(zip(self.columns, cells)):
            line += (" " * c.gap if k else "") + c.cell(text)
        return line

    def header(self, before=""):
        print(before + self._line([c.title for c in self.columns]))

    def row(self, *values):
        print(self._line([format(v, c.fmt) + c.suffix for c, v in zip(self.columns, values)]), flush=True)


def number_label(v, _pos=None):
    """An axis tick as the reports write numbers: 12,000, 0.5, 1,000,000 (no 10^4)."""
    if v == 0:
        return "0"
    if abs(v) >= 1000 or float(v).is_integer():
        return f"{v:,.0f}"
    return f"{v:,.6g}"


def readable_axis(axis, ticks=None):
    """Ticks a reader can read on a linear or log axis (matplotlib.axis.Axis): plain
    grouped numbers, at `ticks` when given (a log axis otherwise shows 1, 2 and 5 of
    each decade), no minor labels."""
    import matplotlib.ticker as mt
    if ticks is not None:
        axis.set_major_locator(mt.FixedLocator(ticks))
    elif axis.get_scale() == "log":
        axis.set_major_locator(mt.LogLocator(base=10, subs=(1.0, 2.0, 5.0)))
    axis.set_major_formatter(mt.FuncFormatter(number_label))
    axis.set_minor_formatter(mt.NullFormatter())


def pyplot():
    """matplotlib.pyplot drawing to files (no display needed), or None (said) when
    matplotlib is missing: the tables and results.json are written already."""
    try:
        import matplotlib
    except ImportError:
        print(f"{PROG}: python3-matplotlib is missing (scripts/setup installs it); no plot")
        return None
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    return plt
