#!/usr/bin/python3
"""tpfemu report (report/html_report.h, report/comparison.h) as a user meets it; one
CTest test per case (tests/CMakeLists.txt, label report):

  report_test.py CASE TPFEMU BUILD_DIR

  run:CONFIG   run configs/CONFIG.yaml with --report twice: report.html is written, the
               same bytes both times (and again from `tpfemu report`), self-contained,
               and holds every table and chart the run's JSON warrants, row for row
  compare      `tpfemu report A B` on two runs: the configuration keys that differ
               first, every table row for row against `tpfemu compare`, a bar chart each
  bad          a folder that is not a run, a report that is not JSON: one message
               naming the file, status 2, no page

Each case works in BUILD_DIR/report-tests/CASE (emptied first) and prints "CASE: OK".
check_page() is also the sweep index's test's (tests/sweep/test_sweep.py).
"""
import html.parser
import json
import os
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))

# The reports a page shows (report/html_report.cpp's kReports).
REPORTS = ["summary", "etim", "heap", "locks", "paging", "svcdump", "sadmp", "rmfstorf", "rmfpgsp", "rmfcpu", "rmfwlm", "rmfdev", "smf30", "devices",
           "lestorage", "fetch", "timeline"]


def fail(msg):
    sys.exit(f"FAIL: {msg}")


def check(cond, msg):
    if not cond:
        fail(msg)


class Page(html.parser.HTMLParser):
    """A page's tables (rows of their tbody), charts (the elements inside each svg),
    the order they come in, and whatever would load something from elsewhere."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.tables, self.charts, self.order, self.external = {}, {}, [], []
        self.table = self.chart = None
        self.in_body = False
        self.points = {}

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        for k in ("src", "href"):
            if k in a and not a[k].startswith("#") and not a[k].startswith("data:") and tag != "a":
                self.external.append(f"<{tag} {k}={a[k]}>")
        if tag == "link" or (tag == "script" and "src" in a):
            self.external.append(f"<{tag}>")
        if tag == "table" and "data-table" in a:
            self.table = a["data-table"]
            check(self.table not in self.tables, f"two tables named {self.table}")
            self.tables[self.table] = 0
            self.order.append(self.table)
        elif tag == "tbody":
            self.in_body = True
        elif tag == "tr" and self.table and self.in_body:
            self.tables[self.table] += 1
        elif tag == "svg" and "data-chart" in a:
            self.chart = a["data-chart"]
            check(self.chart not in self.charts, f"two charts named {self.chart}")
            self.charts[self.chart] = 0
            self.order.append("chart:" + self.chart)
        elif self.chart and tag in ("rect", "polyline", "path"):
            self.charts[self.chart] += 1
            if tag == "polyline":
                self.points[self.chart] = len(a.get("points", "").split())

    def handle_endtag(self, tag):
        if tag == "table":
            self.table, self.in_body = None, False
        elif tag == "tbody":
            self.in_body = False
        elif tag == "svg":
            self.chart = None


def parse(path):
    p = Page()
    with open(path, encoding="utf-8") as f:
        p.feed(f.read())
    check(not p.external, f"{path}: loads from elsewhere: {p.external}")
    for name, n in p.charts.items():
        check(n > 0, f"{path}: chart {name} draws nothing")
    return p


def warranted(run_dir):
    """The tables (name: rows) and charts a run's JSON warrants."""
    tables, charts = {}, {}
    for stem in REPORTS:
        path = os.path.join(run_dir, stem + ".json")
        if not os.path.exists(path):
            continue
        with open(path) as f:
            j = json.load(f)
        tables[stem] = sum(1 for v in j.values() if not isinstance(v, (dict, list)))
        for k, v in j.items():
            if isinstance(v, (dict, list)):
                tables[f"{stem}.{k}"] = len(v)
        if stem in ("rmfstorf", "rmfpgsp", "rmfcpu"):  # RMF's: a row per job (data set, I-stream) and interval
            inner = {"rmfstorf": "jobs", "rmfpgsp": "data_sets", "rmfcpu": "istreams"}[stem]
            tables[f"{stem}.intervals"] = sum(len(i[inner]) for i in j["intervals"])
        if stem == "summary":
            charts["cycles-by-cause"] = None
            with open(os.path.join(ROOT, "configs", "document-figures.json")) as f:
                doc = json.load(f)["configurations"].get(os.path.basename(j["config"]))
            if doc:  # an experiment's configuration: its figures beside the document's
                tables["document"] = len(doc["figures"])
            if j["istreams"]:
                charts["cycles-by-cause-istreams"] = None
            if j["messages"] > 0:
                charts["cycles-per-message"] = None
        if stem == "timeline":
            for col in j["columns"][1:]:
                charts["timeline-" + col] = len(j["rows"])  # a point per interval
        if stem == "etim":
            tables["etim.programs"] = len({r["prog"] for r in j["rows"]})
    return tables, charts


def check_page(run_dir):
    page = parse(os.path.join(run_dir, "report.html"))
    tables, charts = warranted(run_dir)
    for name, rows in tables.items():
        check(name in page.tables, f"{run_dir}/report.html: no table {name}")
        check(page.tables[name] == rows, f"{run_dir}/report.html: table {name} has {page.tables[name]} rows, "
                                         f"the JSON {rows}")
    check(set(page.tables) == set(tables), f"{run_dir}/report.html: tables the JSON does not have: "
                                           f"{set(page.tables) - set(tables)}")
    for name, points in charts.items():
        check(name in page.charts, f"{run_dir}/report.html: no chart {name}")
        if points is not None:
            check(page.points.get(name) == points, f"{run_dir}/report.html: chart {name} has "
                                                   f"{page.points.get(name)} points, the timeline {points} rows")
    return page


