#!/usr/bin/env python3
"""The distributed exploration against one process, example by example.

For every examples/*.c, explores the program with one process (`--jobs 1`)
and then as one exploration over the processes of an MPI job
(`mpiexec.mpich -n K ordex explore --distributed`, K = 2 and 4 on this
machine), and compares what the user gets: the exit status, the verdict,
the findings (kind, ranks, location, message) and the number of distinct
outcomes of each pass.  Rank counts: the ones the end-to-end tests use with
the example, else 2 and 4 (see tests/por_check.py); a case whose single
search does not finish within the cap is skipped.  A program that opens
files must be refused (exit status 2, saying why).

Then the failures: an exploring process that dies (tests/programs/
kill_worker.c kills its own process in one ordering) makes rank 0 report the
search incomplete; a rank whose agent is killed while the others explore is
found silent, and rank 0 reports what was covered, incomplete, exit status
2; SIGINT to mpiexec.mpich stops every rank.  None of them may hang.  And
rank 0's report: a finding's trace replays, --json-progress ends with every
rank's counts; bad options are refused.

Prints one line per comparison and ends with
"distcheck: N passed, N failed, N skipped".  Exit status 0 when none failed.

    tests/dist_check.py [--cap SECONDS] [--procs "2 4"] [PROGRAM.c ...]
"""
import argparse
import glob
import os
import signal
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import por_check  # noqa: E402  (summary of a JSON report, rank counts)

TOP = por_check.TOP
ORDEX = por_check.ORDEX
MPIEXEC = "mpiexec.mpich"


def explore(so, n, cap, tmp, tag, procs=0, extra=(), timeout=None, env=None):
    """Runs one exploration; returns (summary or None, status, stderr)."""
    out = os.path.join(tmp, tag + ".json")
    cmd = [ORDEX, "explore", "-q", "-n", str(n), "--max-time", str(cap), "--json", out,
           "--trace-dir", os.path.join(tmp, tag + "-traces")] + list(extra)
    if procs:
        cmd = [MPIEXEC, "-n", str(procs)] + cmd + ["--distributed"]
    else:
        cmd += ["--jobs", "1"]
    cmd.append(so)
    try:
        r = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                           timeout=timeout or cap * 3 + 60, cwd=tmp, env=env)
    except subprocess.TimeoutExpired:
        return None, None, "timed out (a hang)"
    return por_check.summary(out, r.returncode), r.returncode, r.stderr.decode(errors="replace")


def compile_program(prog, tmp):
    base = os.path.splitext(os.path.basename(prog))[0]
    so = os.path.join(tmp, base + ".so")
    r = subprocess.run([ORDEX, "cc", "-o", so, prog], stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL)
    return so if r.returncode == 0 else None


def check(prog, ns, procs, cap, tmpdir):
    base = os.path.splitext(os.path.basename(prog))[0]
    tmp = tempfile.mkdtemp(prefix=base + ".", dir=tmpdir)
    so = compile_program(prog, tmp)
    if not so:
        return [("skipped", "%s: does not compile on its own" % prog)]
    lines = []
    for n in ns:
        name = "%s -n %d" % (os.path.relpath(prog, TOP), n)
        one, status, err = explore(so, n, cap, tmp, "one-%d" % n)
        if not one or not one["complete"] or one["verdict"] == "incomplete":
            lines.append(("skipped", "%s: one process does not finish within %gs" % (name, cap)))
            continue
        for k in procs:
            dist, dstatus, derr = explore(so, n, cap * 2, tmp, "dist%d-%d" % (k, n), procs=k)
            if status == 2 and "opens files" in (err or "") or "opens files" in derr:
                ok = dstatus == 2 and "--distributed cannot explore a program that opens files" \
                    in derr
                lines.append(("ok" if ok else "DIFF",
                              "%s, %d processes: %s" % (name, k, "refused (opens files)" if ok
                                                         else "not refused: " + derr[-300:])))
                continue
            if not dist:
                lines.append(("DIFF", "%s, %d processes: no report (status %s): %s" %
                              (name, k, dstatus, derr[-300:])))
                continue
            diffs = [f for f in ("status", "verdict", "findings", "outcomes") if one[f] != dist[f]]
            if diffs:
                lines.append(("DIFF", "%s, %d processes: %s differ: one %s, distributed %s" % (
                    name, k, ", ".join(diffs), {f: one[f] for f in diffs},
                    {f: dist[f] for f in diffs})))
            else:
                lines.append(("ok", "%s, %d processes (states %s one, %s distributed)" % (
                    name, k, one["states"], dist["states"])))
    return lines


