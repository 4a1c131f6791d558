#!/usr/bin/env python3
"""tpfemu ipl end to end: the self-test kernel's console output (every check PASS) and
its exit status, the same bytes twice (console, end lines, the ETIM report and its JSON),
the kernel command line, a binary image's IPL PSW and disabled-wait code, a runaway
stopped by --max-instructions, and bad input. Where Debian's qemu-system-s390x is
installed, the self-test's PASS lines are compared with QEMU's (skipped otherwise).

usage: ipl_test.py TPFEMU GUEST_SYSTEM_DIR SOURCE_DIR OUT_DIR
"""
import os
import re
import shutil
import subprocess
import sys


def run(cmd, timeout=120):
    p = subprocess.run(cmd, capture_output=True, timeout=timeout)
    return p.returncode, p.stdout.decode(errors="replace"), p.stderr.decode(errors="replace")


def qemu_console(qemu, kernel, *options, cpus=1, timeout=60):
    """The console of `kernel` under qemu-system-s390x (TCG, -kernel, the SCLP console on
    standard output, `options` added): what it printed before it ended or the timeout."""
    cmd = [qemu, "-machine", "s390-ccw-virtio", "-accel", "tcg", "-smp", str(cpus), "-nographic", "-nodefaults",
           "-serial", "stdio", "-no-reboot", "-action", "panic=shutdown", *options, "-kernel", kernel]
    try:
        return subprocess.run(cmd, capture_output=True, timeout=timeout).stdout.decode(errors="replace")
    except subprocess.TimeoutExpired as e:
        return (e.stdout or b"").decode(errors="replace")


def same_three_ways(tpfemu, out, name, kernel, expected, *options, check=None):
    """`kernel` run twice under the interpreter and once under the block compiler, with
    --profile: each time exit status 0 and the console exactly `expected` (and
    check(stderr), if given, None when the end lines are as they should be), and the three
    runs' console, end lines and ETIM report the same bytes. The console."""
    runs = []
    for k, engine in ((1, "interpret"), (2, "interpret"), (3, "compile")):
        profile = os.path.join(out, f"{name}{k}.txt")
        status, stdout, stderr = run([tpfemu, "ipl", kernel, *options, "--profile", profile,
                                      "--set", f"machine.engine={engine}"])
        if status != 0 or stdout != expected:
            fail(f"{name} ({engine}): exit status {status}, console differs from {name}.expected:\n{stdout}{stderr}")
        if check and check(stderr):
            fail(f"{name}: {check(stderr)}:\n{stderr}")
        runs.append((stdout, stderr, open(profile, "rb").read()))
    if runs[0] != runs[1] or runs[2] != runs[0]:
        fail(f"runs of {name} differ (console, end lines or ETIM report), twice or by engine")
    return expected


def fail(msg):
    print(f"FAILED: {msg}")
    sys.exit(1)


def etim_rows(report, prog):
    """The (state, instruction) of each ETIM row of `prog`, in the listing's order."""
    rows, inside = [], False
    for line in report.splitlines():
        if line.startswith("BSS  "):
            inside = line.split()[1] == prog
        elif inside and len(line) > 2 and line[1] == " " and line[0] in "SPB":
            fields = line.split()
            rows.append((fields[0], fields[3]))
    return rows


def check_states(report):
    """The ETIM report's state column under ipl: the self-test's problem_state_round_trip
    (head.S) runs LPSWE in the supervisor state, STPX and SVC 1 in the problem state, and
    start_c only in the supervisor state."""
    if "S = supervisor state, P = problem state" not in report:
        fail("the ETIM report's legend does not give the states")
    trip = etim_rows(report, "problem_state_round_trip")
    want = {"LPSWE": "S", "STPX": "P", "SVC": "P", "BR": "S"}
    if not trip or any(inst in want and state != want[inst] for state, inst in trip):
        fail(f"problem_state_round_trip's rows are not marked with the states they ran in: {trip}")
    start = etim_rows(report, "start_c")
    if not start or any(state != "S" for state, _ in start):
        fail(f"start_c ran in the supervisor state only, but its rows say otherwise: {start[:5]}")


