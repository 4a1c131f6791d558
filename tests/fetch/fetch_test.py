#!/usr/bin/python3
"""Program fetch through the control program (issue 26): QFET (configs/e5-fetch.yaml)
LOADs, DELETEs and BLDLs modules of a library built at the start or by tpfemu-libbuild.
Fails unless
  - a LOAD of IEFBR14 from a PDS is exactly two EXCPs (BLDL's and the module's, seed 001's
    10,006 for 5,000) and a LOAD of a 4 MB module one more EXCP a cylinder it spans;
  - BLDL searches the directory in order: a name in the k-th block reads k blocks;
  - LLA DIRECTORY leaves one EXCP a LOAD after the first, MODULES none;
  - a PDSE's directory is read once; NOPACK,NOPRIME loads its INITIAL text (25%), PACK,PRIME all;
    a reference to a DEFERRED class's page faults and brings it in;
  - a LOAD's CPU is the contents supervisor's guest code as executed (more adcons, more
    CPU, in proportion); system.fetch.cpu.* is refused;
  - each RLD item is counted (relocated) once a LOAD;
  - E5's directions at a short size: ARCCTL elapsed and CPU 6144 > 23440 > 32760; the PDSE
    (NOPACK) faster than the 32760 PDS; a 4,200-member PDS slower than a 2-member one,
    PDSEs of both alike; 32760 the fewest tracks for the synthetic LINKLIB;
  - a bad library (a name not there, a truncated text record, a directory block whose
    count is wrong, a TTR beyond the extent, a member's first record missing) ends each
    such LOAD with its abend dump, the run going on to the next message;
  - programs of system.fetch.programs are fetched at their first ENTER, once, others waiting;
  - tpfemu compare compares fetch.json;
  - the same configuration writes the same fetch.json and summary.json twice.

usage: fetch_test.py TPFEMU LIBBUILD SOURCE_DIR SCRATCH
"""
import json
import os
import shutil
import struct
import subprocess
import sys

tpfemu, libbuild, source, scratch = sys.argv[1:5]
shutil.rmtree(scratch, ignore_errors=True)
os.makedirs(scratch)
CONFIG = os.path.join(source, "configs", "e5-fetch.yaml")
TWO = os.path.join(source, "configs", "e5", "members-2.txt")
MANY = os.path.join(source, "configs", "e5", "members-4200.txt")
failures = []
count = [0]


def run(text, sets=(), messages=1, expect_ok=True):
    count[0] += 1
    out = os.path.join(scratch, f"r{count[0]}")
    cmd = [tpfemu, "run", CONFIG, "--no-progress", "--out", out, "--set", f"workload.message_text={text}",
           "--set", f"workload.messages={messages}"]
    for s in sets:
        cmd += ["--set", s]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit(f"FAIL: {' '.join(cmd)}: exit {r.returncode}\n{r.stdout}\n{r.stderr}")
    f = json.load(open(os.path.join(out, "fetch.json")))
    f["dir"] = out
    f["dumps"] = open(os.path.join(out, "dumps.txt")).read()
    f["log"] = open(os.path.join(out, "run.log")).read()
    return f


def module(f, name):
    return next(m for m in f["modules"] if m["name"] == name)


def check(ok, what):
    if not ok:
        failures.append(what)


# EXCPs a LOAD.
f = run("L IEFBR14 50")
check(f["jobs"][0]["excps"] == 100 and module(f, "IEFBR14")["loads"] == 50 and module(f, "IEFBR14")["deletes"] == 50,
      f"IEFBR14: 50 LOADs took {f['jobs'][0]['excps']} EXCPs, not 100")
for size, per_load in ((6144, 9), (32760, 8)):   # BLDL + one a cylinder: 4 MB is 85 tracks at 6144, 75 at 32760
    f = run("L ARCCTL 2", [f"system.fetch.block_size={size}"])
    check(f["jobs"][0]["excps"] == 2 * per_load, f"ARCCTL at {size}: {f['jobs'][0]['excps']} EXCPs for 2 LOADs, "
          f"not {2 * per_load}")
    check(module(f, "ARCCTL")["rld_items"] == 2 * 32768, f"ARCCTL: {module(f, 'ARCCTL')['rld_items']} adcons relocated")

# BLDL's search order: members M000..M199 in 256-byte blocks of 7 entries.
members = os.path.join(scratch, "members.txt")
with open(members, "w") as out:
    out.write("".join(f"M{i:03d} 100\n" for i in range(200)))