def check_worker_dies(tmpdir):
    """An exploring process that kills itself: incomplete, never a hang."""
    tmp = tempfile.mkdtemp(prefix="kill_worker.", dir=tmpdir)
    so = compile_program(os.path.join(TOP, "tests", "programs", "kill_worker.c"), tmp)
    lines = []
    for k in (2, 4):
        # (the status is rank 0's, which every rank ends with)
        s, status, err = explore(so, 3, 30, tmp, "kill%d" % k, procs=k, timeout=120)
        incomplete = [ln for ln in err.splitlines() if ln.startswith("INCOMPLETE:")]
        ok = (s is not None and status in (1, 2) and s["verdict"] in ("incomplete", "error")
              and len(incomplete) == 1
              and incomplete[0].count("1 exploration process failed (an ordex error)") == 1)
        lines.append(("ok" if ok else "DIFF",
                      "kill_worker.c -n 3, %d processes: %s" % (
                          k, "incomplete, status %s" % status if ok else
                          "status %s, report %s: %s" % (status, s, err[-400:]))))
    return lines


def descends_from(pid, ancestor):
    """Whether process pid descends from ancestor (another job's agent, a
    test running beside this one, must not be the one killed)."""
    while pid > 1:
        if pid == ancestor:
            return True
        try:
            with open("/proc/%d/stat" % pid) as fh:
                pid = int(fh.read().rsplit(")", 1)[1].split()[1])
        except (OSError, ValueError, IndexError):
            return False
    return False


def check_agent_killed(tmpdir):
    """The agent of rank 2 killed (SIGKILL) while the others explore, as when
    its host's transport fails: rank 0 finds rank 2 silent after
    ORDEX_DIST_TIMEOUT and reports what was covered, incomplete; rank 2's
    ordex ends with exit status 2; nothing hangs."""
    tmp = tempfile.mkdtemp(prefix="agent_killed.", dir=tmpdir)
    so = compile_program(os.path.join(TOP, "examples", "lu.c"), tmp)
    out = os.path.join(tmp, "killed.json")
    env = dict(os.environ, ORDEX_DIST_TIMEOUT="3")
    cmd = [MPIEXEC, "-disable-auto-cleanup", "-n", "3", ORDEX, "explore", "-q", "-n", "4",
           "--max-time", "60",
           "--json", out, "--distributed", so, "1"]
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, cwd=tmp,
                         env=env)
    time.sleep(1.0)
    victim = None
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            with open("/proc/%s/environ" % pid, "rb") as fh:
                env_of = fh.read().split(b"\0")
            with open("/proc/%s/cmdline" % pid, "rb") as fh:
                argv = fh.read().split(b"\0")
        except OSError:
            continue
        if (b"PMI_RANK=2" in env_of and os.path.basename(argv[0]) == b"ordex-dist-agent"
                and descends_from(int(pid), p.pid)):
            victim = int(pid)
    if victim is None:
        p.kill()
        p.communicate()
        return [("DIFF", "agent killed: no agent of rank 2 found to kill")]
    os.kill(victim, signal.SIGKILL)
    try:
        _, err = p.communicate(timeout=120)
    except subprocess.TimeoutExpired:
        p.kill()
        p.communicate()
        return [("DIFF", "agent killed: mpiexec.mpich did not end within 120 s (a hang)")]
    s = por_check.summary(out, p.returncode)
    err = err.decode(errors="replace")
    ok = (s is not None and s["verdict"] == "incomplete" and p.returncode == 2
          and "rank 2 of the distributed exploration stopped answering" in err
          and "ordex (rank 2 of 3): the MPI agent of this rank ended" in err)
    return [("ok" if ok else "DIFF",
             "lu.c -n 4 1, 3 processes, the agent of rank 2 killed: %s" % (
                 "incomplete, status %s" % p.returncode if ok else
                 "status %s, report %s: %s" % (p.returncode, s, err[-600:])))]


