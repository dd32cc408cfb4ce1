#!/usr/bin/python3
"""`xqlab analyse` and the --movetime budgets of selfplay, match and ladder, end to end.

usage: test_analyse_movetime.py XQLAB WORK_DIR
Needs Debian's h5py (/usr/bin/python3) to read a dataset's recorded settings.
Prints "ok NAME" per check; exits 1 at the first failure."""

import json
import os
import re
import shutil
import subprocess
import sys

import h5py

XQLAB = sys.argv[1]
WORK = sys.argv[2]
MATE_IN_1 = "4k4/R8/9/9/9/9/p8/9/9/1R1K5 w - - 0 1"
MATED = "1R2k4/R8/9/9/9/9/p8/9/9/3K5 b - - 1 1"
JIEQI_START = ("xxxxkxxxx/9/1x5x1/x1x1x1x1x/9/9/X1X1X1X1X/1X5X1/9/XXXXKXXXX w - - 0 1 "
               "[hidden:A2B2N2R2C2P5a2b2n2r2c2p5]")


def run(*args, rc=0):
    p = subprocess.run([XQLAB, *args], capture_output=True, text=True)
    if p.returncode != rc:
        raise AssertionError("xqlab %s: exit %d, expected %d; stderr: %s" %
                             (" ".join(args), p.returncode, rc, p.stderr.strip()))
    return p


def check(cond, what):
    if not cond:
        raise AssertionError(what)


def legal(moves, fen=None, variant="xiangqi"):
    args = ["play", "-v", variant, "--moves", " ".join(moves)] + (["--fen", fen] if fen else [])
    return subprocess.run([XQLAB, *args], capture_output=True).returncode == 0


def test_analyse_text():
    out = run("analyse", "--moves", "h2e2 h9g7", "--playouts", "1500", "--top", "4").stdout
    lines = dict((l.split()[0], l) for l in out.splitlines() if l and not l.startswith(" "))
    for key in ("analyse:", "fen", "best", "value", "pv", "root"):
        check(key in lines, "no '%s' line in:\n%s" % (key, out))
    check("1500 playouts" in lines["analyse:"], lines["analyse:"])
    best = lines["best"].split()[1]
    pv = lines["pv"].split()[1:]
    check(pv[0] == best and legal(["h2e2", "h9g7"] + pv), "pv %r, best %s" % (pv, best))
    check(" cp, side to move's view" in lines["value"], lines["value"])
    rows = [l.split() for l in out.splitlines() if l.startswith("  ") and not l.split()[0] == "move"]
    check(len(rows) == 4, "--top 4 printed %d moves" % len(rows))
    check(rows[0][0] == best, "the most visited move is not the best: %r" % rows[0])
    visits = [int(r[1]) for r in rows]
    check(visits == sorted(visits, reverse=True), "moves not by visits: %r" % visits)


def test_analyse_json():
    d = json.loads(run("analyse", "--playouts", "1200", "--json").stdout)
    check(d["playouts"] == 1200 and not d["timed"], "budget: %r" % d["playouts"])
    check(len(d["moves"]) == 44, "44 root moves in xiangqi's start, got %d" % len(d["moves"]))
    check(sum(m["visits"] for m in d["moves"]) == d["visits"] - 1, "child visits do not add up")
    check(abs(sum(m["prior"] for m in d["moves"]) - 1) < 1e-3, "priors do not sum to 1")
    check(d["moves"][0]["move"] == d["best"] == d["pv"][0], "best %s, first %s" %
          (d["best"], d["moves"][0]["move"]))
    check(all(m["value"] is None for m in d["moves"] if m["visits"] == 0), "unvisited values")
    check(-1 <= d["value"] <= 1 and isinstance(d["cp"], int), "value %r" % d["value"])
    check(legal(d["pv"]), "pv not legal: %r" % d["pv"])


def test_analyse_mate_and_time():
    d = json.loads(run("analyse", "--fen", MATE_IN_1, "--playouts", "300", "--json").stdout)
    check(d["best"] == "b0b9" and d["proven"] == 1 and d["proven_plies"] == 1, "mate: %r" % d)
    d = json.loads(run("analyse", "--movetime", "120", "--json", "--set", "arena_nodes=4000000").stdout)
    check(d["timed"] and d["movetime"] == 120, "timed flag")
    check(d["seconds"] >= 0.119 and d["playouts"] >= 1, "ran %.3f s, %d playouts" %
          (d["seconds"], d["playouts"]))
    d = json.loads(run("analyse", "-v", "jieqi", "--fen", JIEQI_START, "--moves", "a3a4R",
                       "--playouts", "400", "--json").stdout)
    check("[hidden:A2B2N2R1C2P5" in d["fen"], "jieqi pools: %s" % d["fen"])
    check(any(m["move"].endswith("?") for m in d["moves"]), "no undrawn reveal among the moves")