blocks = {}
for i in (0, 6, 7, 100, 199):
    f = run(f"B M{i:03d} 1", [f"system.fetch.members={members}"])
    blocks[i] = module(f, f"M{i:03d}")["directory_blocks"]
    check(f"QFET: 1 BLDL of M{i:03d}: found" in f["log"], f"BLDL M{i:03d}: not found")
check(blocks == {0: 1, 6: 1, 7: 2, 100: 15, 199: 29}, f"BLDL blocks searched by position: {blocks}")
f = run("B NOSUCH 1", [f"system.fetch.members={members}"])
check("QFET: 1 BLDL of NOSUCH: not found" in f["log"] and "ABEND" not in f["dumps"], "BLDL of a name not there")

# LLA.
for mode, excps in (("NONE", 40), ("DIRECTORY", 21), ("MODULES", 2)):
    f = run("L IEFBR14 20", [f"system.fetch.lla={mode}"])
    check(f["jobs"][0]["excps"] == excps, f"LLA {mode}: {f['jobs'][0]['excps']} EXCPs for 20 LOADs, not {excps}")

# PDSE.
one = run("L ARCCTL 1", ["system.fetch.organization=PDSE"])
three = run("L ARCCTL 3", ["system.fetch.organization=PDSE"])
directory_excps = one["jobs"][0]["excps"] - (three["jobs"][0]["excps"] - one["jobs"][0]["excps"]) // 2
check(directory_excps == 2, f"PDSE: the directory took {directory_excps} EXCPs on the first LOAD (header, root)")
check(module(one, "ARCCTL")["records"] - module(f0 := run("L ARCCTL 1", ["system.fetch.organization=PDSE",
      "system.fetch.fetchopt=PACK,PRIME"]), "ARCCTL")["records"] == -768,
      f"PDSE NOPACK: {module(one, 'ARCCTL')['records']} pages read, not PACK,PRIME's less 3 MB of DEFERRED")
# A DEFERRED class comes in at its first reference: QFET K reads the module's last byte
# (in C_DEFERRED), which faults; the page is read (device time) and the byte is the text's.
k = run("K ARCCTL", ["system.fetch.organization=PDSE"])
check(module(k, "ARCCTL")["deferred_faults"] == 1 and "QFET: ARCCTL loaded at" in k["log"] and not k["dumps"],
      f"PDSE NOPACK: the DEFERRED page's reference: {module(k, 'ARCCTL')}")
f = run("L ARCCTL 1", ["system.fetch.organization=PDSE", "system.fetch.fetchopt=PACK,PRIME"])
check(module(f, "ARCCTL")["size"] == 4194304, f"PDSE PACK,PRIME: {module(f, 'ARCCTL')['size']} bytes loaded")

# E5's directions, short.
arc = {b: run("L ARCCTL 5", [f"system.fetch.block_size={b}"])["jobs"][0] for b in (6144, 23440, 32760)}
check(arc[6144]["elapsed_seconds"] > arc[23440]["elapsed_seconds"] > arc[32760]["elapsed_seconds"],
      f"ARCCTL elapsed by block size: {[arc[b]['elapsed_seconds'] for b in arc]}")
check(arc[6144]["cpu_seconds"] > arc[23440]["cpu_seconds"] > arc[32760]["cpu_seconds"],
      f"ARCCTL CPU by block size: {[arc[b]['cpu_seconds'] for b in arc]}")
# tpfemu compare knows fetch.json: the ratio of a LOAD's elapsed time, 32760 against 6144.
runs = {b: run("L ARCCTL 5", [f"system.fetch.block_size={b}"])["dir"] for b in (6144, 32760)}
c = subprocess.run([tpfemu, "compare", runs[6144], runs[32760]], capture_output=True, text=True).stdout
check("fetch.json:" in c and "modules[ARCCTL].elapsed_us_per_load" in c and "jobs[QFET].cpu_seconds" in c,
      "tpfemu compare does not compare fetch.json's figures")
pdse = run("L ARCCTL 5", ["system.fetch.organization=PDSE"])["jobs"][0]
check(pdse["elapsed_seconds"] < arc[32760]["elapsed_seconds"] / 2 and pdse["excps"] < arc[32760]["excps"]
      and pdse["cpu_seconds"] < arc[32760]["cpu_seconds"], "the PDSE (NOPACK) is not much faster than the 32760 PDS")
