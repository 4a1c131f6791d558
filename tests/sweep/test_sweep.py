#!/usr/bin/python3
"""The sweep runner (scripts/sweep) as a user meets it; one CTest test per case
(tests/CMakeLists.txt, label cli):

  test_sweep.py CASE BUILD_DIR     CASE: table, resume, failing, errors, one_at_a_time, made_by,
                                   stale_build, stale_config, rerun_stale, collect, paging_window, slurm,
                                   index

Each case works in BUILD_DIR/sweep-tests/CASE (emptied first) and prints "CASE: OK".
Nothing here depends on timing: the resume case kills the sweep when it has said the
third run started (it runs one at a time), and checks that the third run was indeed
not complete then.
"""
import csv
import filecmp
import hashlib
import json
import math
import os
import shutil
import signal
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
SWEEP = os.path.join(ROOT, "scripts", "sweep")


def fail(msg):
    sys.exit(f"FAIL: {msg}")


def check(cond, msg):
    if not cond:
        fail(msg)


def sweep(args, env, **kw):
    return subprocess.run([SWEEP] + args + ["--no-build"], env=env, capture_output=True,
                          text=True, **kw)


def same_tree(a, b):
    """Byte-identical folders (same names, same bytes), or the first difference."""
    c = filecmp.dircmp(a, b)
    if c.left_only or c.right_only:
        return f"{a} vs {b}: only in one: {c.left_only + c.right_only}"
    for f in c.common_files:
        if not filecmp.cmp(os.path.join(a, f), os.path.join(b, f), shallow=False):
            return f"{a}/{f} differs"
    for d in c.common_dirs:
        r = same_tree(os.path.join(a, d), os.path.join(b, d))
        if r:
            return r
    return None


def rows(path):
    with open(path) as f:
        return list(csv.DictReader(f))


def case_table(work, env):
    a, b = os.path.join(work, "j2"), os.path.join(work, "j1")
    r = sweep([os.path.join(HERE, "small.yaml"), "--out", a, "-j", "2"], env)
    check(r.returncode == 0, f"sweep -j2 failed: {r.stderr}")
    runs = rows(os.path.join(a, "results.csv"))
    check([x["run"] for x in runs] == ["runs/istreams=1,seed=1", "runs/istreams=1,seed=2",
                                       "runs/istreams=2,seed=1", "runs/istreams=2,seed=2"], f"runs: {runs}")
    check(all(x["status"] == "ok" for x in runs), f"status: {runs}")
    for x in runs:
        with open(os.path.join(a, x["run"], "summary.json")) as f:
            s = json.load(f)
        check(s["messages"] == 200, f"{x['run']}: --set workload.messages=200 not applied")
        check(float(x["messages_per_second"]) == s["messages_per_second"], f"{x['run']}: figure not from summary.json")
        busy = sum(i["busy_cycles"] for i in s["istreams"])
        check(int(x["busy_cycles"]) == busy, f"{x['run']}: busy_cycles {x['busy_cycles']} != {busy} (a list is summed)")
        check(int(x["busy_matched"]) == busy, f"{x['run']}: busy_matched {x['busy_matched']} != {busy} (every row matches)")
        check(math.isclose(float(x["cycles_per_message"]), busy / 200), "ratio figure")
    seeds = {x["seed"] for x in runs}
    check(seeds == {"1", "2"}, f"seeds {seeds}")
    # The replications differ (another workload.seed), else the intervals mean nothing.
    check(runs[2]["messages_per_second"] != runs[3]["messages_per_second"], "seeds 1 and 2 gave the same run")
    agg = rows(os.path.join(a, "aggregate.csv"))
    check(len(agg) == 2 and [x["machine.istreams"] for x in agg] == ["1", "2"], f"aggregate rows: {agg}")
    for k, g in enumerate(agg):
        xs = [float(runs[2 * k]["messages_per_second"]), float(runs[2 * k + 1]["messages_per_second"])]
        mean = sum(xs) / 2
        sd = abs(xs[0] - xs[1]) / math.sqrt(2)
        check(g["messages_per_second_n"] == "2", "n")
        check(math.isclose(float(g["messages_per_second_mean"]), mean), f"mean {g['messages_per_second_mean']} != {mean}")
        check(math.isclose(float(g["messages_per_second_sd"]), sd, abs_tol=1e-9), f"sd {g['messages_per_second_sd']} != {sd}")
        check(math.isclose(float(g["messages_per_second_ci95"]), 12.706 * sd / math.sqrt(2), abs_tol=1e-9),
              "ci95 is not Student's t (12.706 at 1 degree of freedom) x sd / sqrt(n)")
    with open(os.path.join(a, "results.json")) as f:
        doc = json.load(f)
    check(len(doc["runs"]) == 4 and len(doc["aggregate"]) == 2, "results.json: runs and aggregate")
    for f in ("messages_per_second", "cpu_utilization"):  # python3-matplotlib: scripts/setup
        p = os.path.join(a, "plots", f + ".png")
        check(os.path.exists(p) and os.path.getsize(p) > 1000, f"{p}: no plot ({r.stderr})")
    # One at a time, the same bytes: run folders and results do not depend on the order.
    r = sweep([os.path.join(HERE, "small.yaml"), "--out", b, "-j", "1"], env)
    check(r.returncode == 0, f"sweep -j1 failed: {r.stderr}")
    d = same_tree(os.path.join(a, "runs"), os.path.join(b, "runs"))
    check(d is None, f"-j1 and -j2 differ: {d}")
    for f in ("results.csv", "aggregate.csv", "results.json"):
        check(filecmp.cmp(os.path.join(a, f), os.path.join(b, f), shallow=False), f"{f} differs between -j1 and -j2")


