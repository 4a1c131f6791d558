#!/usr/bin/python3
"""tpfemu report (report/html_report.h, report/comparison.h) as a user meets it; one
CTest test per case (tests/CMakeLists.txt, label report):

  report_test.py CASE TPFEMU BUILD_DIR

  run:CONFIG   run configs/CONFIG.yaml with --report twice: report.html is written, the
               same bytes both times (and again from `tpfemu report`), self-contained,
               and holds every table and chart the run's JSON warrants, row for row,
               every text report as the run wrote it (<pre data-report=FILE>), in the
               order an analyst reads (issue 48): the document's figures, cycles by
               cause, the timeline's charts, the summary, ETIM's top rows, the
               subsystems, ETIM's every row last; contents whose links all lead
               somewhere; no JSON in any cell
  compare      `tpfemu report A B` on two runs: the configuration keys that differ
               first, every table row for row against `tpfemu compare`, a bar chart each
  operator     a short E3 run with D ASM typed (tests/report/operator-d-asm.yaml): the
               page shows the command and IEE200I's display as run.log has them,
               linked from the contents
  bad          a folder that is not a run, a report that is not JSON: one message
               naming the file, status 2, no page
  study        a run inside a sweep folder whose study.json names it (scripts/
               experiment-paging's E3 spread): the page shows its row's spread, a row a
               figure with this run's value, linked from the contents; a run the file
               does not name shows none; a study.json without rows is named, status 2

Each case works in BUILD_DIR/report-tests/CASE (emptied first) and prints "CASE: OK".
check_page() is also the sweep index's test's (tests/sweep/test_sweep.py).
"""
import html.parser
import json
import os
import re
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))

# The reports a page shows (report/html_report.cpp's kReports).
REPORTS = ["summary", "etim", "heap", "locks", "paging", "svcdump", "sadmp", "rmfstorf", "rmfpgsp", "rmfcpu", "rmfwlm", "rmfdev", "smf30", "devices",
           "lestorage", "fetch", "timeline"]


# A configuration's run made short for a test (E4's program on 2,000 requests, not
# 27,949 segments' worth): its pages still show RPTSTG (lestorage.txt) as written.
SHORT = {"e4-heap": ["workload.message_text=A 2000"]}


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
        self.depth = 0  # of tables: a cell's own table (ETIM's places) is part of its row
        self.texts, self.text = {}, None  # <pre data-report=FILE>: its text
        self.ids, self.links, self.contents = set(), [], []
        self.in_contents = False
        self.sections = []  # the ids of the <h2>s
        self.cell_text = []  # the text of every table cell
        self.headings, self.cells, self.cell = {}, [], None  # a table's column names; (table, column, text) a cell

    def handle_data(self, data):
        if self.text is not None:
            self.texts[self.text] += data
        elif self.table:
            self.cell_text.append(data)
            if self.cell is not None:
                self.cell[1] += data

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if "id" in a:
            self.ids.add(a["id"])
            if tag == "h2":
                self.sections.append(a["id"])
        if tag == "a" and a.get("href", "").startswith("#"):
            self.links.append(a["href"][1:])
            if self.in_contents:
                self.contents.append(a["href"][1:])
        if tag == "nav" and a.get("id") == "contents":
            self.in_contents = True
        if tag == "pre" and "data-report" in a:
            self.text = a["data-report"]
            check(self.text not in self.texts, f"two text reports {self.text}")
            self.texts[self.text] = ""
            self.order.append("text:" + self.text)
        if tag == "table" and self.table:
            self.depth += 1
            return
        if self.table and not self.depth and tag in ("th", "td"):
            self.cell = [tag, ""]
        if self.table and not self.depth and tag == "tr":
            self.column = 0
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
        elif tag == "tbody" and not self.depth:
            self.in_body = True
        elif tag == "tr" and self.table and self.in_body and not self.depth:
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
        if tag == "nav":
            self.in_contents = False
        if tag == "pre":
            self.text = None
        if self.depth:  # inside a cell's own table
            if tag == "table":
                self.depth -= 1
            return
        if tag in ("th", "td") and self.cell is not None:
            kind, text = self.cell
            if kind == "th":
                self.headings.setdefault(self.table, []).append(text)
            else:
                names = self.headings.get(self.table, [])
                self.cells.append((self.table, names[self.column] if self.column < len(names) else "", text))
            self.column += 1
            self.cell = None
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
        scalars = sum(1 for v in j.values() if not isinstance(v, (dict, list)))
        if scalars:  # a report of lists only (lestorage.json) has no table of figures
            tables[stem] = scalars
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
            tables["etim.top"] = min(25, len(j["rows"]))  # the rows counted most; every row at the end
            if not j["by_ecb_program"]:
                del tables["etim.by_ecb_program"]
    return tables, charts