few, lots = (run("L IEFBR14 20", [f"system.fetch.members={m}"])["jobs"][0] for m in (TWO, MANY))
check(lots["elapsed_seconds"] > 2 * few["elapsed_seconds"], "4,200 members: no slower than 2")
# PDSE: the LOADs after the first (whose directory reads and cache misses differ) alike.
steady = {}
for m in (TWO, MANY):
    j = [run(f"L IEFBR14 {k}", [f"system.fetch.members={m}", "system.fetch.organization=PDSE"])["jobs"][0] for k in (20, 40)]
    steady[m] = (j[1]["elapsed_seconds"] - j[0]["elapsed_seconds"], j[1]["excps"] - j[0]["excps"])
check(abs(steady[MANY][0] / steady[TWO][0] - 1) < 0.02 and steady[MANY][1] == steady[TWO][1],
      f"PDSE: 20 LOADs of IEFBR14 with 4,200 members not alike 2: {steady}")
tracks = {b: run("L IEFBR14 1", ["system.fetch.members=(none)", "system.fetch.synthetic=300",
                                 f"system.fetch.block_size={b}"])["library"]["tracks_used"] for b in (6144, 23440, 32760)}
check(tracks[6144] > tracks[23440] > tracks[32760], f"tracks by block size: {tracks}")

# Bad libraries: an image from tpfemu-libbuild, damaged in one place each.
def parse(path):
    b = open(path, "rb").read()
    header, tracks, at = b[:96], [], 96
    for _ in range(struct.unpack(">I", b[20:24])[0]):
        cyl, head, n = struct.unpack(">HHH", b[at:at + 6])
        at += 8
        recs = []
        for _ in range(n):
            count = b[at:at + 8]
            kl, dl = count[5], struct.unpack(">H", count[6:8])[0]
            recs.append([bytearray(count), bytearray(b[at + 8:at + 8 + kl]), bytearray(b[at + 8 + kl:at + 8 + kl + dl])])
            at += 8 + kl + dl
        tracks.append([cyl, head, recs])
    return header, tracks


def write(path, header, tracks):
    with open(path, "wb") as out:
        out.write(header)
        for cyl, head, recs in tracks:
            out.write(struct.pack(">HHHH", cyl, head, len(recs), 0))
            for count, key, data in recs:
                count[5] = len(key)
                count[6:8] = struct.pack(">H", len(data))
                out.write(count + key + data)


def entry(tracks, name):
    """(the directory block's data, the entry's offset) for NAME."""
    want = name.encode("cp037").ljust(8, b"\x40")
    for count, key, data in tracks[0][2]:
        used = struct.unpack(">H", data[:2])[0] if len(key) == 8 else 0
        at = 2
        while at + 12 <= used:
            if data[at:at + 8] == want:
                return data, at
            at += 12 + 2 * (data[at + 11] & 0x1F)
    raise SystemExit(f"FAIL: {name} not in the test library's directory")


image = os.path.join(scratch, "good.img")
subprocess.run([libbuild, "--members", TWO, "--block-size", "32760", "--out", image], check=True, capture_output=True)


def damaged(name, change):
    header, tracks = parse(image)
    change(tracks)
    path = os.path.join(scratch, name + ".img")
    write(path, header, tracks)
    return path


def truncate_first_text(tracks):
    data, at = entry(tracks, "IEFBR14")
    t, r = struct.unpack(">H", data[at + 8:at + 10])[0], data[at + 10]
    recs = tracks[t][2]
    i = next(k for k, rec in enumerate(recs) if rec[0][4] == r)
    while recs[i][2][0] & 0x03 != 0x01:
        i += 1
    recs[i + 1][2] = recs[i + 1][2][:-1]


def bad_count(tracks):
    data, at = entry(tracks, "IEFBR14")
    data[0:2] = struct.pack(">H", 300)


def ttr_beyond(tracks):
    data, at = entry(tracks, "IEFBR14")
    data[at + 8:at + 10] = struct.pack(">H", 0x7FFF)


def first_record_missing(tracks):
    data, at = entry(tracks, "IEFBR14")
    data[at + 10] = 0xF0


(image_ok := image)
for label, change, code, text in (("truncated", truncate_first_text, "106-0D", "truncated record"),
                                  ("bad-count", bad_count, "106-0F", "used count is 300"),
                                  ("ttr-beyond", ttr_beyond, "106-20", "beyond the library's extent"),
                                  ("missing-record", first_record_missing, "106-0F", "no record found")):
    f = run("L IEFBR14 1", ["system.fetch.members=(none)", f"system.fetch.library={damaged(label, change)}"], messages=2)
    check(f["dumps"].count(f"ABEND {code}") == 2 and text in f["dumps"] and "GR0" in f["dumps"],
          f"{label}: not two ABEND {code} dumps naming '{text}':\n{f['dumps'][:600]}")
    check(module(f, "IEFBR14")["abends"] == 2, f"{label}: {module(f, 'IEFBR14')['abends']} abends counted")