def run(args, **kw):
    return subprocess.run(args, capture_output=True, text=True, **kw)


def fresh(build, case):
    work = os.path.join(build, "report-tests", case.replace(":", "-"))
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    return work


def run_case(tpfemu, work, config):
    outs = []
    for n in ("a", "b"):
        out = os.path.join(work, n)
        r = run([tpfemu, "run", os.path.join(ROOT, "configs", config + ".yaml"), "--out", out, "--no-progress",
                 "--report"], cwd=work)
        check(r.returncode == 0, f"run {config}: status {r.returncode}: {r.stderr}")
        check(f"report: {out}/report.html" in r.stdout, f"run --report did not say where the page is: {r.stdout}")
        outs.append(out)
    with open(os.path.join(outs[0], "report.html"), "rb") as f:
        first = f.read()
    with open(os.path.join(outs[1], "report.html"), "rb") as f:
        check(f.read() == first, f"{config}: report.html differs between two runs of the same configuration")
    r = run([tpfemu, "report", outs[0]], cwd="/")  # from elsewhere: the folder as given
    check(r.returncode == 0 and r.stdout == os.path.join(outs[0], "report.html") + "\n",
          f"report {outs[0]}: {r.returncode} {r.stdout} {r.stderr}")
    with open(os.path.join(outs[0], "report.html"), "rb") as f:
        check(f.read() == first, f"{config}: tpfemu report wrote other bytes than run --report")
    page = check_page(outs[0])
    print(f"{config}: {len(page.tables)} tables ({sum(page.tables.values())} rows), {len(page.charts)} charts")


def text_table(text, title):
    """The rows (header left out) of the table below `title` in compare's text."""
    lines = text.splitlines()
    i = next(k for k, line in enumerate(lines) if line.startswith(title))
    rows = []
    for line in lines[i + 2:]:
        if not line.strip():
            break
        rows.append(line)
    return rows


def compare_case(tpfemu, work):
    a, b = os.path.join(work, "a"), os.path.join(work, "b")
    for out, config, sets in ((a, "syslog-csg-loop", []), (b, "syslog-pj46800", [])):
        r = run([tpfemu, "run", os.path.join(ROOT, "configs", config + ".yaml"), "--out", out, "--no-progress"] + sets)
        check(r.returncode == 0, f"run {config}: {r.stderr}")
    r = run([tpfemu, "report", a, b])
    page_path = os.path.join(a, "compare-b.html")
    check(r.returncode == 0 and r.stdout == page_path + "\n", f"report A B: {r.returncode} {r.stdout} {r.stderr}")
    other = os.path.join(work, "other.html")
    r = run([tpfemu, "report", a, b, "-o", other])
    check(r.returncode == 0 and open(other, "rb").read() == open(page_path, "rb").read(),
          f"report A B -o FILE: {r.returncode} {r.stderr}, or other bytes")
    text = run([tpfemu, "compare", a, b]).stdout
    page = parse(page_path)
    check(page.order and page.order[0] == "compare.configuration",
          f"the configuration keys that differ are not first: {page.order[:3]}")
    for name, title in (("compare.configuration", "Configuration: the keys that differ"),
                        ("compare.moved", "Moved most"), ("compare.summary", "All figures")):
        rows = text_table(text, title)
        check(page.tables.get(name) == len(rows), f"{name}: {page.tables.get(name)} rows, compare prints {len(rows)}")
    for part in ("headline", "moved", "summary", "locks", "etim"):
        check(f"ratios-{part}" in page.charts, f"no B/A bars for {part}: {sorted(page.charts)}")
    print(f"compare: {len(page.tables)} tables, {len(page.charts)} charts")


def bad_case(tpfemu, work):
    r = run([tpfemu, "report", work])
    check(r.returncode == 2 and f"{work}: not a run folder" in r.stderr, f"not a run: {r.returncode} {r.stderr}")
    run_dir = os.path.join(work, "run")
    r = run([tpfemu, "run", os.path.join(ROOT, "configs", "tls-baseline.yaml"), "--out", run_dir, "--no-progress",
             "--set", "workload.messages=50", "--set", "workload.warmup=0"])
    check(r.returncode == 0, f"run: {r.stderr}")
    heap = os.path.join(run_dir, "heap.json")
    with open(heap, "w") as f:
        f.write('{"algorithm": "baseline", "processes": ')
    r = run([tpfemu, "report", run_dir])
    check(r.returncode == 2 and f"{heap}: not JSON" in r.stderr and "Traceback" not in r.stderr,
          f"malformed heap.json: {r.returncode} {r.stderr}")
    check(not os.path.exists(os.path.join(run_dir, "report.html")), "a page was written from a malformed report")
    r = run([tpfemu, "report", run_dir, work])
    check(r.returncode == 2 and "summary.json" in r.stderr, f"compare with a folder that is not a run: {r.stderr}")
    r = run([tpfemu, "report"])
    check(r.returncode == 2 and "see tpfemu report --help" in r.stderr, f"no folder: {r.stderr}")


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    case, tpfemu, build = sys.argv[1], os.path.abspath(sys.argv[2]), os.path.abspath(sys.argv[3])
    work = fresh(build, case)
    if case.startswith("run:"):
        run_case(tpfemu, work, case[4:])
    elif case == "compare":
        compare_case(tpfemu, work)
    elif case == "bad":
        bad_case(tpfemu, work)
    else:
        sys.exit(f"unknown case {case}")
    print(f"{case}: OK")


if __name__ == "__main__":
    main()