def check_analyst_page(run_dir, page):
    """What issue 48 asked of a run's page: the text reports as written, the order, the
    contents, no JSON in a cell."""
    for stem in REPORTS:
        path = os.path.join(run_dir, stem + ".txt")
        if os.path.exists(path) and os.path.exists(os.path.join(run_dir, stem + ".json")):
            with open(path, encoding="utf-8") as f:
                check(page.texts.get(stem + ".txt") == f.read(), f"{run_dir}/report.html: {stem}.txt not as the run wrote it")
    where = {name: i for i, name in reversed(list(enumerate(page.order)))}
    sequence = [n for n in ("document", "chart:cycles-by-cause", "chart:timeline-messages_per_s", "text:summary.txt",
                            "etim.top", "etim.rows") if n in where]
    check(sequence == sorted(sequence, key=where.get), f"{run_dir}/report.html: not in the analyst's order: "
                                                       f"{sorted(sequence, key=where.get)}")
    if "etim.rows" in where:
        check(all(where["etim.rows"] >= i for i in where.values() if i != where.get("text:etim.txt")),
              f"{run_dir}/report.html: ETIM's every row is not last")
    check(page.contents and page.contents == page.sections,
          f"{run_dir}/report.html: the contents {page.contents} are not the sections {page.sections}")
    missing = [l for l in page.links if l not in page.ids]
    check(not missing, f"{run_dir}/report.html: links to nothing: {missing}")
    # Addresses, displacements and ASIDs in hex, as z/TPF and z/OS print them.
    for table, column, text in page.cells:
        name = column.split(" (")[0].split(".")[-1]
        if text != "-" and (name in ("address", "disp", "asid") or name.endswith("_address")):
            check(re.fullmatch(r"[0-9A-F]{4,16}", text), f"{run_dir}/report.html: {table}, column {column}: {text} not hex")
        if name in ("istream", "IS") and text.strip() == "-1":
            fail(f"{run_dir}/report.html: {table}: I-stream -1 shown as -1, not ***")
    cells = "".join(page.cell_text)
    check('{"' not in cells and "[{" not in cells, f"{run_dir}/report.html: JSON in a table cell")


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
        sets = [a for s in SHORT.get(config, []) for a in ("--set", s)]
        r = run([tpfemu, "run", os.path.join(ROOT, "configs", config + ".yaml"), "--out", out, "--no-progress",
                 "--report"] + sets, cwd=work)
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
    check_analyst_page(outs[0], page)
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


def operator_case(tpfemu, work):
    out = os.path.join(work, "run")
    r = run([tpfemu, "run", os.path.join(ROOT, "configs", "e3-transition.yaml"), os.path.join(HERE, "operator-d-asm.yaml"),
             "--set", "workload.duration=40ms", "--out", out, "--no-progress", "--report"])
    check(r.returncode == 0, f"run: {r.stderr}")
    page = check_page(out)
    check_analyst_page(out, page)
    shown = page.texts.get("run.log#operator", "")
    with open(os.path.join(out, "run.log")) as f:
        display = [l for l in f.read().splitlines() if " operator: D ASM" in l or "IEE200I" in l or "SYS1.LOCAL.PAGE" in l]
    check(len(display) >= 3, f"run.log has no D ASM display: {display}")
    check(all(l + "\n" in shown for l in display), f"the page's operator section lacks run.log's D ASM lines: {shown[:500]!r}")
    check("operator" in page.contents, f"the contents do not link the operator's commands: {page.contents}")
    print(f"operator: {len(shown.splitlines())} lines of commands and displays")


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


def study_case(tpfemu, work):
    sweep = os.path.join(work, "sweep")
    runs = [os.path.join(sweep, "runs", n) for n in ("p001", "p002")]
    for out in runs:
        r = run([tpfemu, "run", os.path.join(ROOT, "configs", "demo.yaml"), "--set", "workload.messages=50",
                 "--out", out, "--no-progress"])
        check(r.returncode == 0, f"run: {r.stderr}")
    rows = [["transactions_45s", 9216.0, 8832.0, 9600.0, 251], ["response_s", 0.0564, 0.05, 0.06, 0.62]]
    study = {"title": "E3's spread", "note": "a test's", "columns": ["figure", "median", "min", "max", "document"],
             "runs": {"p001": {"row": "E3b 100 pages f=64 DASD", "this_run": [9216.0, 0.0564], "rows": rows}}}
    with open(os.path.join(sweep, "study.json"), "w") as f:
        json.dump(study, f)
    r = run([tpfemu, "report", runs[0]])
    check(r.returncode == 0, f"report: {r.stderr}")
    page = parse(os.path.join(runs[0], "report.html"))
    check(page.tables.get("study") == len(rows), f"the study's table has {page.tables.get('study')} rows, not {len(rows)}")
    cells = [(c, t) for name, c, t in page.cells if name == "study"]
    check(("this run", "9,216") in cells and ("document", "251") in cells, f"the study's cells: {cells}")
    check("study" in page.contents, f"the contents do not link the study: {page.contents}")
    r = run([tpfemu, "report", runs[1]])
    check(r.returncode == 0 and "study" not in parse(os.path.join(runs[1], "report.html")).tables,
          "a run the study does not name shows a study table")
    del study["runs"]["p001"]["rows"]
    with open(os.path.join(sweep, "study.json"), "w") as f:
        json.dump(study, f)
    r = run([tpfemu, "report", runs[0]])
    check(r.returncode == 2 and os.path.join(sweep, "study.json") in r.stderr, f"a study without rows: {r.stderr}")
    print(f"study: {len(rows)} rows of its spread on the run's page")


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    case, tpfemu, build = sys.argv[1], os.path.abspath(sys.argv[2]), os.path.abspath(sys.argv[3])
    work = fresh(build, case)
    if case.startswith("run:"):
        run_case(tpfemu, work, case[4:])
    elif case == "compare":
        compare_case(tpfemu, work)
    elif case == "operator":
        operator_case(tpfemu, work)
    elif case == "bad":
        bad_case(tpfemu, work)
    elif case == "study":
        study_case(tpfemu, work)
    else:
        sys.exit(f"unknown case {case}")
    print(f"{case}: OK")


if __name__ == "__main__":
    main()
