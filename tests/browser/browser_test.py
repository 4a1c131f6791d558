#!/usr/bin/python3
"""The report pages as a reader opens them: in headless Chromium, from the file
system, no network (check_page.py says what is checked). One CTest test per case
(tests/browser/CMakeLists.txt, label "report"):

  browser_test.py CASE TPFEMU BUILD_DIR CHROMIUM

  run:CONFIG   tpfemu run configs/CONFIG.yaml --report: its report.html, as an analyst's
               page 1400 px wide (check_page.py --analyst; the demo's ETIM rows too)
  compare      tpfemu report A B on the demo at two I-stream counts: the comparison page
  sweep        scripts/sweep on tests/sweep/small.yaml: DIR/index.html (its plots are
               images: the screenshot shows whether they drew)

Each case works in BUILD_DIR/browser-tests/CASE (emptied first), keeps the page's
screenshot there as page.png (the README's picture of a report is the E2 run's), and
prints "CASE: OK"."""
import os
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))


def run(cmd, **kw):
    r = subprocess.run(cmd, capture_output=True, text=True, **kw)
    if r.returncode != 0:
        sys.exit(f"FAIL: {' '.join(cmd)} exited {r.returncode}:\n{r.stdout[-2000:]}{r.stderr[-2000:]}")
    return r


def check_page(chromium, page, work, charts, *checks):
    r = run([sys.executable, os.path.join(HERE, "check_page.py"), chromium, page, "--charts", str(charts),
             "--screenshot", os.path.join(work, "page.png")] + list(checks))
    print(r.stdout, end="")


# A run's page as an analyst opens it (issue 48), 1400 px wide: contents, nothing wider
# than the window, no JSON in its text.
ANALYST = ["--analyst", "--width", "1400"]
# The demo's, with ETIM on: its 25 displacements counted most (of 681) in hex, I-stream
# -1 as ***, and the page short enough to read (it was 19,138 px before issue 48).
DEMO = ["--max-rows", "etim.top=25", "--hex", "etim.top=disp", "--hex", "etim.top=address", "--stars", "etim.top=IS",
        "--max-height", "6000"]


def tpfemu_run(tpfemu, config, out, *sets):
    cmd = [tpfemu, "run", os.path.join(ROOT, "configs", config + ".yaml"), "--out", out, "--no-progress", "--report"]
    for s in sets:
        cmd += ["--set", s]
    run(cmd)


def main():
    case, tpfemu, build, chromium = sys.argv[1], os.path.abspath(sys.argv[2]), os.path.abspath(sys.argv[3]), sys.argv[4]
    if not os.path.isfile(chromium):
        sys.exit(f"FAIL: no Chromium at {chromium}: scripts/setup installs Debian's chromium")
    work = os.path.join(build, "browser-tests", case.replace(":", "_"))
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    if case.startswith("run:"):
        out = os.path.join(work, "run")
        # The demo with ZTRAP EI on, so that its page has the ETIM profile as well.
        tpfemu_run(tpfemu, case[4:], out, *(["system.ztrap.ei=whole-run"] if case == "run:demo" else []))
        check_page(chromium, os.path.join(out, "report.html"), work, 2, *ANALYST, *(DEMO if case == "run:demo" else []))
    elif case == "compare":
        a, b = os.path.join(work, "a"), os.path.join(work, "b")
        tpfemu_run(tpfemu, "demo", a)
        tpfemu_run(tpfemu, "demo", b, "machine.istreams=2")
        page = os.path.join(work, "compare.html")
        run([tpfemu, "report", a, b, "-o", page])
        check_page(chromium, page, work, 1)
    elif case == "sweep":
        out = os.path.join(work, "sweep")
        env = dict(os.environ, TPFEMU_BUILD_DIR=build, PYTHONDONTWRITEBYTECODE="1")
        run([os.path.join(ROOT, "scripts", "sweep"), os.path.join(ROOT, "tests", "sweep", "small.yaml"), "--out", out,
             "-j", "2", "--no-build"], env=env)
        check_page(chromium, os.path.join(out, "index.html"), work, 0)
    else:
        sys.exit(f"FAIL: unknown case {case}")
    print(f"{case}: OK")


if __name__ == "__main__":
    main()