def case_resume(work, env):
    sw = os.path.join(HERE, "resume.yaml")
    whole, cut = os.path.join(work, "whole"), os.path.join(work, "cut")
    r = sweep([sw, "--out", whole, "-j", "1"], env)
    check(r.returncode == 0, f"uninterrupted sweep failed: {r.stderr}")
    p = subprocess.Popen([SWEEP, sw, "--out", cut, "-j", "1", "--no-build"], env=env,
                         stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, start_new_session=True)
    third = "messages=40000"
    for line in p.stderr:
        if line.startswith(f"sweep: started {third}"):
            os.killpg(p.pid, signal.SIGKILL)  # the sweep and its tpfemu
            break
    else:
        p.wait()
        fail(f"the sweep never said it started {third}")
    p.wait()
    runs = os.path.join(cut, "runs")
    check(not os.path.isdir(os.path.join(runs, third)), "the third run completed before the kill: not interrupted")
    done = sorted(n for n in os.listdir(runs) if not n.startswith("."))
    check(done == ["messages=200", "messages=300"], f"complete after the kill: {done}")
    check(not os.path.exists(os.path.join(cut, "results.csv")), "results.csv written by a killed sweep")
    before = {n: os.stat(os.path.join(runs, n, "summary.json")) for n in done}
    r = sweep([sw, "--out", cut, "-j", "1"], env)
    check(r.returncode == 0, f"resumed sweep failed: {r.stderr}")
    check("2 of 3 runs complete already" in r.stderr, f"resume did not say what it skipped: {r.stderr}")
    check("started messages=200" not in r.stderr, "a complete run was started again")
    for n, st in before.items():
        now = os.stat(os.path.join(runs, n, "summary.json"))
        check((now.st_ino, now.st_mtime_ns) == (st.st_ino, st.st_mtime_ns), f"{n} was run again")
    check(not [n for n in os.listdir(runs) if n.startswith(".tmp-")], "a temporary folder was left")
    d = same_tree(os.path.join(whole, "runs"), runs)
    check(d is None, f"resumed and uninterrupted sweeps differ: {d}")
    for f in ("results.csv", "aggregate.csv", "results.json"):
        check(filecmp.cmp(os.path.join(whole, f), os.path.join(cut, f), shallow=False), f"{f} differs after resume")
    # SIGTERM (or ^C) to the sweep alone: it stops its tpfemu, records no failure, exits 130.
    term = os.path.join(work, "term")
    p = subprocess.Popen([SWEEP, sw, "--out", term, "-j", "1", "--no-build"], env=env,
                         stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    for line in p.stderr:
        if line.startswith(f"sweep: started {third}"):
            p.send_signal(signal.SIGTERM)
            break
    rest = p.stderr.read()
    check(p.wait() == 130 and "interrupted" in rest, f"SIGTERM: exit status {p.returncode}: {rest}")
    runs = os.path.join(term, "runs")
    left = sorted(os.listdir(runs))
    check(left == [".failed", "messages=200", "messages=300"], f"after SIGTERM: {left}")
    check(not os.listdir(os.path.join(runs, ".failed")), "an interrupted run was recorded as failed")
    r = sweep([sw, "--out", term, "-j", "1"], env)
    check(r.returncode == 0 and "2 of 3 runs complete already" in r.stderr, f"resume after SIGTERM: {r.stderr}")
    d = same_tree(os.path.join(whole, "runs"), runs)
    check(d is None, f"resumed after SIGTERM and uninterrupted sweeps differ: {d}")


def case_failing(work, env):
    out = os.path.join(work, "out")
    r = sweep([os.path.join(HERE, "failing.yaml"), "--out", out, "-j", "2"], env)
    check(r.returncode == 1, f"exit status {r.returncode}, not 1: {r.stderr}")
    check("run duration=1us failed" in r.stderr and "no message completed in the measurement window" in r.stderr,
          f"the failure is not named with its error: {r.stderr}")
    check("1 of 3 runs failed" in r.stderr, f"no count of failures: {r.stderr}")
    st = {x["run"]: x for x in rows(os.path.join(out, "results.csv"))}
    check(st["runs/duration=2ms"]["status"] == "ok" and st["runs/duration=3ms"]["status"] == "ok", f"others: {st}")
    check(st["runs/duration=1us"]["status"] == "failed" and "no message completed" in st["runs/duration=1us"]["error"],
          f"failed row: {st['runs/duration=1us']}")
    check(not os.path.exists(os.path.join(out, "runs", "duration=1us")), "a failed run left a run folder")
    # Rerun: the failed point is tried again (and fails again), the others are not rerun.
    r = sweep([os.path.join(HERE, "failing.yaml"), "--out", out, "-j", "2"], env)
    check(r.returncode == 1 and "2 of 3 runs complete already" in r.stderr, f"rerun: {r.stderr}")


def case_slurm(work, env):
    """Under tests/sweep/slurm_cluster.sh (SLURM_CONF: a cluster of its own): the small
    sweep as a job array gives the local executor's bytes."""
    check("SLURM_CONF" in env, "run under tests/sweep/slurm_cluster.sh")
    loc, sl = os.path.join(work, "local"), os.path.join(work, "slurm")
    r = sweep([os.path.join(HERE, "small.yaml"), "--out", loc, "-j", "2"], env)
    check(r.returncode == 0, f"local sweep failed: {r.stderr}")
    r = sweep([os.path.join(HERE, "small.yaml"), "--out", sl, "--executor", "slurm", "--partition", "tpfemu",
               "--time", "5", "--limit", "2", "--poll", "0.3"], env)
    check(r.returncode == 0, f"slurm sweep failed: {r.stdout}{r.stderr}")
    check("--array=0-3%2" in r.stderr and "--partition=tpfemu" in r.stderr and "--time=5" in r.stderr,
          f"sbatch command: {r.stderr}")
    with open(os.path.join(sl, "sweep.sbatch")) as f:
        check("--task \"$SLURM_ARRAY_TASK_ID\"" in f.read(), "sweep.sbatch does not run the array task")
    check(len(os.listdir(os.path.join(sl, "slurm"))) == 4, "not one Slurm output per array task")
    d = same_tree(os.path.join(loc, "runs"), os.path.join(sl, "runs"))
    check(d is None, f"slurm and local run folders differ: {d}")
    for f in ("results.csv", "aggregate.csv", "results.json"):
        check(filecmp.cmp(os.path.join(loc, f), os.path.join(sl, f), shallow=False), f"{f} differs")
    # Complete already: nothing is submitted again.
    r = sweep([os.path.join(HERE, "small.yaml"), "--out", sl, "--executor", "slurm"], env)
    check(r.returncode == 0 and "submitted" not in r.stderr, f"resubmitted a complete sweep: {r.stderr}")
    # A run another build made (its made_by.json as that build would have written it):
    # refused before anything is submitted; --rerun-stale submits exactly that run.
    p = os.path.join(sl, "runs", "istreams=1,seed=2", "made_by.json")
    with open(p) as f:
        m = json.load(f)
    m["tpfemu_sha256"] = "0" * 64
    with open(p, "w") as f:
        json.dump(m, f)
    r = sweep([os.path.join(HERE, "small.yaml"), "--out", sl, "--executor", "slurm"], env)
    check(r.returncode == 2 and "submitted" not in r.stderr and "1 of the 4 complete runs" in r.stderr,
          f"slurm resume over another build's run: {r.returncode}: {r.stderr}")
    r = sweep([os.path.join(HERE, "small.yaml"), "--out", sl, "--executor", "slurm", "--rerun-stale",
               "--partition", "tpfemu", "--poll", "0.3"], env)
    check(r.returncode == 0 and "--array=1 " in r.stderr, f"slurm --rerun-stale: {r.returncode}: {r.stderr}")
    d = same_tree(os.path.join(loc, "runs"), os.path.join(sl, "runs"))
    check(d is None, f"slurm --rerun-stale and local run folders differ: {d}")


def sha256(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def run_stats(runs):
    """Each complete run folder's summary.json (inode, mtime): what a rerun would change."""
    out = {}
    for n in sorted(os.listdir(runs)):
        if not n.startswith("."):
            st = os.stat(os.path.join(runs, n, "summary.json"))
            out[n] = (st.st_ino, st.st_mtime_ns)
    return out


def other_build(work, build):
    """WORK/other-build/tpfemu: the build's tpfemu with a byte appended (another binary
    that runs the same), its guest images the build's."""
    d = os.path.join(work, "other-build")
    os.makedirs(d)
    shutil.copy2(os.path.join(build, "tpfemu"), os.path.join(d, "tpfemu"))
    with open(os.path.join(d, "tpfemu"), "ab") as f:
        f.write(b"\0")
    os.symlink(guest_dir(build), os.path.join(d, "guest"))
    return d


def guest_dir(build):
    """Where the build's tpfemu finds its guest images: its guest/ folder, or the one it
    takes from another build (TPFEMU_GUEST_FROM, as scripts/test-sanitizers' build does)."""
    own = os.path.join(os.path.dirname(os.path.realpath(os.path.join(build, "tpfemu"))), "guest")
    if os.path.isdir(own):
        return own
    with open(os.path.join(build, "CMakeCache.txt")) as f:
        for line in f:
            if line.startswith("TPFEMU_GUEST_FROM:") and line.split("=", 1)[1].strip():
                return os.path.realpath(os.path.join(build, line.split("=", 1)[1].strip()))
    return own


def case_made_by(work, env):
    """plan.json names the build and the configuration files' contents, each run folder
    what made it; the same command again skips every run."""
    out = os.path.join(work, "out")
    small = os.path.join(HERE, "small.yaml")
    r = sweep([small, "--out", out, "-j", "2"], env)
    check(r.returncode == 0, f"sweep failed: {r.stderr}")
    tpfemu = os.path.join(env["TPFEMU_BUILD_DIR"], "tpfemu")
    version = subprocess.run([tpfemu, "--version"], capture_output=True, text=True).stdout.strip()
    with open(os.path.join(out, "plan.json")) as f:
        m = json.load(f)["made_by"]
    demo = os.path.join(ROOT, "configs", "demo.yaml")
    check(m["version"] == version.removeprefix("tpfemu ") and m["tpfemu_sha256"] == sha256(tpfemu)
          and m["configs"] == {demo: sha256(demo)}, f"plan.json made_by: {m}")
    check(m["commit"] and m["commit"] in version and m["modified"] == version.endswith("-dirty)"),
          f"plan.json: commit {m['commit']!r}, modified {m['modified']!r} from {version!r}")
    runs = os.path.join(out, "runs")
    for n in run_stats(runs):
        with open(os.path.join(runs, n, "made_by.json")) as f:
            s = json.load(f)
        check(s["tpfemu_sha256"] == m["tpfemu_sha256"] and s["configs"] == m["configs"], f"{n}: made_by.json {s}")
        img = s["inputs"].get("system.image", {})
        check(img.get("file", "").endswith("tpf_apps.elf") and img.get("sha256") == sha256(img["file"]),
              f"{n}: made_by.json names no image with its SHA-256: {s['inputs']}")
    before = run_stats(runs)
    r = sweep([small, "--out", out, "-j", "2"], env)
    check(r.returncode == 0 and "4 of 4 runs complete already" in r.stderr and "started" not in r.stderr,
          f"resume with the same build: {r.stderr}")
    check(run_stats(runs) == before, "a current run was run again")


def case_stale_build(work, env):
    """Another tpfemu binary: the resume is refused, naming the hashes, for the local
    executor and for a Slurm array task; --rerun-stale runs every run with it."""
    out = os.path.join(work, "out")
    small = os.path.join(HERE, "small.yaml")
    r = sweep([small, "--out", out, "-j", "2"], env)
    check(r.returncode == 0, f"sweep failed: {r.stderr}")
    runs = os.path.join(out, "runs")
    before = run_stats(runs)
    old = sha256(os.path.join(env["TPFEMU_BUILD_DIR"], "tpfemu"))
    other = other_build(work, env["TPFEMU_BUILD_DIR"])
    new = sha256(os.path.join(other, "tpfemu"))
    # (Its guest images named outright: a build that takes them from another build finds
    # them by a path relative to its own folder, which a copied binary does not keep.)
    env2 = dict(env, TPFEMU_BUILD_DIR=other, TPFEMU_GUEST_DIR=guest_dir(env["TPFEMU_BUILD_DIR"]))
    r = sweep([small, "--out", out, "-j", "2"], env2)
    check(r.returncode == 2, f"another build: exit status {r.returncode}, not 2: {r.stderr}")
    check("4 of the 4 complete runs were made by another build or configuration" in r.stderr
          and f"tpfemu sha256: {old} then, {new} now" in r.stderr and "istreams=1,seed=1" in r.stderr
          and "--rerun-stale" in r.stderr, f"the refusal does not name what differs: {r.stderr}")
    check("tpfemu version" not in r.stderr, f"the same version named as a difference: {r.stderr}")
    check(run_stats(runs) == before, "a refused resume touched the runs")
    # An array task of the other build (a rebuild while the job waited) refuses too.
    t = subprocess.run([SWEEP, "--task", "0", out], env=env2, capture_output=True, text=True)
    check(t.returncode != 0 and f"tpfemu sha256: {old} then, {new} now" in t.stderr,
          f"--task with another build: exit status {t.returncode}: {t.stderr}")
    with open(os.path.join(runs, ".failed", "istreams=1,seed=1.txt")) as f:
        check("another build" in f.read(), "the refused task recorded no reason")
    check(run_stats(runs) == before, "a refused task touched the runs")
    r = sweep([small, "--out", out, "-j", "2", "--rerun-stale"], env2)
    check(r.returncode == 0 and r.stderr.count("sweep: started") == 4, f"--rerun-stale: {r.stderr}")
    for n in run_stats(runs):
        with open(os.path.join(runs, n, "made_by.json")) as f:
            check(json.load(f)["tpfemu_sha256"] == new, f"{n}: not made by the other build")
    with open(os.path.join(out, "plan.json")) as f:
        check(json.load(f)["made_by"]["tpfemu_sha256"] == new, "plan.json does not name the latest build")


def case_stale_config(work, env):
    """Changed contents of a configuration file, or of the image a run loaded: refused,
    naming the file and both hashes."""
    conf, image = os.path.join(work, "demo.yaml"), os.path.join(work, "tpf_apps.elf")
    shutil.copy(os.path.join(ROOT, "configs", "demo.yaml"), conf)
    tpfemu = os.path.realpath(os.path.join(env["TPFEMU_BUILD_DIR"], "tpfemu"))
    shutil.copy(os.path.join(guest_dir(env["TPFEMU_BUILD_DIR"]), "tpf_apps.elf"), image)
    sw = os.path.join(work, "sweep.yaml")
    with open(sw, "w") as f:
        f.write(f"configs: [demo.yaml]\nset:\n  workload.messages: 200\n  system.image: {image}\n"
                "grid:\n  machine.istreams: [1, 2]\ncollect:\n  rate: summary.json:messages_per_second\n")
    out = os.path.join(work, "out")
    r = sweep([sw, "--out", out], env)
    check(r.returncode == 0, f"sweep failed: {r.stderr}")
    before = run_stats(os.path.join(out, "runs"))
    old = sha256(conf)
    with open(conf, "a") as f:
        f.write("# a comment: other contents all the same\n")
    r = sweep([sw, "--out", out], env)
    check(r.returncode == 2 and f"{conf} sha256: {old} then, {sha256(conf)} now" in r.stderr
          and "2 of the 2 complete runs" in r.stderr, f"changed configuration: {r.returncode}: {r.stderr}")
    shutil.copy(os.path.join(ROOT, "configs", "demo.yaml"), conf)  # back as it was: current again
    r = sweep([sw, "--out", out], env)
    check(r.returncode == 0 and "2 of 2 runs complete already" in r.stderr, f"configuration restored: {r.stderr}")
    old = sha256(image)
    with open(image, "ab") as f:
        f.write(b"\0")
    r = sweep([sw, "--out", out], env)
    check(r.returncode == 2 and f"system.image {image} sha256: {old} then, {sha256(image)} now" in r.stderr,
          f"changed image: {r.returncode}: {r.stderr}")
    check(run_stats(os.path.join(out, "runs")) == before, "a refused resume touched the runs")


def case_rerun_stale(work, env):
    """Runs of two builds in one folder: --rerun-stale reruns exactly the other build's
    (here two made_by.json edited as an older build would have written them, and one
    without any, as sweeps wrote before they recorded builds) and keeps the current."""
    out = os.path.join(work, "out")
    small = os.path.join(HERE, "small.yaml")
    r = sweep([small, "--out", out, "-j", "2"], env)
    check(r.returncode == 0, f"sweep failed: {r.stderr}")
    whole = os.path.join(work, "whole")
    shutil.copytree(out, whole)
    runs = os.path.join(out, "runs")
    old = ["istreams=1,seed=1", "istreams=2,seed=2"]
    for n in old:
        p = os.path.join(runs, n, "made_by.json")
        with open(p) as f:
            s = json.load(f)
        s["version"], s["tpfemu_sha256"] = "0.1 (git 000000000000)", "0" * 64
        with open(p, "w") as f:
            json.dump(s, f)
    os.remove(os.path.join(runs, "istreams=2,seed=1", "made_by.json"))
    before = run_stats(runs)
    r = sweep([small, "--out", out, "-j", "2"], env)
    check(r.returncode == 2 and "3 of the 4 complete runs were made by another build" in r.stderr
          and "istreams=1,seed=1, istreams=2,seed=2:" in r.stderr
          and "tpfemu version: 0.1 (git 000000000000) then," in r.stderr
          and "made by: a build the sweep did not record (no made_by.json) then" in r.stderr
          and "--rerun-stale runs exactly those again and keeps the 1 current run," in r.stderr, f"mixed builds: {r.returncode}: {r.stderr}")
    r = sweep([small, "--out", out, "-j", "2", "--rerun-stale"], env)
    check(r.returncode == 0, f"--rerun-stale failed: {r.stderr}")
    started = sorted(line.split()[2] for line in r.stderr.splitlines() if line.startswith("sweep: started"))
    check(started == ["istreams=1,seed=1", "istreams=2,seed=1", "istreams=2,seed=2"],
          f"--rerun-stale ran {started}, not exactly the stale runs")
    after = run_stats(runs)
    check(after["istreams=1,seed=2"] == before["istreams=1,seed=2"], "the current run was run again")
    d = same_tree(os.path.join(whole, "runs"), runs)
    check(d is None, f"rerun and first sweep differ: {d}")
    r = sweep([small, "--out", out, "-j", "2"], env)
    check(r.returncode == 0 and "4 of 4 runs complete already" in r.stderr, f"after --rerun-stale: {r.stderr}")


# The middle point fails when it runs (1 us: no message completes), after its
# configuration was checked; the others complete.
COLLECT = """configs: [{demo}]
set:
  workload.messages: 0
zip:
  - machine.istreams: [1, 1, 2]
    workload.duration: [1ms, 1us, 1ms]
collect:
  messages: summary.json:messages
  {extra}
"""


ONE, FAILING, TWO = "istreams=1,duration=1ms", "istreams=1,duration=1us", "istreams=2,duration=1ms"


def case_collect(work, env):
    """A figure a complete run's reports do not give (no such file, member or row, an
    empty list, not a number, a ratio over 0) fails the sweep with the figure, its
    expression, the run and why: never a 0 or an empty cell that reads as a result. A
    run that failed is still a failed run, not a collect error."""
    demo = os.path.join(ROOT, "configs", "demo.yaml")
    bad = {
        "no_row": ("summary.json:istreams[utilization=nothing*].busy_cycles",
                   "[utilization=nothing*] matches no row of istreams ({n} row"),
        "no_field": ("summary.json:istreams[nosuch=1].busy_cycles",
                     "[nosuch=1] matches no row of istreams ({n} row"),
        "no_member": ("summary.json:control_program.no_such_count",
                      "no member control_program.no_such_count (members of control_program: ecbs_created"),
        "no_file": ("nothere.json:a.b", "the run wrote no nothere.json"),
        "no_text": ("nothere.log:lines", "the run wrote no nothere.log"),
        "a_string": ("summary.json:config", f"a string (\"{demo}"),
        "a_mapping": ("summary.json:response_ms", "an object ({"),
        "over_zero": ("messages / transfers", "transfers is 0"),
    }
    extra = "transfers: summary.json:control_program.line_transfers\n  " + "\n  ".join(
        f"{k}: \"{expr}\"" for k, (expr, _) in bad.items())
    sw = os.path.join(work, "collect.yaml")
    with open(sw, "w") as f:
        f.write(COLLECT.format(demo=demo, extra=extra))
    out = os.path.join(work, "out")
    r = sweep([sw, "--out", out, "-j", "2"], env)
    check(r.returncode == 1, f"exit status {r.returncode}, not 1: {r.stderr}")
    check("[nosuch=1] matches no row of istreams (1 row) (no row has a field nosuch)" in r.stderr
          and "[nosuch=1] matches no row of istreams (2 rows) (no row has a field nosuch)" in r.stderr,
          f"a filter on a field no row has: {r.stderr}")
    for run, n in ((ONE, 1), (TWO, 2)):
        check(f"run {run}: figures not collected:" in r.stderr, f"{run} not named: {r.stderr}")
        for k, (expr, why) in bad.items():
            if k == "over_zero" and run == TWO:
                continue  # two I-streams transfer lines: a ratio there
            want = f"collect.{k}: {expr}: {why.replace('{n}', str(n))}"
            check(want in r.stderr, f"{run}: expected {want!r} in: {r.stderr}")
    check("the figures of 2 of 3 runs were not all collected" in r.stderr, f"no count: {r.stderr}")
    check(f"run {FAILING} failed" in r.stderr and f"run {FAILING}: figures not collected" not in r.stderr,
          f"the failed run: {r.stderr}")
    st = {x["run"]: x for x in rows(os.path.join(out, "results.csv"))}
    one = st[f"runs/{ONE}"]
    check(one["status"] == "collect failed" and int(one["messages"]) > 0 and one["transfers"] == "0",
          f"the figures that are there stay: {one}")
    check(all(one[k] == "" for k in bad), f"a figure not collected has a value: {one}")
    check("collect.no_row: " in one["error"] and "collect.over_zero: " in one["error"], f"error column: {one}")
    check(st[f"runs/{TWO}"]["over_zero"] != "", f"{TWO}'s ratio: {st[f'runs/{TWO}']}")
    check(st[f"runs/{FAILING}"]["status"] == "failed", f"the failed run: {st[f'runs/{FAILING}']}")
    agg = rows(os.path.join(out, "aggregate.csv"))
    check(all(a["failed"] == "1" and a["messages_n"] == "0" for a in agg),
          f"a run whose figures were not all collected counted in the aggregate: {agg}")
    # collect: corrected, into the same folder: the runs are kept (only the failed one
    # is tried again) and their figures collected again.
    before = run_stats(os.path.join(out, "runs"))
    with open(sw, "w") as f:
        f.write(COLLECT.format(demo=demo, extra="busy: summary.json:istreams[utilization=*].busy_cycles"))
    r = sweep([sw, "--out", out], env)
    check(r.returncode == 1 and "figures not collected" not in r.stderr and "1 of 3 runs failed" in r.stderr
          and "2 of 3 runs complete already" in r.stderr, f"collect: corrected: {r.returncode}: {r.stderr}")
    check(run_stats(os.path.join(out, "runs")) == before, "a run was run again for a new collect:")
    st = {x["run"]: x for x in rows(os.path.join(out, "results.csv"))}
    check(st[f"runs/{ONE}"]["status"] == "ok" and int(st[f"runs/{ONE}"]["busy"]) > 0,
          f"collected again: {st[f'runs/{ONE}']}")
    # Other runs (another grid) are still another sweep.
    with open(sw, "w") as f:
        f.write(COLLECT.format(demo=demo, extra="").replace("[1, 1, 2]", "[1, 2, 2]"))
    r = sweep([sw, "--out", out], env)
    check(r.returncode == 2 and "this folder holds another sweep" in r.stderr, f"another grid: {r.stderr}")


def case_paging_window(work, env):
    """scripts/experiment-paging (built on these sweeps) counts E3b's first 45 s from
    run.log's end-of-prelude line; a run.log without it fails the study, quoting the
    line and naming the file, instead of counting from 0."""
    import importlib.machinery
    import importlib.util
    sys.path.insert(0, os.path.join(ROOT, "scripts"))
    path = os.path.join(ROOT, "scripts", "experiment-paging")
    loader = importlib.machinery.SourceFileLoader("experiment_paging", path)
    spec = importlib.util.spec_from_loader("experiment_paging", loader)
    ep = importlib.util.module_from_spec(spec)
    loader.exec_module(ep)
    run = os.path.join(work, "run")
    os.makedirs(run)
    with open(os.path.join(run, "timeline.json"), "w") as f:
        json.dump({"interval_s": 0.5, "columns": ["time_s", "messages_per_s", "response_ms", "page_ins_scm_per_s",
                                                  "page_ins_dasd_per_s"],
                   "rows": [[t / 2, 10.0 * t, 1.0, 0, 0] for t in range(1, 9)]}, f)
    with open(os.path.join(run, "summary.json"), "w") as f:
        json.dump({"istreams": [{"cycles": 4000}], "simulated_seconds": 4.0}, f)  # 1,000 cycles a second
    log = os.path.join(run, "run.log")
    with open(log, "w") as f:
        f.write("           0 workload.program QTRN\n        2000 workload.prelude QNGT ended: the messages begin\n")
    check(ep.Timeline(run).begin == 2.0, f"begin: {ep.Timeline(run).begin}, not 2.0 s")
    with open(log, "w") as f:
        f.write("           0 workload.program QTRN\n")
    try:
        begin, error = ep.Timeline(run).begin, None
    except SystemExit as e:
        begin, error = None, str(e)
    check(begin is None, f"a run.log without the prelude's end gave a window start: {begin}")
    want = f"{log}: no line \"CYCLE workload.prelude PROGRAM ended: the messages begin\""
    check(want in error, f"expected {want!r}, got: {error}")


BAD = [
    ("configs: [../../configs/demo.yaml]\ngrid:\n  machine.istreams: [1, 2]\ncolect:\n  a: summary.json:messages\n",
     "bad.yaml:4: colect: unknown key"),
    ("configs: [../../configs/demo.yaml]\ngrid:\n  machine.istreams: 2\ncollect:\n  a: summary.json:messages\n",
     "bad.yaml:3: machine.istreams: expected a list"),
    ("configs: [nothere.yaml]\ncollect:\n  a: summary.json:messages\n",
     "bad.yaml:1: configs: nothere.yaml: no such file"),
    ("configs: [../../configs/demo.yaml]\nzip:\n  - machine.istreams: [1, 2]\n    workload.terminals: [1, 2, 3]\n"
     "collect:\n  a: summary.json:messages\n",
     "bad.yaml:4: zip.workload.terminals: 3 values, machine.istreams has 2"),
    ("configs: [../../configs/demo.yaml]\none_at_a_time:\n  machine.istreams: [1]\ncollect:\n  a: summary.json:m\n",
     "bad.yaml:3: one_at_a_time.machine.istreams: the reference value and at least one other are needed"),
    ("configs: [../../configs/demo.yaml]\nreplications: 0\ncollect:\n  a: summary.json:messages\n",
     "bad.yaml:2: replications: 0 is out of range 1..1000"),
    ("configs: [../../configs/demo.yaml]\ncollect:\n  a: summary.json:messages\n  b: a / c\n",
     "bad.yaml:4: collect.b: c is not a figure collected above it"),
    ("configs: [../../configs/demo.yaml]\ngrid:\n  istreams: [1]\ncollect:\n  a: summary.json:messages\n",
     "bad.yaml:3: istreams: not a configuration key"),
    ("configs: [../../configs/demo.yaml]\ngrid:\n  machine.istreams: [1]\n  machine.istreams: [2]\n"
     "collect:\n  a: x.json:m\n", "bad.yaml:4: grid.machine.istreams: given twice (also line 3)"),
    ("configs: [../../configs/demo.yaml]\ngrid:\n  machine.istreams: [1]\ncollect:\n  a: summary.json:messages\n"
     "plot:\n  labels:\n    b: \"messages\"\n",
     "bad.yaml:8: plot.labels.b: neither a collected figure nor a swept parameter"),
    # Found by the sweep file fuzzer (tests/fuzz/fuzz_sweep.py): each was a Python traceback or a hang.
    (b"configs: [x]\ncollect:\n  a: summary.json:mess\xfeages\n",
     "bad.yaml:3: not UTF-8 text (byte 0xfe at offset 44)"),
    ("configs: [../../configs/demo.yaml]\ncollect:\n  a: summary.json:mes\x00sages\n",
     "bad.yaml:3: not YAML: character U+0000 is not allowed"),
    ("configs: [../../configs/demo.yaml]\nset:\n  workload.messages: " + "[" * 1000 + "1" + "]" * 1000 + "\n",
     "bad.yaml:3: nested more than 16 levels deep"),
    ("configs: [../../configs/demo.yaml]\nset:\n  workload.seed: !!python/name:os.system\ncollect:\n  a: s.json:m\n",
     "bad.yaml:3: set.workload.seed: could not determine a constructor for the tag"),
    ("configs: [../../configs/demo.yaml]\nset:\n  workload.seed: !!timestamp today\ncollect:\n  a: s.json:m\n",
     "bad.yaml:3: set.workload.seed: "),
    ("configs: [../../configs/demo.yaml]\ngrid:\n" + "".join(f"  machine.k{i}: [0,1,2,3,4,5,6,7,8,9]\n" for i in range(5))
     + "collect:\n  a: s.json:m\n", "bad.yaml:2: 100000 runs (points x seeds): more than 10000"),
    ("configs: [../../configs/demo.yaml]\ngrid:\n  machine.istreams: [1, 2]\nderive:\n"
     "  workload.terminals: '{machine.istreams} // 0'\ncollect:\n  a: s.json:m\n",
     "bad.yaml:5: derive.workload.terminals: at machine.istreams=1: integer division or modulo by zero"),
    ("configs: [../../configs/demo.yaml]\ngrid:\n  machine.istreams: [1, 2]\nderive:\n"
     "  workload.terminals: '{machine.istreams} /true/ 0'\ncollect:\n  a: s.json:m\n",
     "bad.yaml:5: derive.workload.terminals: '{machine.istreams} /true/ 0' is not an expression"),
    ("configs: [../../configs/demo.yaml]\ngrid:\n  machine.istreams: [1, 2]\nderive:\n"
     "  workload.terminals: '{machine.istreams} * \"2\"'\ncollect:\n  a: s.json:m\n",
     "bad.yaml:5: derive.workload.terminals: '{machine.istreams} * \"2\"' is not an expression"),
    ("configs: [../../configs/demo.yaml]\ngrid:\n  machine.istreams: [1, 2]\ncollect:\n  a: summary.json:messages\n"
     "plot:\n  yzero: maybe\n",
     "bad.yaml:7: plot.yzero: 'maybe': true or false"),
    ("configs: [../../configs/demo.yaml]\ngrid:\n  machine.istreams: [1, 2]\ncollect:\n  a: summary.json:messages\n"
     "plot:\n  units:\n    b: s\n",
     "bad.yaml:8: plot.units.b: neither a collected figure nor a swept parameter"),
    # Keys checked against tpfemu's before any run (issue 27): a typo in grid:, a value out
    # of range at one point, a derived key misspelt; the sweep file's line named.
    ("configs: [../../configs/demo.yaml]\ngrid:\n  machine.istreems: [1, 2]\ncollect:\n  a: summary.json:messages\n",
     "bad.yaml:3: grid.machine.istreems: unknown key (did you mean istreams?)"),
    ("configs: [../../configs/demo.yaml]\ngrid:\n  machine.istreams: [1, 200]\ncollect:\n  a: summary.json:messages\n",
     "bad.yaml:3: grid.machine.istreams: 200 is out of range 1..64 (at machine.istreams=200)"),
    ("configs: [../../configs/demo.yaml]\ngrid:\n  machine.istreams: [1, 2]\nderive:\n"
     "  workload.terminal: '{machine.istreams} * 2'\ncollect:\n  a: summary.json:messages\n",
     "bad.yaml:5: derive.workload.terminal: unknown key"),
]


def case_errors(work, env):
    path = os.path.join(work, "bad.yaml")
    for text, want in BAD:
        if isinstance(text, str):
            text = text.replace("../../configs/", os.path.join(ROOT, "configs") + "/").encode()
        with open(path, "wb") as f:
            f.write(text)
        r = sweep([path, "--out", os.path.join(work, "out")], env)
        check(r.returncode == 2, f"{want!r}: exit status {r.returncode}: {r.stderr}")
        check(want in r.stderr, f"expected {want!r}, got: {r.stderr}")


def case_one_at_a_time(work, env):
    """A sensitivity study's points: the reference (every key's first value), then each
    key alone at each of its other values, crossed with the grid; named by what moved."""
    sys.path.insert(0, os.path.join(ROOT, "scripts"))
    import tpfemu_sweep as sw
    path = os.path.join(work, "oat.yaml")
    with open(path, "w") as f:
        f.write(f"configs: [{ROOT}/configs/demo.yaml]\ngrid:\n  machine.istreams: [1, 2]\none_at_a_time:\n"
                "  workload.terminals: [4, 1, 8]\n  workload.think_time: [0, 1ms]\n"
                "collect:\n  rate: summary.json:messages_per_second\n")
    p = sw.plan(sw.load(path))
    names = [r["name"] for r in p["runs"]]
    check(names == ["istreams=1,reference", "istreams=1,terminals=1", "istreams=1,terminals=8",
                    "istreams=1,think_time=1ms", "istreams=2,reference", "istreams=2,terminals=1",
                    "istreams=2,terminals=8", "istreams=2,think_time=1ms"], f"names: {names}")
    params = [r["params"] for r in p["runs"]]
    check(params[3] == {"machine.istreams": 1, "workload.terminals": 4, "workload.think_time": "1ms"},
          f"one moved, the rest at their first values: {params[3]}")
    check(all("workload.terminals=4" in r["args"] or r["params"]["workload.terminals"] != 4 for r in p["runs"]),
          "the reference values are passed too")
    # A point whose values make a long name gets a short one: its number (results.csv maps it).
    with open(path, "w") as f:
        f.write(f"configs: [{ROOT}/configs/demo.yaml]\ngrid:\n  machine.istreams: [1, 2]\n"
                "  workload.message_text: ['a text long enough to make a folder name no one wants to type', short]\n"
                "collect:\n  rate: summary.json:messages_per_second\n")
    names = [r["name"] for r in sw.plan(sw.load(path))["runs"]]
    check(names == ["p001", "istreams=1,message_text=short", "p003", "istreams=2,message_text=short"],
          f"long names: {names}")


def case_index(work, env):
    """DIR/index.html: a table row per parameter, run and point (a link to each run's
    report.html, which is as tpfemu report writes it), the plots inlined; the same bytes
    when the sweep is resumed and when it is run again into another folder."""
    sys.path.insert(0, os.path.join(ROOT, "tests", "report"))
    import report_test
    a, b = os.path.join(work, "a"), os.path.join(work, "b")
    r = sweep([os.path.join(HERE, "small.yaml"), "--out", a, "-j", "2"], env)
    check(r.returncode == 0, f"sweep failed: {r.stderr}")
    index = os.path.join(a, "index.html")
    check(f"page: {index}" in r.stdout, f"the sweep did not say where its page is: {r.stdout}")
    page = report_test.parse(index)  # nothing loaded from elsewhere
    with open(os.path.join(a, "results.json")) as f:
        doc = json.load(f)
    want = {"params": len(doc["params"]), "runs": len(doc["runs"]), "aggregate": len(doc["aggregate"])}
    check(page.tables == want, f"index.html tables {page.tables}, results.json warrants {want}")
    with open(index) as f:
        text = f.read()
    plots = sorted(os.listdir(os.path.join(a, "plots")))
    check(len(plots) >= 2 and text.count('src="data:image/png;base64,') == len(plots),
          f"{len(plots)} plots, {text.count('data:image/png')} inlined")
    for row in doc["runs"]:
        link = f'href="{row["run"]}/report.html"'
        check(link in text, f"no link to {row['run']}/report.html")
        report_test.check_page(os.path.join(a, row["run"]))
    r = sweep([os.path.join(HERE, "small.yaml"), "--out", a, "-j", "2"], env)  # resumed: nothing to run
    check(r.returncode == 0 and open(index).read() == text, f"index.html differs when resumed: {r.stderr}")
    r = sweep([os.path.join(HERE, "small.yaml"), "--out", b, "-j", "1"], env)
    check(r.returncode == 0 and open(os.path.join(b, "index.html")).read() == text,
          f"index.html differs in another folder: {r.stderr}")


def main():
    case, build = sys.argv[1], os.path.abspath(sys.argv[2])
    work = os.path.join(build, "sweep-tests", case)
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    # No scripts/__pycache__ from this test or the scripts it runs: tests leave the source tree as it was.
    sys.dont_write_bytecode = True
    env = dict(os.environ, TPFEMU_BUILD_DIR=build, PYTHONDONTWRITEBYTECODE="1")
    {"table": case_table, "resume": case_resume, "failing": case_failing, "errors": case_errors,
     "slurm": case_slurm, "one_at_a_time": case_one_at_a_time, "made_by": case_made_by,
     "stale_build": case_stale_build, "stale_config": case_stale_config,
     "rerun_stale": case_rerun_stale, "collect": case_collect, "paging_window": case_paging_window,
     "index": case_index}[case](work, env)
    print(f"{case}: OK")


if __name__ == "__main__":
    main()