def check_reports(tmpdir):
    """Rank 0's report works as one process's: a finding's trace replays
    alone, --json-progress ends with every rank's counts, a signal stops
    every rank with what was covered; bad options are refused."""
    tmp = tempfile.mkdtemp(prefix="reports.", dir=tmpdir)
    so = compile_program(os.path.join(TOP, "examples", "wildcard_deadlock.c"), tmp)
    lines = []
    prog = os.path.join(tmp, "progress.jsonl")
    s, status, err = explore(so, 3, 30, tmp, "traces", procs=2, extra=["--json-progress", prog])
    trace = os.path.join(tmp, "traces-traces", "wildcard_deadlock-1.trace")
    r = subprocess.run([ORDEX, "replay", trace], stdout=subprocess.DEVNULL,
                       stderr=subprocess.PIPE, cwd=tmp)
    rerr = r.stderr.decode(errors="replace")
    ok = status == 1 and r.returncode == 1 and "ERROR [deadlock]" in rerr
    lines.append(("ok" if ok else "DIFF", "a distributed finding's trace replays: %s" % (
        "deadlock again" if ok else "explore %s, replay %s: %s" % (status, r.returncode,
                                                                  rerr[-300:]))))
    try:
        with open(prog) as fh:
            last = [ln for ln in fh if ln.strip()][-1]
        final = __import__("json").loads(last)
    except (OSError, IndexError, ValueError):
        final = {}
    ok = final.get("final") is True and s is not None and final.get("states") == s["states"]
    lines.append(("ok" if ok else "DIFF", "--json-progress under --distributed: %s" % (
        "final line with every rank's states" if ok else "last line %r, report %s" % (final, s))))
    # The second pass merges states across ranks as the first does: its pass
    # roots are forked before the first pass, when every rank's ordex memory
    # is laid out alike (rank 0's reporting during the first pass once made
    # every rank explore the whole second pass: twice the orderings).
    lu = compile_program(os.path.join(TOP, "examples", "lu.c"), tmp)
    one_out, two_out = os.path.join(tmp, "lu-one.json"), os.path.join(tmp, "lu-two.json")
    subprocess.run([ORDEX, "explore", "-q", "--jobs", "1", "-n", "4", "--json", one_out, lu, "1"],
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=tmp)
    subprocess.run([MPIEXEC, "-n", "2", ORDEX, "explore", "-q", "--distributed", "-n", "4",
                    "--json-progress", os.path.join(tmp, "lu-progress.jsonl"), "--json", two_out,
                    lu, "1"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=tmp,
                   timeout=300)
    try:
        with open(one_out) as fh:
            one = [p["paths"] for p in __import__("json").load(fh)["passes"]]
        with open(two_out) as fh:
            two = [p["paths"] for p in __import__("json").load(fh)["passes"]]
        ok = len(one) == 2 and len(two) == 2 and all(t < 1.5 * o for o, t in zip(one, two))
    except (OSError, ValueError, KeyError):
        ok, one, two = False, None, None
    lines.append(("ok" if ok else "DIFF", "both passes merge across ranks: orderings per pass "
                  "one process %s, 2 processes %s" % (one, two)))
    # A signal to mpiexec.mpich reaches every ordex: rank 0 reports what was
    # covered, incomplete.
    lu = compile_program(os.path.join(TOP, "examples", "lu.c"), tmp)
    out = os.path.join(tmp, "interrupted.json")
    p = subprocess.Popen([MPIEXEC, "-n", "2", ORDEX, "explore", "-q", "-n", "6", "--json", out,
                          "--distributed", lu, "1"], stdout=subprocess.DEVNULL,
                         stderr=subprocess.PIPE, cwd=tmp)
    time.sleep(2.0)
    p.send_signal(signal.SIGINT)
    try:
        _, err = p.communicate(timeout=60)
        j = por_check.summary(out, p.returncode)
        # (every ordex ends with status 2 here, but mpiexec.mpich, interrupted,
        # now and then says 0 whatever its processes said)
        ok = j is not None and j["verdict"] == "incomplete" and p.returncode in (0, 2)
        why = "" if ok else "status %s, report %s: %s" % (p.returncode, j, err[-300:])
    except subprocess.TimeoutExpired:
        p.kill()
        p.communicate()
        ok, why = False, "mpiexec did not end within 60 s of SIGINT (a hang)"
    lines.append(("ok" if ok else "DIFF", "SIGINT under --distributed: %s" % (
        "incomplete, status %s" % p.returncode if ok else why)))
    # SIGTERM the same: the agents leave the signal to their drivers, so no
    # rank is lost and every rank's counts are in rank 0's report.
    out = os.path.join(tmp, "terminated.json")
    p = subprocess.Popen([MPIEXEC, "-n", "2", ORDEX, "explore", "-q", "-n", "6", "--json", out,
                          "--distributed", lu, "1"], stdout=subprocess.DEVNULL,
                         stderr=subprocess.PIPE, cwd=tmp)
    time.sleep(2.0)
    p.send_signal(signal.SIGTERM)
    try:
        _, err = p.communicate(timeout=60)
        err = err.decode(errors="replace")
        j = por_check.summary(out, p.returncode)
        ok = (j is not None and j["verdict"] == "incomplete" and "SIGTERM" in err
              and "lost to rank 0" not in err)
        why = "" if ok else "status %s, report %s: %s" % (p.returncode, j, err[-300:])
    except subprocess.TimeoutExpired:
        p.kill()
        p.communicate()
        ok, why = False, "mpiexec did not end within 60 s of SIGTERM (a hang)"
    lines.append(("ok" if ok else "DIFF", "SIGTERM under --distributed: %s" % (
        "incomplete, no rank lost" if ok else why)))
    for extra, says in ((["--strategy=random"], "only with the exhaustive or dfs-branches"),
                        (["--jobs", "2"], "one job per MPI process"),
                        (["--checkpoint=fork"], "only with copy snapshots")):
        r = subprocess.run([ORDEX, "explore", "--distributed", "-n", "3"] + extra + [so],
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, cwd=tmp)
        e = r.stderr.decode(errors="replace")
        ok = r.returncode == 2 and says in e
        lines.append(("ok" if ok else "DIFF", "--distributed %s refused: %s" % (
            " ".join(extra), "yes" if ok else "status %s: %s" % (r.returncode, e[-200:]))))
    env = dict(os.environ, ORDEX_DIST_AGENT=os.path.join(tmp, "no-such-agent"))
    r = subprocess.run([ORDEX, "explore", "--distributed", "-n", "3", so],
                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, cwd=tmp, env=env)
    e = r.stderr.decode(errors="replace")
    ok = r.returncode == 2 and "cannot find ordex-dist-agent" in e
    lines.append(("ok" if ok else "DIFF", "--distributed without its agent: %s" % (
        "refused" if ok else "status %s: %s" % (r.returncode, e[-200:]))))
    return lines


def run_job(cmd, tmp, timeout=180, env=None):
    """Runs an mpiexec.mpich command line; (status, stderr), status None on a hang."""
    try:
        r = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, cwd=tmp,
                           timeout=timeout, env=env)
        return r.returncode, r.stderr.decode(errors="replace")
    except subprocess.TimeoutExpired:
        return None, "timed out (a hang)"


