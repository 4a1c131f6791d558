#!/usr/bin/python3
"""E3's full sweep against its bands (ctest experiment.e3_bands, label long).

Runs scripts/experiment-paging (spread, large-pages, sadmp: docs/e3-paging.md's tables;
the spread is E3b's and E3c's runs over 5 seeds and a second placement of storage, 72
runs) with the build's tpfemu into OUT, emptied first (a sweep
resumed there would refuse an older build's runs, and the bands must be this build's),
or reads an existing results.json (--results), and checks
  - the document's directions (seed 002), on E3b's and E3c's medians over the spread:
    with SCM more transactions in the first 45 s,
    a shorter mean response, steady throughput sooner, the region nondispatchable for
    less of the dump and steady sooner after it, a higher peak page-in rate; 1 MB pages
    cost less CPU and fewer TLB cycles a transaction than 4 KB pages; a stand-alone dump
    with SCM is shorter, waits less for paging I/O and reads faster, the same pages
    dumped, about half from aux, and the time spent writing (total less wait) about
    the same on both;
  - that rates and response times do not depend on the scale factor (f = 64 against
    128, the 100-page transaction: transactions in 45 s within 15%, medians);
  - every figure of those tables within BAND of what the real runs gave
    (MEASURED below; E3b's and E3c's medians), so that a change that moves a figure shows.
A failure names the row, the figure, the value and the band.

usage: e3_bands.py (--build DIR --out DIR | --results FILE)
"""
import argparse
import json
import os
import shutil
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BAND = 0.10  # relative, either side

# What the runs gave (scripts/experiment-paging, the model of this commit: since issue
# 24's TLB as z's; docs/machine.md, "What the TLB as z's moved", has what that change moved;
# E3b's and E3c's are checked against the spread's medians since issue 47). Keys:
# (pages, f, device) for E3b, (f, device) for E3c, message_text for E3d, device for E3e.
# Issue 44 moved the night's storage above the bar (GETSTOR64, so that f = 1 runs): three
# DASD rows moved with it, re-stated here (the bands are as wide as before); before, they were
# (100, 64) (9216, 0.0564, 9.73, 25920), (300, 64) (4288, 0.3589, 67.73, 35072) and E3c's
# (128) steady_s 45.12. docs/e3-paging.md, "The night above the bar", says why.
# Issue 47 (E3's spread): E3b's and E3c's rows below are re-centred on the medians of
# `scripts/experiment-paging --studies spread` (seeds 1-5 and placement 1028K, 72 runs) on
# the model of commit be58285 (main merged in; the ECB's stack's first references, a first
# reference taking its frame as a page-in does); the bands stay 10%. Before, they were the
# single runs above: E3b (100, 64) DASD (9280, 0.0554, 10.73, 27328), SCM (11008, 0.0101,
# 7.94, 491520); (100, 128) DASD (8832, 0.0603, 21.00, 23552), SCM (11136, 0.0084, 9.95,
# 524288); (300, 64) DASD (3904, 0.3539, 65.73, 35072), SCM (11008, 0.0106, 7.94, 491520);
# (300, 128) DASD (1024, 0.2578, 60.00, 37376), SCM (11136, 0.0085, 9.95, 524288); E3c
# (64) DASD (74.51, 29.842, 37.12, 0.517, 81920), SCM (74.51, 3.793, 8.12, 0.367, 491520);
# (128) DASD (76.57, 33.642, 46.12, 0.539, 88064), SCM (76.57, 4.228, 11.12, 0.461, 491648).
# docs/e3-paging.md, "E3's spread", has every median with its range.
MEASURED = {
    "transition": {
(100, 64, "DASD"): (10112, 0.0567, 8.93, 25024),
        (100, 64, "SCM"): (11168, 0.0118, 8.43, 475136),
        (100, 128, "DASD"): (9280, 0.0666, 15.71, 27776),
        (100, 128, "SCM"): (11328, 0.0076, 8.93, 442368),
        (300, 64, "DASD"): (4576, 0.3520, 60.43, 36096),
        (300, 64, "SCM"): (11168, 0.0122, 8.43, 475136),
        (300, 128, "DASD"): (1792, 0.2705, 67.71, 38016),
        (300, 128, "SCM"): (11328, 0.0078, 8.93, 442368),
    },
    "dump": {
        (64, "DASD"): (73.43, 28.987, 35.62, 0.510, 84480),
        (64, "SCM"): (73.43, 3.454, 7.62, 0.348, 491584),
        (128, "DASD"): (74.42, 30.006, 41.62, 0.524, 88064),
        (128, "SCM"): (74.42, 3.542, 10.62, 0.433, 491648),
    },
    "large-pages": {
        "100 20000": (0.02806, 0.02857, 0.0177, 3130, 5933),
        "100 2000": (0.00732, 0.00783, 0.0651, 3125, 5934),
        # after the E3 workload gained common tables (issue 33); re-stated at be58285 (issue 47's
        # branch merged with main: E3d runs no real storage, so its first references only cost,
        # never wait): the cut, a difference of two CPU times within 0.15% of each other, 0.0025 ->
        # 0.0014 (ms 0.23572 -> 0.23601 and 0.23630 -> 0.23634, TLB 3128 -> 3134, 5935 -> 5931).
        "100 200000": (0.23601, 0.23634, 0.0014, 3134, 5931),
        "1000 20000": (0.05601, 0.06145, 0.0885, 30208, 58392),
    },
    "sadmp": {
        "DASD": (239.61, 87.29, 157.91, 29.38, 13.46),
        "SCM": (161.23, 9.01, 1534.23, 29.38, 13.50),
    },
}
FIGURES = {
    "transition": ("transactions_45s", "response_s", "steady_s", "peak"),
    "dump": ("elapsed_s", "nondispatchable_s", "steady_s", "from_aux", "peak"),
    "large-pages": ("ms_1m", "ms_4k", "cut", "tlb_per_tx_1m", "tlb_per_tx_4k"),
    "sadmp": ("total_s", "wait_s", "rate_mib_s", "dumped_gib", "aux_gib"),
}