def test_analyse_errors():
    cases = [
        (["--playouts", "10", "--movetime", "10"], 2, "--playouts and --movetime are alternatives"),
        (["--moves", "h2e2 h9g7 zz"], 2, "--moves: move 3 'zz'"),
        (["--moves", "h2e2 h2e2"], 2, "--moves: move 2 'h2e2'"),
        (["--fen", "rnbakabnr/9 w"], 2, "--fen:"),
        (["--fen", MATED], 1, "no legal move to analyse: win for red (checkmate)"),
        (["-v", "jieqi", "--moves", "a3a4"], 2, "a reveal must name the identity"),
        (["--playout", "5"], 2, "did you mean --playouts?"),
        (["--top", "0"], 2, "--top"),
    ]
    for args, rc, msg in cases:
        err = run("analyse", *args, rc=rc).stderr
        check(msg in err, "analyse %s: %r lacks %r" % (" ".join(args), err, msg))


def test_selfplay_movetime():
    out = os.path.join(WORK, "timed.h5")
    d = json.loads(run("selfplay", "-v", "xiangqi", "-n", "2", "-t", "1", "--movetime", "8",
                       "--set", "max_plies=40", "-o", out, "--json", "--progress", "quiet").stdout)
    check(d["timed"] and d["settings"]["movetime"] == 8, "not recorded as timed: %r" % d["settings"])
    check(d["searches"] > 0 and d["playouts"] >= d["searches"], "playouts %r searches %r" %
          (d["playouts"], d["searches"]))
    with h5py.File(out, "r") as f:
        text = f.attrs["params_text"]
        text = text.decode() if isinstance(text, bytes) else text
    check("movetime = 8\n" in text, "the dataset does not record movetime: %r" % text)
    text_out = run("selfplay", "-v", "xiangqi", "-n", "2", "-t", "1", "--movetime", "5",
                   "--set", "max_plies=20", "--no-output", "--progress", "quiet").stdout
    check("5 ms/move, timed: " in text_out and "playouts/move on average" in text_out, text_out)
    err = run("selfplay", "-v", "xiangqi", "--movetime", "5", "--playouts", "9", "--no-output",
              rc=2).stderr
    check("--playouts and --movetime are alternatives" in err, err)


def test_match_movetime():
    out = run("match", "-v", "xiangqi", "--a", "mcts", "--b", "mcts:playouts=30", "--movetime", "6",
              "-n", "2", "-t", "1", "--quiet").stdout
    check("search A:   6 ms/move (timed)" in out, out)
    # B's own budget: at most 30 a move (fewer once a search proves the result), never timed.
    b = re.search(r"^search B:   (\d+) playouts/move$", out, re.M)
    check(b and 1 <= int(b.group(1)) <= 30, out)
    d = json.loads(run("match", "-v", "xiangqi", "--a", "mcts:movetime=6", "--b", "greedy", "-n", "2",
                       "-t", "1", "--quiet", "--json").stdout)
    check(d["a_movetime"] == 6 and d["a_playouts_per_move"] > 1, "json: %r" % d)
    err = run("match", "-v", "xiangqi", "--a", "mcts:movetime=5,playouts=9", "--b", "greedy", rc=2).stderr
    check("playouts and movetime are alternatives" in err, err)


def test_ladder_movetime():
    dirn = os.path.join(WORK, "ladder")
    d = json.loads(run("ladder", "-v", "xiangqi", "--movetime", "4,12", "-n", "2", "-t", "1",
                       "--set", "max_plies=30", "-o", dirn, "--json").stdout)
    check([r["movetime"] for r in d["rungs"]] == [4, 12], "rungs %r" % d["rungs"])
    check(all(r["playouts"] > 0 for r in d["rungs"]), "no playouts per move: %r" % d["rungs"])
    check(sorted(os.listdir(dirn)) == ["xiangqi-t12.h5", "xiangqi-t4.h5"], os.listdir(dirn))
    text = run("ladder", "-v", "xiangqi", "--movetime", "3", "-n", "2", "-t", "1",
               "--set", "max_plies=20").stdout
    check(" ms/move " in text, text)
    err = run("ladder", "-v", "xiangqi", "--movetime", "3", "--playouts", "4", rc=2).stderr
    check("--playouts and --movetime are alternatives" in err, err)


TESTS = [test_analyse_text, test_analyse_json, test_analyse_mate_and_time, test_analyse_errors,
         test_selfplay_movetime, test_match_movetime, test_ladder_movetime]

if __name__ == "__main__":
    shutil.rmtree(WORK, ignore_errors=True)
    os.makedirs(WORK)
    for t in TESTS:
        try:
            t()
        except AssertionError as err:
            print("FAIL %s: %s" % (t.__name__[5:], err))
            sys.exit(1)
        print("ok %s" % t.__name__[5:])