def main():
    tpfemu, guest, source, out = sys.argv[1:5]
    os.makedirs(out, exist_ok=True)
    selftest = os.path.join(guest, "selftest.elf")
    expected = open(os.path.join(source, "tests", "system", "selftest.expected"), encoding="utf-8").read()

    # The self-test on two I-streams (its SIGP checks start the second): every check
    # passes, the output is exactly the expected lines.
    # The third run under the block compiler (machine.engine: compile): the same bytes as
    # the interpreter's, the engines' contract, in supervisor state too.
    outputs = []
    for k, engine in ((1, "interpret"), (2, "interpret"), (3, "compile")):
        profile = os.path.join(out, f"etim{k}.txt")
        status, stdout, stderr = run([tpfemu, "ipl", selftest, "--istreams", "2", "--profile", profile,
                                      "--set", f"machine.engine={engine}"])
        if status != 0:
            fail(f"selftest exit status {status}, want 0\n{stdout}{stderr}")
        if stdout != expected:
            fail(f"selftest console output differs from selftest.expected:\n{stdout}")
        if "disabled wait on I-stream 0; PSW 0002000180000000 0000000000000000" not in stderr:
            fail(f"no disabled-wait end line:\n{stderr}")
        etim = open(profile, "rb").read() + open(os.path.join(out, f"etim{k}.json"), "rb").read()
        if b"start_c" not in etim or b"program_handler" not in etim:
            fail("the ETIM report does not name the kernel's functions")
        outputs.append((stdout, stderr, etim))
    check_states(open(os.path.join(out, "etim1.txt"), encoding="utf-8").read())
    if outputs[0] != outputs[1]:
        fail("two runs of the self-test differ (console, end lines or ETIM report)")
    if outputs[2] != outputs[0]:
        fail("the self-test under machine.engine=compile differs from the interpreter's run")
    print("selftest: every check PASS, the same bytes twice and under the block compiler: OK")
    # EDAT frames in the modelled 1 MB TLB: the DAT checks' loads from 15 pages of an
    # EDAT-1 1 MB frame after one from its page 1 take one 1 MB entry, so 15 hits at least.
    tlb = re.search(r"tpfemu: tlb4k_hits=\d+ tlb4k_misses=\d+ tlb1m_hits=(\d+) tlb1m_misses=(\d+)", outputs[0][1])
    if not tlb or int(tlb.group(1)) < 15 or int(tlb.group(2)) < 1:
        fail(f"the self-test's EDAT frames are not in the 1 MB TLB:\n{outputs[0][1]}")
    print(f"selftest: its EDAT-1 frame in the 1 MB TLB ({tlb.group(1)} hits, {tlb.group(2)} misses): OK")

    # A guest DAT walk costs machine.tlb.walk cycles a TLB miss, as in run's spaces: the
    # IEP kernel (one I-stream, DAT on, nothing timed) takes exactly 60 cycles more a miss
    # than with the walk at 0; with DAT off (exit42.bin) nothing forms a TLB entry.
    ends = {}
    for walk in (60, 0):
        status, _, stderr = run([tpfemu, "ipl", os.path.join(guest, "iep.elf"), "--set", f"machine.tlb.walk={walk}"])
        m = re.search(r"cycles=(\d+) .*\ntpfemu: tlb4k_hits=\d+ tlb4k_misses=(\d+) tlb1m_hits=\d+ tlb1m_misses=(\d+)", stderr)
        if status != 0 or not m:
            fail(f"iep.elf with machine.tlb.walk={walk}: status {status}\n{stderr}")
        ends[walk] = (int(m.group(1)), int(m.group(2)) + int(m.group(3)))
    misses = ends[60][1]
    if misses < 10 or ends[60][0] - ends[0][0] != 60 * misses:
        fail(f"TLB walks: {ends[60][0]} cycles with the walk at 60, {ends[0][0]} at 0, {misses} misses")
    status, _, stderr = run([tpfemu, "ipl", os.path.join(guest, "exit42.bin")])
    if "tpfemu: tlb4k_hits=0 tlb4k_misses=0 tlb1m_hits=0 tlb1m_misses=0" not in stderr:
        fail(f"exit42.bin (DAT off) formed TLB entries:\n{stderr}")
    print(f"guest DAT: {misses} TLB misses cost 60 cycles each; DAT off forms no TLB entry: OK")

    # The channel subsystem (tests/system/css.c) on a 3390 volume of one cylinder whose
    # first record begins with a label, Flash Express on an EADM subchannel and a
    # virtio-net-ccw device: every check PASS, the console exactly css.expected (the
    # I/O's time included: the 3390 model's), the same bytes twice and under the block
    # compiler (the I/O interruption taken at the same instruction).
    volume = os.path.join(out, "volume.3390")
    data = bytearray(15 * 12 * 4096)
    data[0:18] = b"TPFEMU 3390 VOLUME"
    with open(volume, "wb") as f:
        f.write(data)
    css_expected = open(os.path.join(source, "tests", "system", "css.expected"), encoding="utf-8").read()
    same_three_ways(tpfemu, out, "css", os.path.join(guest, "css.elf"), css_expected, "--dasd", volume, "--scm",
                    "--device", "virtio-net-ccw",
                    check=lambda err: None if " io=" in err and "start_subchannel=" in err else "no I/O counts on the end line")
    status, _, stderr = run([tpfemu, "ipl", os.path.join(guest, "css.elf"), "--dasd", os.path.join(out, "no-such-volume")])
    if status != 2 or "--dasd" not in stderr:
        fail(f"a missing --dasd file: status {status}\n{stderr}")
    status, _, stderr = run([tpfemu, "ipl", os.path.join(guest, "css.elf"), "--device", "virtio-blk-ccw"])
    if status != 2 or "--device virtio-blk-ccw: not a device tpfemu models" not in stderr:
        fail(f"a --device tpfemu does not model: status {status}\n{stderr}")
    print("css: every check PASS, the same bytes twice and under the block compiler; a missing volume and a device "
          "not modelled are bad input: OK")

    # MVCK, MVCP, MVCS and secondary-space mode (tests/system/movekey.c): every check
    # PASS, the console exactly movekey.expected, the same bytes twice and under the block
    # compiler.
    movekey = os.path.join(guest, "movekey.elf")
    movekey_expected = open(os.path.join(source, "tests", "system", "movekey.expected"), encoding="utf-8").read()
    same_three_ways(tpfemu, out, "movekey", movekey, movekey_expected)
    print("movekey: every check PASS, the same bytes twice and under the block compiler: OK")

    # The all-in-one multi-I-stream kernel (tests/system/allinone.c): SIGP starts the
    # other I-streams, each takes a clock-comparator interruption with DAT on and writes
    # the 3390 (SSCH) and SCM (EADM), I-stream 0 reads it all back. The console is
    # allinone.expected on 2 and 4 I-streams; each twice, on a fresh volume, the same
    # bytes (console, end lines, ETIM report); every ETIM row supervisor state.
    allinone = os.path.join(guest, "allinone.elf")
    allinone_expected = open(os.path.join(source, "tests", "system", "allinone.expected"), encoding="utf-8").read()
    for istreams in (2, 4):
        runs = []
        for k in (1, 2):
            fresh = os.path.join(out, f"allinone-{istreams}-{k}.3390")
            shutil.copyfile(volume, fresh)
            profile = os.path.join(out, f"allinone-{istreams}-{k}.txt")
            status, stdout, stderr = run([tpfemu, "ipl", allinone, "--istreams", str(istreams), "--dasd", fresh, "--scm",
                                          "--profile", profile, "--max-instructions", "1000000000"], timeout=600)
            if status != 0 or stdout != allinone_expected:
                fail(f"allinone on {istreams} I-streams: exit status {status}, console differs from "
                     f"allinone.expected:\n{stdout}{stderr}")
            report = open(profile, encoding="utf-8").read()
            if any(line[:2] in ("P ", "B ") and line[2:5].isdigit() for line in report.splitlines()):
                fail(f"allinone on {istreams} I-streams: an ETIM row not in the supervisor state")
            runs.append((stdout, stderr, report))
        if runs[0] != runs[1]:
            fail(f"two runs of allinone on {istreams} I-streams differ (console, end lines or ETIM report)")
        # The same kernel under the interpreter and under cosim (each compiled block also
        # interpreted in a forked copy and compared): the engines' contract in supervisor
        # state, with SIGP, interruptions, DAT and I/O on several I-streams.
        for engine in ("interpret", "cosim"):
            fresh = os.path.join(out, f"allinone-{istreams}-{engine}.3390")
            shutil.copyfile(volume, fresh)
            profile = os.path.join(out, f"allinone-{istreams}-{engine}.txt")
            status, stdout, stderr = run([tpfemu, "ipl", allinone, "--istreams", str(istreams), "--dasd", fresh, "--scm",
                                          "--profile", profile, "--max-instructions", "1000000000",
                                          "--set", f"machine.engine={engine}"], timeout=600)
            if (stdout, stderr, open(profile, encoding="utf-8").read()) != runs[0]:
                fail(f"allinone on {istreams} I-streams under machine.engine={engine}: not the compiled run's bytes "
                     f"(status {status}):\n{stdout}{stderr}")
    print("allinone: SIGP, clock comparators, DAT, 3390 and SCM on 2 and 4 I-streams, the same bytes twice and under "
          "the interpreter and cosim: OK")
    status, allinone_alone, _ = run([tpfemu, "ipl", allinone])
    if status != 0 or "SKIP: no 3390" not in allinone_alone:
        fail(f"allinone without devices: status {status}\n{allinone_alone}")

    # The diag288 watchdog (tests/system/watchdog.c) with --watchdog inject-nmi: every
    # check PASS, the console exactly watchdog.expected, its expiry's restart 15 seconds
    # of TOD-clock time on (an enabled wait: the machine moves the clock on to the event).
    watchdog = os.path.join(guest, "watchdog.elf")
    watchdog_expected = open(os.path.join(source, "tests", "system", "watchdog.expected"), encoding="utf-8").read()
    status, stdout, stderr = run([tpfemu, "ipl", watchdog, "--watchdog", "inject-nmi"])
    if status != 0 or stdout != watchdog_expected:
        fail(f"watchdog: exit status {status}, console differs from watchdog.expected:\n{stdout}{stderr}")
    status, _, stderr = run([tpfemu, "ipl", watchdog, "--watchdog", "bite"])
    if status != 2 or "--watchdog bite" not in stderr:
        fail(f"an unknown --watchdog action: status {status}\n{stderr}")
    print("watchdog: every check PASS; an unknown action is bad input: OK")

    # Waiting loops (tests/system/waitloop.c): a CPU that waits for the clock comparator in
    # a loop of register-only instructions. machine.skip_spin_loops on (the default) and
    # off, each under both engines: the console exactly waitloop.expected, and the end
    # lines (counts and cycles), the ETIM report and its JSON the same bytes in all four.
    waitloop = os.path.join(guest, "waitloop.elf")
    waitloop_expected = open(os.path.join(source, "tests", "system", "waitloop.expected"), encoding="utf-8").read()
    runs = []
    for skip in ("true", "false"):
        for engine in ("interpret", "compile"):
            profile = os.path.join(out, f"waitloop-{skip}-{engine}.txt")
            status, stdout, stderr = run([tpfemu, "ipl", waitloop, "--profile", profile, "--set",
                                          f"machine.skip_spin_loops={skip}", "--set", f"machine.engine={engine}"])
            if status != 0 or stdout != waitloop_expected:
                fail(f"waitloop (skip {skip}, {engine}): status {status}, console differs from waitloop.expected:\n"
                     f"{stdout}{stderr}")
            runs.append((stderr, open(profile, "rb").read(), open(profile[:-4] + ".json", "rb").read()))
    if any(r != runs[0] for r in runs):
        fail("waitloop: the end lines or the ETIM report differ between skip_spin_loops on and off or the engines")
    print("waitloop: every check PASS; the same counts and ETIM report with loops skipped and executed: OK")

    # The virtual machine STSI 3.2.2 describes (tests/system/vmdesc.c): TPFEMU's by
    # default; the name, UUID and control program given (as QEMU's -name and -uuid give
    # them, its control program KVM/Linux: compared with QEMU's console below); names
    # STSI cannot hold in EBCDIC and UUIDs that are not are bad input.
    vmdesc = os.path.join(guest, "vmdesc.elf")
    vmdesc_expected = open(os.path.join(source, "tests", "system", "vmdesc.expected"), encoding="utf-8").read()
    vm_options = ["--vm-name", "kvm-unit-test", "--vm-uuid", "0fb84a86-727c-11ea-bc55-0242ac130003",
                  "--control-program", "KVM/Linux"]
    status, stdout, stderr = run([tpfemu, "ipl", vmdesc] + vm_options)
    if status != 0 or stdout != vmdesc_expected:
        fail(f"vmdesc: exit status {status}, console differs from vmdesc.expected:\n{stdout}{stderr}")
    status, stdout, _ = run([tpfemu, "ipl", vmdesc])
    if status != 0 or "name: 'TPFEMU  '\ncontrol program: 'TPFEMU          '\nuuid: " + "0" * 32 not in stdout \
            or "extended name encoding: 0\n" not in stdout:
        fail(f"vmdesc without options: not TPFEMU's own description (status {status}):\n{stdout}")
    for bad, what in ((["--vm-uuid", "0fb84a86"], "--vm-uuid 0fb84a86: not a UUID"),
                      (["--vm-name", "a*b"], "'*' at 2 is not one"),
                      (["--control-program"], "--control-program needs a name")):
        status, _, stderr = run([tpfemu, "ipl", vmdesc] + bad)
        if status != 2 or what not in stderr:
            fail(f"vmdesc {bad}: status {status}\n{stderr}")
    print("vmdesc: STSI 3.2.2's name, UUID and control program as given, TPFEMU's without; bad input: OK")

    # Instruction-execution protection (tests/system/iep.c): every check PASS, the console
    # exactly iep.expected, the same bytes twice and under the block compiler (and the
    # same PASS lines under QEMU below).
    iep = os.path.join(guest, "iep.elf")
    iep_expected = open(os.path.join(source, "tests", "system", "iep.expected"), encoding="utf-8").read()
    same_three_ways(tpfemu, out, "iep", iep, iep_expected)
    print("iep: every check PASS, the same bytes twice and under the block compiler: OK")

    # Secondary-space mode (tests/system/secondary.c): instructions through CR1, operands
    # through CR7, each fault's TEID naming its space; every check PASS, the console
    # exactly secondary.expected, the same bytes twice and under the block compiler.
    secondary = os.path.join(guest, "secondary.elf")
    secondary_expected = open(os.path.join(source, "tests", "system", "secondary.expected"), encoding="utf-8").read()
    same_three_ways(tpfemu, out, "secondary", secondary, secondary_expected)
    print("secondary: every check PASS, the same bytes twice and under the block compiler: OK")
    # The message-security assist (tests/system/msa.c): STFLE's bits, each CPACF
    # instruction's query and program checks (compared with QEMU's console below); on a
    # z13 no MSA 8, so no KMA.
    msa = os.path.join(guest, "msa.elf")
    msa_expected = open(os.path.join(source, "tests", "system", "msa.expected"), encoding="utf-8").read()
    for engine in ("interpret", "compile"):
        status, stdout, stderr = run([tpfemu, "ipl", msa, "--set", f"machine.engine={engine}"])
        if status != 0 or stdout != msa_expected:
            fail(f"msa ({engine}): exit status {status}, console differs from msa.expected:\n{stdout}{stderr}")
    status, stdout, _ = run([tpfemu, "ipl", msa, "--set", "machine.arch=z13"])
    if status != 0 or " 77=1 146=0\n" not in stdout or "\nKMA:" in stdout or "KMCTR: query CC 0" not in stdout:
        fail(f"msa on a z13: MSA 8 (146) and KMA should be absent, the rest there (status {status}):\n{stdout}")
    print("msa: the CPACF queries and their program checks under both engines; no KMA on a z13: OK")

    # Interruption priorities (tests/system/priority.c): SVC, program, external, I/O, and
    # among external conditions, taken in the Principles of Operation's order, each new
    # PSW deciding whether the next is taken at once; one virtio-net-ccw device gives the
    # I/O interruption.
    priority = os.path.join(guest, "priority.elf")
    priority_expected = open(os.path.join(source, "tests", "system", "priority.expected"), encoding="utf-8").read()
    same_three_ways(tpfemu, out, "priority", priority, priority_expected, "--device", "virtio-net-ccw")
    print("priority: every check PASS, the same bytes twice and under the block compiler: OK")

    status, stdout, _ = run([tpfemu, "ipl", selftest, "--", "hello", "world"])
    one_istream = stdout
    if status != 0 or "parameters: hello world\n" not in stdout or "SKIP: SIGP (one CPU)\n" not in stdout:
        fail(f"the parameters after -- are not at 0x10480, or one I-stream is not one (status {status}):\n{stdout}")
    print("parameters, one I-stream: OK")

    status, stdout, _ = run([tpfemu, "ipl", selftest, "--set", "machine.storage=3G"])
    if status != 0 or "PASS: SERVICE CALL: an SCCB above 2 GB is exception 0006\n" not in stdout:
        fail(f"3 GB of storage: the SCCB above 2 GB (status {status}):\n{stdout}")
    print("3 GB, an SCCB above 2 GB: OK")

    # Console input: READ EVENT DATA hands the kernel the first line, from a file or
    # standard input (read to its end before the run).
    input_file = os.path.join(out, "console-input.txt")
    with open(input_file, "w", encoding="utf-8") as f:
        f.write("first line\nsecond line\n")
    status, stdout, _ = run([tpfemu, "ipl", selftest, "--console-input", input_file])
    if status != 0 or "console input: first line\n" not in stdout:
        fail(f"--console-input FILE: the kernel did not read its first line (status {status}):\n{stdout}")
    p = subprocess.run([tpfemu, "ipl", selftest, "--console-input", "-"], input=b"typed\n", capture_output=True,
                       timeout=120)
    if p.returncode != 0 or b"console input: typed\n" not in p.stdout:
        fail(f"--console-input -: the kernel did not read standard input (status {p.returncode})")
    print("console input through READ EVENT DATA: OK")

    status, _, stderr = run([tpfemu, "ipl", os.path.join(guest, "exit42.bin")])
    if status != 42 or "PSW 0002000180000000 000000000000002A" not in stderr:
        fail(f"exit42.bin: status {status}, want 42\n{stderr}")
    print("binary image, IPL PSW at 0, disabled-wait code 42: OK")

    status, _, stderr = run([tpfemu, "ipl", os.path.join(guest, "reipl.bin"), "--max-instructions", "5000"])
    if status != 7:
        fail(f"reipl.bin: DIAGNOSE X'308' subcode 1 should IPL again from the PSW at 0 with CR0 reset: status {status} "
             f"(8: CR0 not reset, 9: DIAGNOSE returned), want 7\n{stderr}")
    print("DIAGNOSE X'308' subcode 1: reset, IPL again from the PSW at 0: OK")

    status, _, stderr = run([tpfemu, "ipl", os.path.join(guest, "spin.elf"), "--max-instructions", "5000"])
    if status != 124 or "stopped by --max-instructions" not in stderr or "instructions=5000 " not in stderr:
        fail(f"spin: status {status}, want 124\n{stderr}")
    print("--max-instructions: OK")

    status, _, stderr = run([tpfemu, "ipl", os.path.join(guest, "stopall.elf"), "--max-instructions", "5000"])
    if status != 0 or "every I-stream stopped" not in stderr:
        fail(f"stopall: SIGP stop of its own I-stream, status {status}, want 0\n{stderr}")
    print("SIGP stop of every I-stream ends the run, status 0: OK")

    status, _, stderr = run([tpfemu, "ipl", os.path.join(source, "README.md")])
    if status != 2 or "is not an ESA/390 PSW" not in stderr:
        fail(f"a text file as a binary image: status {status}\n{stderr}")
    print("bad input: OK")

    # The channel-subsystem kernel with a virtio-net-ccw device alone runs the checks that
    # hold for QEMU's device as for ours (SENSE ID, the transport's commands, SCHM and
    # measurement blocks, CHSC, RCHP and STCRW): every one PASS.
    css_elf = os.path.join(guest, "css.elf")
    status, ours_alone, stderr = run([tpfemu, "ipl", css_elf, "--device", "virtio-net-ccw"])
    css_alone = [l for l in ours_alone.splitlines() if l.startswith(("PASS", "FAIL"))]
    if status != 0 or len(css_alone) < 20 or any(l.startswith("FAIL") for l in css_alone):
        fail(f"css with a virtio-net-ccw device alone: status {status}\n{ours_alone}{stderr}")
    print("css with a virtio-net-ccw device alone: every check PASS: OK")

    qemu = shutil.which("qemu-system-s390x")
    if not qemu:
        print("qemu-system-s390x: not installed, comparison skipped")
    else:
        # One CPU: with -smp 2 QEMU's runs of the SIGP checks were not the same twice
        # (some hung, some lost console lines), so they are tpfemu's alone.
        theirs = qemu_console(qemu, selftest)
        ours = [l for l in one_istream.splitlines() if l.startswith(("PASS", "FAIL"))]
        qemu_lines = [l.strip() for l in theirs.splitlines() if l.strip().startswith(("PASS", "FAIL"))]
        # Where QEMU 7.2's TCG departs from the Principles of Operation (seen with
        # Debian's 1:7.2+dfsg-7+deb12u18): it loads a PSW whose must-be-zero bit 0 is one
        # without the early specification exception; its IPK leaves 0 in GR2 while
        # EPSW shows the key SPKA set.
        known = {"LPSWE of an invalid PSW: early specification exception, ILC 0, the invalid PSW stored",
                 "IPK inserts the PSW key in bits 56-59 of GR2",
                 # Not explained yet (open in docs/system-mode.md): QEMU FAILs the
                 # CPU-timer check, whose interruption it does take.
                 "SPT/STPT; the CPU-timer interruption 1005 when it goes negative",
                 # QEMU's LRA(G) gives CC 3 (and the exception's code) for an invalid
                 # segment- or page-table entry, where the PoO gives CC 1 or 2 and the
                 # entry's address (its helper says "incomplete").
                 "LRAG: CC 1 an invalid segment-table entry, CC 2 an invalid page-table entry, R1 the entry's address",
                 # QEMU 7.2's TCG (default and max CPU models) translates through an
                 # EDAT-1 segment frame or an EDAT-2 region-third frame to absolute 0
                 # plus the byte's offset in its 4 KB page (seen: 0x40201008 read
                 # absolute 8), not to the frame the entry designates.
                 "EDAT-1 (CR0 bit 40): a segment-table entry's 1 MB frame",
                 "EDAT-2: a region-third-table entry's 2 GB frame",
                 # QEMU 7.2's TCG stores no exception-access identification: real
                 # location 160 keeps the 0xFF the test put there.
                 "the exception-access identification at 0xA0: 0 for page, segment, ASCE-type and DAT protection in the primary-space mode",
                 # Storage keys (keys.c): QEMU 7.2's TCG keeps the keys and their
                 # reference and change bits, but has no key-controlled or fetch
                 # protection (the stores and loads pass), its TPROT gives CC 0 whatever
                 # the key, its SSKE ignores M3 (no conditional update, no multiple-block
                 # control), PFMF is an operation exception and IVSK leaves R1 as it was.
                 "key-controlled protection: a store under another PSW key is exception 0004, nothing stored",
                 "its TEID: the block, the store indication, key-controlled protection (ESOP-2)",
                 "fetch protection: a load under another PSW key is exception 0004, with its TEID",
                 "TPROT reads the block's key: CC 0, 1 and 2",
                 # (and so no fetch-protection override to compare: tpfemu's against the PoO)
                 "fetch protection applies to locations 0-2047 with CR0 bit 38 off",
                 "the fetch-protection override (CR0 bit 38): loads from 0-2047 permitted, 2048 and stores not",
                 "TPROT with the fetch-protection override: CC 1 below 2048, CC 2 from 2048 and without it",
                 "conditional SSKE (MR, MC): an equal ACC and F leave the key",
                 "conditional SSKE (MC): a new key, the change bit kept",
                 "SSKE's multiple-block control: the blocks up to the 1 MB boundary, R2 past them",
                 "PFMF: a 4 KB frame cleared and its key set",
                 "PFMF: a 1 MB frame's keys, R2 past it",
                 "IVSK: the ACC and F of the block a virtual address translates to"}
        strip = lambda lines: [l for l in lines if l.split(": ", 1)[1] not in known]
        if strip(qemu_lines) != strip(ours):
            fail("QEMU's PASS/FAIL lines differ:\n" + "\n".join(qemu_lines))
        print("the same PASS lines as qemu-system-s390x: OK")

        # The channel-subsystem kernel with a virtio-net-ccw device alone (above): the
        # same PASS lines under QEMU's device.
        theirs = qemu_console(qemu, css_elf, "-device", "virtio-net-ccw")
        qemu_lines = [l.strip() for l in theirs.splitlines() if l.strip().startswith(("PASS", "FAIL"))]
        if qemu_lines != css_alone:
            fail("css with virtio-net-ccw: QEMU's PASS/FAIL lines differ:\n" + "\n".join(qemu_lines))
        print("css with a virtio-net-ccw device alone: the same PASS lines as qemu-system-s390x: OK")
        theirs = qemu_console(qemu, movekey)
        # Where QEMU 7.2's TCG (Debian's 1:7.2+dfsg-7+deb12u18) departs: it has no MVCK and
        # no SAC (operation exceptions: "unimplemented opcode 0xd900", "0xb219" under -d
        # unimp), takes MVCP in the problem state as privileged whatever CR3's PSW-key mask,
        # and lets SACF into secondary-space mode without CR0's secondary-space control.
        known = {"MVCK with the block's key: 16 bytes, CC 0",
                 "MVCK of 300 bytes: 256 moved, CC 3",
                 "MVCK of 0 bytes: nothing moved, CC 0",
                 "MVCK with another key from a fetch-protected block: protection exception 0004, nothing moved",
                 "SAC 256 with DAT on: secondary-space mode, as SACF",
                 "MVCP in the problem state: a key outside the PSW-key mask is exception 0002, key 0 moves",
                 "SACF 256 without CR0's secondary-space control: special-operation exception 0013"}
        qemu_lines = [l.strip() for l in theirs.splitlines() if l.strip().startswith(("PASS", "FAIL"))]
        ours = [l for l in movekey_expected.splitlines() if l.startswith(("PASS", "FAIL"))]
        if strip(qemu_lines) != strip(ours):
            fail("QEMU's PASS/FAIL lines of movekey differ:\n" + "\n".join(qemu_lines))
        print("movekey: the same PASS lines as qemu-system-s390x: OK")
        # allinone without devices (QEMU has no 3390 or EADM) on 1, 2 and 4 CPUs: the same
        # console as tpfemu's (its SIGP, clock-comparator and DAT checks; unlike the
        # self-test's SIGP checks, the same under QEMU on several CPUs in every run seen).
        for cpus in (1, 2, 4):
            theirs = qemu_console(qemu, allinone, cpus=cpus)
            status, ours, _ = run([tpfemu, "ipl", allinone, "--istreams", str(cpus)])
            if status != 0 or theirs.replace("\r", "") != ours:
                fail(f"allinone on {cpus} CPUs without devices: QEMU's console differs from tpfemu's:\n{theirs}\n{ours}")
        print("allinone: the same console as qemu-system-s390x on 1, 2 and 4 CPUs (no devices): OK")
        # The watchdog kernel under QEMU's diag288 device (its expiry takes 15 seconds
        # of host time there): the same console.
        theirs = qemu_console(qemu, watchdog, "-device", "diag288,id=watchdog0", "--watchdog-action", "inject-nmi", timeout=90)
        if theirs.replace("\r", "") != watchdog_expected:
            fail("QEMU's watchdog console differs:\n" + theirs)
        print("the watchdog's console under qemu-system-s390x: the same: OK")
        if qemu_console(qemu, waitloop).replace("\r", "") != waitloop_expected:
            fail("QEMU's waitloop console differs:\n" + qemu_console(qemu, waitloop))
        print("the waiting loops' console under qemu-system-s390x: the same: OK")
        # STSI 3.2.2 under QEMU's -name and -uuid: the same console as tpfemu's options.
        theirs = qemu_console(qemu, vmdesc, "-name", "kvm-unit-test", "-uuid", "0fb84a86-727c-11ea-bc55-0242ac130003")
        if theirs.replace("\r", "") != vmdesc_expected:
            fail("QEMU's STSI 3.2.2 console differs:\n" + theirs)
        print("vmdesc: the same console as qemu-system-s390x -name -uuid: OK")
        # Instruction-execution protection: QEMU 7.2's TCG implements it (facility 130 in
        # its default CPU model): the same PASS lines but two, where its EDAT frames depart
        # (as the self-test's DAT checks found): a branch into an EDAT-1 1 MB frame with the
        # IEP bit is an addressing exception 0005 there, into an EDAT-2 2 GB frame with the
        # IEP bit it runs (an operation exception 0001 at the frame's zeros: neither the
        # region-third entry's IEP bit nor its frame address applied).
        theirs = qemu_console(qemu, iep)
        known = {"EDAT-1: a branch into a segment-table entry's 1 MB frame with the IEP bit is 0004, its TEID",
                 "EDAT-2: a branch into a region-third-table entry's 2 GB frame with the IEP bit is 0004, its TEID"}
        qemu_lines = [l.strip() for l in theirs.splitlines() if l.strip().startswith(("PASS", "FAIL"))]
        ours = [l for l in iep_expected.splitlines() if l.startswith(("PASS", "FAIL"))]
        if strip(qemu_lines) != strip(ours):
            fail("QEMU's PASS/FAIL lines of iep differ:\n" + "\n".join(qemu_lines))
        print("iep: the same PASS lines as qemu-system-s390x but its two EDAT departures: OK")
        # Secondary-space mode: QEMU fetches instructions through the primary space there
        # too: the same console.
        theirs = qemu_console(qemu, secondary)
        if theirs.replace("\r", "") != secondary_expected:
            fail("QEMU's secondary-space mode console differs:\n" + theirs)
        print("secondary: the same console as qemu-system-s390x: OK")
        # The message-security assist under QEMU's default CPU model: the same console.
        theirs = qemu_console(qemu, msa)
        if theirs.replace("\r", "") != msa_expected:
            fail("QEMU's message-security assist console differs:\n" + theirs)
        print("msa: the same console as qemu-system-s390x: OK")
        theirs = qemu_console(qemu, priority, "-device", "virtio-net-ccw")
        if theirs.replace("\r", "") != priority_expected:
            fail("QEMU's interruption-priority console differs:\n" + theirs)
        print("priority: the same console as qemu-system-s390x: OK")
    print("tpfemu ipl: OK")


if __name__ == "__main__":
    main()