failures = []


def check(ok, what):
    print(("ok    " if ok else "FAIL  ") + what)
    if not ok:
        failures.append(what)


def keyed(results):
    """The rows by key; E3b's and E3c's are the spread's medians (the bands are on them)."""
    if "spread" not in results:
        sys.exit("e3_bands.py: the results hold no spread study (scripts/experiment-paging --studies spread): "
                 "E3b's and E3c's bands are on its medians")
    medians = results["spread"]["medians"]
    t = {(r["pages"], r["f"], r["device"]): r for r in medians["transition"]}
    d = {(r["f"], r["device"]): r for r in medians["dump"]}
    lp = {r["message_text"]: r for r in results["large-pages"]["rows"]}
    sa = {r["device"]: r for r in results["sadmp"]["rows"]}
    return {"transition": t, "dump": d, "large-pages": lp, "sadmp": sa}


def directions(k):
    t, d, lp = k["transition"], k["dump"], k["large-pages"]
    for pages in (100, 300):
        for f in (64, 128):
            dasd, scm = t[(pages, f, "DASD")], t[(pages, f, "SCM")]
            row = f"E3b {pages} pages f={f}"
            check(scm["transactions_45s"] > dasd["transactions_45s"],
                  f"{row}: SCM completes more in 45 s ({scm['transactions_45s']:,.0f} > {dasd['transactions_45s']:,.0f})")
            check(scm["response_s"] < dasd["response_s"],
                  f"{row}: SCM's mean response is shorter ({scm['response_s']:.3f} < {dasd['response_s']:.3f} s)")
            check(scm["steady_s"] is not None and (dasd["steady_s"] is None or scm["steady_s"] < dasd["steady_s"]),
                  f"{row}: SCM reaches steady throughput sooner ({scm['steady_s']} < {dasd['steady_s']} s)")
            check(scm["peak"] > dasd["peak"], f"{row}: SCM's peak page-in rate is higher")
    for f in (64, 128):
        dasd, scm = d[(f, "DASD")], d[(f, "SCM")]
        row = f"E3c f={f}"
        check(scm["nondispatchable_s"] < dasd["nondispatchable_s"] / 2,
              f"{row}: the region is nondispatchable less than half as long with SCM "
              f"({scm['nondispatchable_s']:.2f} < {dasd['nondispatchable_s']:.2f} / 2 s)")
        check(scm["steady_s"] < dasd["steady_s"], f"{row}: steady sooner after the dump with SCM")
        check(scm["elapsed_s"] <= dasd["elapsed_s"], f"{row}: the dump takes no longer with SCM")
        check(0.3 <= dasd["from_aux"] <= 0.7 and 0.3 <= scm["from_aux"] <= 0.7,
              f"{row}: about half the pages come from auxiliary storage ({dasd['from_aux']:.0%}, {scm['from_aux']:.0%})")
    for text, r in lp.items():
        check(r["cut"] > 0 and r["tlb_per_tx_1m"] < r["tlb_per_tx_4k"],
              f"E3d {text}: 1 MB pages cost less CPU ({r['cut']:.1%}) and fewer TLB cycles a transaction")
    dasd, scm = k["sadmp"]["DASD"], k["sadmp"]["SCM"]
    check(scm["total_s"] < dasd["total_s"], f"E3e: the stand-alone dump is shorter with SCM "
          f"({scm['total_s']:.1f} < {dasd['total_s']:.1f} s)")
    check(scm["wait_s"] < dasd["wait_s"] / 2, f"E3e: less than half the paging I/O wait with SCM "
          f"({scm['wait_s']:.2f} < {dasd['wait_s']:.2f} / 2 s)")
    check(scm["rate_mib_s"] > 2 * dasd["rate_mib_s"], f"E3e: more than twice the batch read rate with SCM "
          f"({scm['rate_mib_s']:.0f} > 2 x {dasd['rate_mib_s']:.0f} MB/s)")
    check(abs(scm["dumped_gib"] - dasd["dumped_gib"]) <= 0.05 * dasd["dumped_gib"],
          f"E3e: the same GB dumped within 5% ({scm['dumped_gib']:.1f}, {dasd['dumped_gib']:.1f})")
    for dev, r in (("DASD", dasd), ("SCM", scm)):
        check(0.3 <= r["aux_gib"] / r["dumped_gib"] <= 0.7, f"E3e {dev}: about half the dump from aux "
              f"({r['aux_gib'] / r['dumped_gib']:.0%})")
    writing = (dasd["total_s"] - dasd["wait_s"], scm["total_s"] - scm["wait_s"])
    check(abs(writing[0] - writing[1]) <= 0.1 * writing[0], f"E3e: total less paging I/O wait about the same "
          f"on both ({writing[0]:.1f}, {writing[1]:.1f} s): the reads do not overlap the writes")
    for dev in ("DASD", "SCM"):
        a, b = t[(100, 64, dev)]["transactions_45s"], t[(100, 128, dev)]["transactions_45s"]
        check(abs(a - b) <= 0.15 * a, f"E3b 100 pages {dev}: f = 64 and 128 agree within 15% ({a:,.0f}, {b:,.0f})")