def check_rank_failures(tmpdir):
    """One rank that cannot load the program, or fails before joining the
    MPI job (mpiexec.mpich's A : B form gives ranks different programs):
    every process ends, exit status 2, saying why; copy snapshots giving way
    to fork snapshots on every rank; --graph end nodes per ordering."""
    tmp = tempfile.mkdtemp(prefix="rank_failures.", dir=tmpdir)
    good = compile_program(os.path.join(TOP, "examples", "wildcard_deadlock.c"), tmp)
    bad = os.path.join(tmp, "bad.so")
    with open(bad, "w") as fh:
        fh.write("not a program\n")
    env = dict(os.environ, ORDEX_DIST_TIMEOUT="3")
    lines = []
    ex = [ORDEX, "explore", "-q", "--distributed", "-n", "3"]
    for first, second, name in ((bad, good, "rank 0"), (good, bad, "rank 1")):
        status, err = run_job([MPIEXEC, "-n", "1"] + ex + [first, ":", "-n", "1"] + ex + [second],
                              tmp, env=env)
        # rank 1 failing: rank 0 reports what was covered and the rank's
        # reason, with its verdict's status (the example's deadlock may have
        # been found: 1); rank 0 failing: no report, status 2
        ok = "bad.so" in err and (status == 2 if first == bad else
                                  status in (1, 2) and "INCOMPLETE" in err)
        lines.append(("ok" if ok else "DIFF", "%s cannot load the program: %s" % (
            name, "status %s" % status if ok else "status %s: %s" % (status, err[-400:]))))
    missing = os.path.join(tmp, "missing.so")
    status, err = run_job([MPIEXEC, "-n", "1"] + ex + [good, ":", "-n", "1"] + ex + [missing],
                          tmp, env=env)
    # (the status is mpiexec.mpich's: non-zero, not always 2, when a process
    # never joined the job)
    ok = status not in (None, 0) and "the MPI job did not start within" in err
    lines.append(("ok" if ok else "DIFF", "a rank fails before joining the job: %s" % (
        "the other gives up, status %s" % status if ok else "status %s: %s" % (status,
                                                                            err[-400:]))))
    # Copy snapshots give way to fork snapshots (the program maps memory
    # itself): the same verdict and outcomes as one process, complete.
    mm = compile_program(os.path.join(TOP, "tests", "programs", "mmap_rank.c"), tmp)
    one, _, _ = explore(mm, 3, 30, tmp, "mmap-one")
    for k in (2, 4):
        dist, dstatus, derr = explore(mm, 3, 60, tmp, "mmap-dist%d" % k, procs=k)
        ok = (one is not None and dist is not None and
              all(one[f] == dist[f] for f in ("status", "verdict", "findings", "outcomes")) and
              dist["complete"])
        lines.append(("ok" if ok else "DIFF",
                      "mmap_rank.c -n 3, %d processes, fork snapshots after copies: %s" % (
                          k, "as one process" if ok else "one %s, distributed %s: %s" % (
                              one, dist, derr[-300:]))))
    # A program that closes the descriptors it inherited leaves ordex's alone.
    ci = compile_program(os.path.join(TOP, "tests", "programs", "close_inherited.c"), tmp)
    one, _, _ = explore(ci, 3, 30, tmp, "close-one")
    dist, dstatus, derr = explore(ci, 3, 60, tmp, "close-dist", procs=2)
    ok = (one is not None and dist is not None and dist["complete"] and
          all(one[f] == dist[f] for f in ("status", "verdict", "findings", "outcomes")))
    lines.append(("ok" if ok else "DIFF", "close_inherited.c -n 3, 2 processes: %s" % (
        "as one process" if ok else "one %s, distributed %s: %s" % (one, dist, derr[-300:]))))
    # A --json-progress file that cannot be made is said before the job
    # starts: exit 2, no process of the job killed.
    status, err = run_job([MPIEXEC, "-n", "2", ORDEX, "explore", "-q", "--distributed", "-n", "3",
                           "--json-progress", os.path.join(tmp, "no", "such", "dir", "p.json"),
                           good], tmp, env=env)
    ok = status == 2 and "--json-progress" in err and "BAD TERMINATION" not in err
    lines.append(("ok" if ok else "DIFF", "an unwritable --json-progress under mpiexec: %s" % (
        "refused, status 2" if ok else "status %s: %s" % (status, err[-300:]))))
    # --graph: one end node per ordering, whichever rank ran it.
    fs = compile_program(os.path.join(TOP, "examples", "floyd_steinberg.c"), tmp)
    dot = os.path.join(tmp, "fs.dot")
    out = os.path.join(tmp, "fs.json")
    status, err = run_job([MPIEXEC, "-n", "4", ORDEX, "explore", "-q", "--distributed", "-n", "4",
                           "--graph", dot, "--json", out, fs], tmp)
    try:
        with open(dot) as fh:
            ends = {ln.split()[0] for ln in fh if "label=\"end\"" in ln and "->" not in ln}
        with open(out) as fh:
            paths = __import__("json").load(fh)["stats"]["paths"]
        ok = len(ends) == paths
    except (OSError, ValueError, KeyError, IndexError):
        ok, ends, paths = False, set(), None
    lines.append(("ok" if ok else "DIFF", "--graph under --distributed: %s end nodes for %s "
                  "orderings" % (len(ends), paths)))
    return lines


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cap", type=float, default=10.0)
    ap.add_argument("--procs", default="2 4")
    ap.add_argument("--no-failures", action="store_true")
    ap.add_argument("--failures-only", action="store_true")
    ap.add_argument("programs", nargs="*")
    a = ap.parse_args()
    progs = a.programs or sorted(glob.glob(os.path.join(TOP, "examples", "*.c")))
    progs = [os.path.abspath(p) for p in progs]
    procs = [int(k) for k in a.procs.split()]
    counts = por_check.rank_counts()
    seen = {"ok": 0, "failed": 0, "skipped": 0}
    with tempfile.TemporaryDirectory(prefix="distcheck.") as tmpdir:
        cases = [lambda p=p: check(p, sorted(counts.get(
            os.path.splitext(os.path.basename(p))[0], {2, 4})), procs, a.cap, tmpdir)
            for p in progs] if not a.failures_only else []
        if not a.programs and not a.no_failures:
            cases += [lambda: check_worker_dies(tmpdir), lambda: check_agent_killed(tmpdir),
                      lambda: check_reports(tmpdir), lambda: check_rank_failures(tmpdir)]
        for case in cases:
            por_check.tally(case(), seen)
    print("distcheck: %(ok)d passed, %(failed)d failed, %(skipped)d skipped" % seen)
    return 1 if seen["failed"] else 0


if __name__ == "__main__":
    sys.exit(main())
