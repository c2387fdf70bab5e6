#!/usr/bin/env python3
"""Partial-order reduction against the full search, program by program.

For every examples/*.c and tests/programs/*.c, explores the program once with
`--no-por` (capped at --cap seconds) and, when that search is complete, once
with the default reduction, and compares what the user gets: the exit status,
the verdict, the findings (kind, ranks, location, message) and the number of
distinct outcomes of each pass.  A reduction that loses an ordering shows up
as a missing finding or fewer outcomes.  The full search runs one job
(`--jobs 1`), the reduced one with the default number of jobs (every core:
two workers on the machines the tests run on; one job for a program that
opens files, which workers would share), so that work shared between
workers is checked against one job's search as well; on a difference the
reduced search runs again with one job to tell which lost it.

Rank counts: the ones the end-to-end tests use with the program ("-n", "N"
on a line that names it), else 2 and 4.  Arguments are not passed: programs
that need some take their defaults or fail the same way in both searches.

Prints one line per comparison ("ok", "DIFF" with the difference, or
"skipped" when --no-por did not finish within the cap or the difference is
listed in tests/por_check.known) and ends with
"porcheck: N passed, N failed, N skipped".  Exit status 0 when none failed.

    tests/por_check.py [--cap SECONDS] [--jobs N] [PROGRAM.c ...]
"""
import argparse
import concurrent.futures
import glob
import json
import os
import re
import subprocess
import sys
import tempfile

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ORDEX = os.environ.get("ORDEX", os.path.join(TOP, ".cache", "bin", "ordex"))


def rank_counts():
    """Program base name -> set of rank counts used by the end-to-end tests."""
    found = {}
    for f in glob.glob(os.path.join(TOP, "tests", "e2e", "*.c")):
        with open(f, errors="replace") as fh:
            text = fh.read()
        for line in text.splitlines():
            ns = re.findall(r'"-n",\s*"(\d+)"', line)
            progs = re.findall(r'"([A-Za-z0-9_]+)\.c"', line)
            for p in progs:
                for n in ns:
                    found.setdefault(p, set()).add(int(n))
        # tables: {"name", "N", ...}
        for p, n in re.findall(r'\{"([A-Za-z0-9_]+)",\s*"(\d+)"', text):
            found.setdefault(p, set()).add(int(n))
    return found


def summary(path, status):
    try:
        with open(path) as fh:
            j = json.load(fh)
    except (OSError, ValueError):
        return None
    # A message race names the ranks of the two orderings it shows, which
    # depend on which orderings came first; its message counts the outcomes.
    # A livelock's message counts the polls made within the step timeout.
    findings = sorted(
        json.dumps([f.get("kind"),
                    None if f.get("kind") == "message_race" else sorted(f.get("ranks") or []),
                    f.get("location"),
                    re.sub(r"polled in vain \d+ times", "polled in vain N times",
                           f.get("message") or "")])
        for f in j.get("findings", []))
    complete = all(p.get("complete", True) for p in j.get("passes", []) if p.get("ran"))
    return {
        "status": status,
        "verdict": j.get("verdict"),
        "findings": findings,
        "outcomes": j.get("stats", {}).get("outcomes"),
        "complete": complete,
        "states": j.get("stats", {}).get("states"),
    }


def explore(so, n, extra, cap, tmp, tag):
    out = os.path.join(tmp, tag + ".json")
    cmd = [ORDEX, "explore", "-q", "-n", str(n), "--max-time", str(cap), "--json", out,
           "--trace-dir", os.path.join(tmp, tag + "-traces")] + extra + [so]
    try:
        r = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                           timeout=cap * 3 + 30, cwd=tmp)
        status = r.returncode
    except subprocess.TimeoutExpired:
        return None
    return summary(out, status)


def known_differences():
    """(program relative to the top, ranks) -> why, from tests/por_check.known."""
    known = {}
    with open(os.path.join(TOP, "tests", "por_check.known")) as fh:
        for line in fh:
            if line.strip() and not line.startswith("#"):
                prog, n, why = line.split(None, 2)
                known[(prog, int(n))] = why.strip()
    return known


def check(prog, ns, cap, tmpdir, known):
    base = os.path.splitext(os.path.basename(prog))[0]
    tmp = tempfile.mkdtemp(prefix=base + ".", dir=tmpdir)
    so = os.path.join(tmp, base + ".so")
    r = subprocess.run([ORDEX, "cc", "-o", so, prog], stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL)
    if r.returncode != 0:
        return [("skipped", "%s: does not compile on its own" % prog)]
    lines = []
    for n in ns:
        full = explore(so, n, ["--no-por", "--jobs", "1"], cap, tmp, "nopor-%d" % n)
        name = "%s -n %d" % (os.path.relpath(prog, TOP), n)
        if not full or not full["complete"] or full["verdict"] == "incomplete":
            lines.append(("skipped", "%s: --no-por does not finish within %gs" % (name, cap)))
            continue
        red = explore(so, n, [], cap * 3, tmp, "por-%d" % n)
        if not red:
            lines.append(("DIFF", "%s: the reduced search did not finish" % name))
            continue
        diffs = [k for k in ("status", "verdict", "findings", "outcomes") if full[k] != red[k]]
        why = known.get((os.path.relpath(prog, TOP), n))
        if diffs and why:
            lines.append(("skipped", "%s: known difference (%s)" % (name, why)))
        elif why:
            lines.append(("DIFF", "%s: listed in tests/por_check.known but agrees now" % name))
        elif diffs:
            one = explore(so, n, ["--jobs", "1"], cap * 3, tmp, "por1-%d" % n)
            by = ("one job agrees with no-por: the default jobs lost it"
                  if one and all(full[k] == one[k] for k in diffs) else "one job too")
            lines.append(("DIFF", "%s: %s differ: no-por %s, por (default jobs) %s (%s)" % (
                name, ", ".join(diffs), {k: full[k] for k in diffs}, {k: red[k] for k in diffs},
                by)))
        else:
            lines.append(("ok", "%s (states %s no-por, %s por)" % (name, full["states"],
                                                                 red["states"])))
    return lines


def tally(lines, seen):
    """Prints (kind, text) lines and counts them into seen: ok, skipped, failed."""
    for kind, text in lines:
        print("%s %s" % (kind, text), flush=True)
        seen[kind if kind in ("ok", "skipped") else "failed"] += 1


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cap", type=float, default=3.0)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("programs", nargs="*")
    a = ap.parse_args()
    progs = a.programs or sorted(glob.glob(os.path.join(TOP, "examples", "*.c")) +
                                 glob.glob(os.path.join(TOP, "tests", "programs", "*.c")))
    progs = [os.path.abspath(p) for p in progs]
    counts = rank_counts()
    known = known_differences()
    counts_seen = {"ok": 0, "failed": 0, "skipped": 0}
    with tempfile.TemporaryDirectory(prefix="porcheck.") as tmpdir:
        with concurrent.futures.ThreadPoolExecutor(max_workers=a.jobs) as pool:
            futs = []
            for p in progs:
                base = os.path.splitext(os.path.basename(p))[0]
                ns = sorted(counts.get(base, {2, 4}))
                futs.append(pool.submit(check, p, ns, a.cap, tmpdir, known))
            for f in futs:
                tally(f.result(), counts_seen)
    print("porcheck: %(ok)d passed, %(failed)d failed, %(skipped)d skipped" % counts_seen)
    return 1 if counts_seen["failed"] else 0


if __name__ == "__main__":
    sys.exit(main())