def bands(k):
    for study, rows in MEASURED.items():
        for key, want in rows.items():
            got = k[study].get(key)
            if got is None:
                check(False, f"{study} {key}: no such row")
                continue
            for name, value in zip(FIGURES[study], want):
                v = got[name]
                ok = v is not None and abs(v - value) <= BAND * abs(value)
                check(ok, f"{study} {key} {name}: {v} within {BAND:.0%} of {value}")


def emptied(out):
    """OUT removed, when it holds only what scripts/experiment-paging writes there (its
    results.json and e3-* sweep folders): anything else names a folder that is not the
    band test's own, which is refused rather than deleted."""
    if not os.path.lexists(out):
        return
    if os.path.islink(out) or not os.path.isdir(out):
        sys.exit(f"e3_bands.py: --out {out}: not a folder")
    other = sorted(n for n in os.listdir(out) if n != "results.json" and not n.startswith("e3-"))
    if other:
        sys.exit(f"e3_bands.py: --out {out}: holds {other[0]}, which scripts/experiment-paging does not write; "
                 "not emptied (give the band test a folder of its own)")
    shutil.rmtree(out)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build")
    ap.add_argument("--out")
    ap.add_argument("--results")
    a = ap.parse_args()
    path = a.results
    if not path:
        if not (a.build and a.out):
            ap.error("--build and --out, or --results")
        emptied(a.out)
        # No scripts/__pycache__: a test leaves the source tree as it was.
        env = dict(os.environ, TPFEMU_BUILD_DIR=os.path.abspath(a.build), PYTHONDONTWRITEBYTECODE="1")
        subprocess.run([os.path.join(ROOT, "scripts", "experiment-paging"), "--out", a.out, "--no-plots",
                        "--studies", "spread,large-pages,sadmp", "-j", "2"], check=True, env=env)
        path = os.path.join(a.out, "results.json")
    with open(path) as f:
        k = keyed(json.load(f))
    directions(k)
    bands(k)
    if failures:
        sys.exit(f"{len(failures)} of the E3 checks failed")
    print("E3: every direction and band holds")


if __name__ == "__main__":
    main()