f = run("L NOSUCH 1", messages=2)
check(f["dumps"].count("ABEND 806-04") == 2 and "CSV003I REQUESTED MODULE NOSUCH NOT FOUND" in f["dumps"],
      "a name not in the library: no ABEND 806-04 dumps")
f = run("L IEFBR14 3", ["system.fetch.members=(none)", f"system.fetch.library={image_ok}"])
check(module(f, "IEFBR14")["loads"] == 3 and not f["dumps"], "the undamaged image: its LOADs failed")

# Programs of the image fetched at their first ENTER (system.fetch.programs): the demo's
# QZZ1 (entered by QZZ0 for every message) comes from the library once, while the other
# terminals' ECBs wait for it, and the run's messages are the same as with QZZ1 resident.
def demo(sets, name):
    out = os.path.join(scratch, name)
    r = subprocess.run([tpfemu, "run", os.path.join(source, "configs", "demo.yaml"), "--no-progress", "--out", out] +
                       [x for s in sets for x in ("--set", s)], capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit(f"FAIL: demo {sets}: exit {r.returncode}\n{r.stderr}")
    return out, json.load(open(os.path.join(out, "summary.json")))


base_dir, base = demo([], "demo-resident")
for org in ("PDS", "PDSE"):
    d, fetched = demo(["system.fetch.programs=QZZ1", f"system.fetch.organization={org}"], f"demo-fetch-{org}")
    f = json.load(open(os.path.join(d, "fetch.json")))
    log = open(os.path.join(d, "run.log")).read()
    q = module(f, "QZZ1")
    check("fetch: QZZ1 fetched" in log and q["loads"] == 1 and q["fetches"] == 1 and q["abends"] == 0 and q["waits"] > 0,
          f"ENTER from a {org}: QZZ1 not fetched once: {q}")
    check(q["excps"] == (2 if org == "PDS" else 4), f"ENTER from a {org}: {q['excps']} EXCPs")
    check(fetched["messages"] == base["messages"] and not open(os.path.join(d, "dumps.txt")).read(),
          f"ENTER from a {org}: the demo's messages differ or an ECB ended with a dump")
r = subprocess.run([tpfemu, "run", os.path.join(source, "configs", "demo.yaml"), "--no-progress", "--out",
                    os.path.join(scratch, "demo-bad"), "--set", "system.fetch.programs=QNOSUCH"], capture_output=True, text=True)
check(r.returncode != 0 and "system.fetch.programs: QNOSUCH is not a program of the image" in r.stderr,
      f"a program not in the image: {r.returncode} {r.stderr}")

# Program fetch's CPU is the guest code's (fetch/guest/qcsv.c), as executed: more RLD
# items, more instructions (no key sets it); the old CPU keys are refused.
def members_file(rld):
    path = os.path.join(scratch, f"members-rld{rld}.txt")
    open(path, "w").write(f"IEFBR14 8 rld=0\nMODA 64K rld={rld}\n")
    return path
cpu = {n: module(run("L MODA 4", [f"system.fetch.members={members_file(n)}"]), "MODA")["cpu_us_per_load"]
       for n in (0, 256, 512)}
# (at least 5 cycles an adcon at 5.2 GHz: load, add, store; rld=0 has no RLD records at all)
check(cpu[0] < cpu[256] < cpu[512] and (cpu[512] - cpu[256]) * 5200 >= 256 * 5,
      f"the CPU of a LOAD does not grow with the adcons the guest relocates: {cpu}")
r = subprocess.run([tpfemu, "run", CONFIG, "--no-progress", "--out", os.path.join(scratch, "oldkey"), "--set",
                    "system.fetch.cpu.rld=40"], capture_output=True, text=True)
check(r.returncode != 0 and "system.fetch.cpu" in r.stderr, f"system.fetch.cpu.rld accepted: {r.returncode} {r.stderr}")

# The same configuration, the same bytes.
a, b = run("L ARCCTL 2"), run("L ARCCTL 2")
for name in ("fetch.json", "fetch.txt", "summary.json"):
    check(open(os.path.join(a["dir"], name), "rb").read() == open(os.path.join(b["dir"], name), "rb").read(),
          f"{name} differs between two runs of one configuration")

if failures:
    print("FAIL:\n  " + "\n  ".join(failures))
    sys.exit(1)
print(f"program fetch: {count[0]} runs: OK")
