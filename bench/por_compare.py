#!/usr/bin/env python3
"""Two ordex binaries' explorations side by side (not a test).

Explores every examples/*.c and tests/programs/*.c (or the programs given)
with the default settings under binary A and binary B, at the rank counts
tests/por_check.py uses, each capped at --cap seconds, and prints a Markdown
table of the cases where a count differs: branching states, transitions,
orderings run to the end (paths), snapshots, and whether the search was
complete; then totals over the cases both finished.

    bench/por_compare.py --a OLD_ORDEX --b NEW_ORDEX [--cap S] [--jobs N] [PROG.c ...]
"""
import argparse
import concurrent.futures
import glob
import importlib.util
import json
import os
import subprocess
import sys
import tempfile

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
spec = importlib.util.spec_from_file_location("por_check", os.path.join(TOP, "tests", "por_check.py"))
pc = importlib.util.module_from_spec(spec)
spec.loader.exec_module(pc)


def stats(binary, so, n, cap, tmp, tag):
    out = os.path.join(tmp, tag + ".json")
    cmd = [binary, "explore", "-q", "-n", str(n), "--max-time", str(cap), "--json", out,
           "--trace-dir", os.path.join(tmp, tag + "-traces"), so]
    try:
        subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                       timeout=cap * 3 + 30, cwd=tmp)
        with open(out) as fh:
            j = json.load(fh)
    except (subprocess.TimeoutExpired, OSError, ValueError):
        return None
    st = j.get("stats", {})
    complete = all(p.get("complete", True) for p in j.get("passes", []) if p.get("ran"))
    return (st.get("states"), st.get("transitions"), st.get("paths"), st.get("snapshots"),
            complete and j.get("verdict") != "incomplete")


def one(a, b, prog, ns, cap, tmpdir):
    base = os.path.splitext(os.path.basename(prog))[0]
    tmp = tempfile.mkdtemp(prefix=base + ".", dir=tmpdir)
    so = os.path.join(tmp, base + ".so")
    if subprocess.run([b, "cc", "-o", so, prog], stdout=subprocess.DEVNULL,
                      stderr=subprocess.DEVNULL).returncode:
        return []
    return [(os.path.relpath(prog, TOP), n, stats(a, so, n, cap, tmp, "a%d" % n),
             stats(b, so, n, cap, tmp, "b%d" % n)) for n in ns]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--a", required=True)
    ap.add_argument("--b", required=True)
    ap.add_argument("--cap", type=float, default=10.0)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("programs", nargs="*")
    o = ap.parse_args()
    progs = o.programs or sorted(glob.glob(os.path.join(TOP, "examples", "*.c")) +
                                 glob.glob(os.path.join(TOP, "tests", "programs", "*.c")))
    counts = pc.rank_counts()
    rows = []
    with tempfile.TemporaryDirectory(prefix="porcompare.") as tmpdir:
        with concurrent.futures.ThreadPoolExecutor(max_workers=o.jobs) as pool:
            futs = [pool.submit(one, o.a, o.b, os.path.abspath(p),
                                sorted(counts.get(os.path.splitext(os.path.basename(p))[0], {2, 4})),
                                o.cap, tmpdir) for p in progs]
            for f in futs:
                rows += f.result()
    print("| program | n | A states | B states | A transitions | B transitions | A paths | B paths "
          "| A snapshots | B snapshots | A complete | B complete |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    tot = [0] * 8
    cases = 0
    for prog, n, sa, sb in rows:
        if not sa or not sb:
            continue
        if sa[4] and sb[4]:
            cases += 1
            for i in range(4):
                tot[i] += sa[i]
                tot[4 + i] += sb[i]
        if sa[:4] != sb[:4] or sa[4] != sb[4]:
            print("| %s | %d | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (
                prog, n, sa[0], sb[0], sa[1], sb[1], sa[2], sb[2], sa[3], sb[3],
                "yes" if sa[4] else "no", "yes" if sb[4] else "no"))
    print()
    print("Totals over the %d cases both finished: states %d -> %d, transitions %d -> %d, "
          "paths %d -> %d, snapshots %d -> %d" % (cases, tot[0], tot[4], tot[1], tot[5], tot[2],
                                                  tot[6], tot[3], tot[7]))


if __name__ == "__main__":
    sys.exit(main())
