#!/usr/bin/python3
"""Protocol transcripts of `xqlab engine` driven through a pipe: UCI, UCCI and XBoard, stop and
quit while searching, the bad inputs answered with errors, time limits kept, a hidden-piece rule
set (jieqi) and Fairy-Stockfish's 1-based ranks.

usage: test_engine_protocols.py XQLAB SOURCE_DIR [TEST...]
Prints "ok NAME" per test, "FAIL NAME: why" and exits 1 on the first failure."""

import os
import queue
import re
import subprocess
import sys
import threading
import time

XQLAB = sys.argv[1]
SOURCE = sys.argv[2]
ONLY = sys.argv[3:]
# Wall-clock bounds only prove liveness ("answered at all, soon"): on a loaded machine (2 cores,
# many processes) a process can wait seconds for a core, so they are generous. Whether a time
# limit was kept is checked on the time the engine itself reports for its search (info time,
# XBoard's centiseconds), which the machine's load does not shift.
PROMPT = float(os.environ.get("XQLAB_TEST_PROMPT", "20"))
# The engine reads its clock between search steps; on a loaded machine the thread can be
# descheduled right before the deadline and report a few milliseconds more (seen: 304 ms for a
# 300 ms movetime at load 20). The time checks allow this much, far below any overrun that
# matters (a step that ignored the deadline would overrun by its whole budget).
SLACK_MS = 50

START = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"
JIEQI_START = ("xxxxkxxxx/9/1x5x1/x1x1x1x1x/9/9/X1X1X1X1X/1X5X1/9/XXXXKXXXX w - - 0 1 "
               "[hidden:A2B2N2R2C2P5a2b2n2r2c2p5]")
MATE_IN_1 = "4k4/R8/9/9/9/9/p8/9/9/1R1K5 w - - 0 1"      # b0b9 mates
MATED = "1R2k4/R8/9/9/9/9/p8/9/9/3K5 b - - 1 1"          # black is checkmated
MOVE = re.compile(r"^[a-i](10|[0-9])[a-i](10|[0-9])")


class Engine:
    """xqlab engine on a pipe; a reader thread queues its output lines."""

    def __init__(self, *args):
        self.p = subprocess.Popen([XQLAB, "engine", *args], stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                  bufsize=1)
        self.lines = queue.Queue()
        self.seen = []
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.p.stdout:
            self.lines.put(line.rstrip("\n"))
        self.lines.put(None)

    def send(self, text):
        self.p.stdin.write(text + "\n")
        self.p.stdin.flush()

    def expect(self, pattern, timeout=30.0 + PROMPT):
        """Lines up to and including the first that matches; fails on timeout or end."""
        rx = re.compile(pattern)
        got = []
        end = time.monotonic() + timeout
        while True:
            left = end - time.monotonic()
            try:
                line = self.lines.get(timeout=max(left, 0.01))
            except queue.Empty:
                raise AssertionError("no line matching %r within %.1f s; got %r" %
                                     (pattern, timeout, got[-8:]))
            if line is None:
                raise AssertionError("engine ended before %r; got %r; stderr %r" %
                                     (pattern, got[-8:], self.p.stderr.read()))
            got.append(line)
            self.seen.append(line)
            if rx.search(line):
                return got

    def quiet(self, seconds):
        """Lines that arrive within `seconds`."""
        got = []
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            try:
                line = self.lines.get(timeout=0.02)
            except queue.Empty:
                continue
            if line is None:
                break
            got.append(line)
        return got

    def close(self, timeout=PROMPT):
        try:
            self.p.stdin.close()
        except BrokenPipeError:
            pass
        self.p.wait(timeout=timeout)
        return self.p.returncode


def check(cond, what):
    if not cond:
        raise AssertionError(what)


def legal_after(fen, moves, variant="xiangqi"):
    """True if `xqlab play` accepts the moves from the FEN (None: the start position)."""
    cmd = [XQLAB, "play", "-v", variant, "--moves", " ".join(moves)]
    if fen:
        cmd += ["--fen", fen]
    return subprocess.run(cmd, capture_output=True).returncode == 0


def bestmove(lines, word="bestmove"):
    last = lines[-1].split()
    check(last[0] == word and len(last) >= 2, "expected '%s M', got %r" % (word, lines[-1]))
    return last[1]


def info_field(line, key):
    words = line.split()
    return words[words.index(key) + 1]


def shipped_variants():
    d = os.path.join(SOURCE, "configs", "variants")
    return sorted(f[:-4] for f in os.listdir(d) if f.endswith(".ini"))


def uci_engine(*args):
    e = Engine(*args)
    e.send("uci")
    lines = e.expect("^uciok$")
    return e, lines


# ---- UCI ----------------------------------------------------------------------------------------

def test_uci_handshake():
    e, lines = uci_engine()
    check(any(l.startswith("id name xqlab") for l in lines), "no id name")
    variant = [l for l in lines if l.startswith("option name UCI_Variant ")]
    check(len(variant) == 1, "no UCI_Variant option")
    listed = sorted(re.findall(r" var (\S+)", variant[0]))
    check(listed == shipped_variants(), "UCI_Variant lists %r, shipped %r" %
          (listed, shipped_variants()))
    for name in ("VariantFile type string", "WeightsFile type string", "Threads type spin",
                 "Hash type spin", "MoveOverhead type spin", "RanksFromOne type check",
                 "playouts type spin", "movetime type spin", "c_puct type string",
                 "qsearch_depth type spin", "reuse_tree type check"):
        check(any(l.startswith("option name " + name) for l in lines), "no option " + name)
    # Self-play settings are not engine options.
    check(not any("dirichlet" in l or "resign" in l for l in lines), "self-play option listed")
    e.send("isready")
    e.expect("^readyok$")
    e.send("quit")
    check(e.close() == 0, "exit status")


def test_uci_go_nodes_and_info():
    e, _ = uci_engine()
    e.send("position startpos moves h2e2 h9g7")
    e.send("go nodes 700")
    lines = e.expect("^bestmove ")
    mv = bestmove(lines)
    check(legal_after(None, ["h2e2", "h9g7", mv]), "bestmove %s is not legal" % mv)
    info = [l for l in lines if l.startswith("info depth")][-1]
    check(info_field(info, "nodes") == "700", "final info nodes: %r" % info)
    for key in ("nps", "time", "score", "pv", "hashfull"):
        check(key in info.split(), "info lacks %s: %r" % (key, info))
    check(info_field(info, "score") == "cp", "score is not cp: %r" % info)
    pv = info.split(" pv ")[1].split()
    check(pv[0] == mv, "pv starts with %s, bestmove %s" % (pv[0], mv))
    check(legal_after(None, ["h2e2", "h9g7"] + pv), "pv is not a legal line: %r" % pv)
    e.send("quit")
    e.close()


def test_uci_movetime():
    e, _ = uci_engine()
    e.send("position startpos")
    e.send("isready")
    e.expect("^readyok$")
    t = time.monotonic()
    e.send("go movetime 300")
    lines = e.expect("^bestmove ", timeout=10 + PROMPT)
    took = time.monotonic() - t
    check(0.2 <= took < 0.3 + PROMPT, "go movetime 300 answered after %.3f s" % took)
    info = [l for l in lines if l.startswith("info depth")][-1]
    check(int(info_field(info, "time")) <= 300 + SLACK_MS, "searched longer than movetime: %r" % info)
    check(int(info_field(info, "nodes")) > 1, "a timed search ran one playout")
    e.send("quit")
    e.close()


def test_uci_clock_never_flags():
    """With 1 s left and no increment the engine answers well within the second, every move."""
    e, _ = uci_engine()
    e.send("setoption name MoveOverhead value 50")
    moves = []
    left = 1000
    for ply in range(6):
        e.send("position startpos moves " + " ".join(moves))
        t = time.monotonic()
        e.send("go wtime %d btime %d" % (left, left))
        lines = e.expect("^bestmove ", timeout=10 + PROMPT)
        mv = bestmove(lines)
        took = (time.monotonic() - t) * 1000
        used = int(info_field([l for l in lines if l.startswith("info depth")][-1], "time"))
        # The search itself keeps half of what is left after the 50 ms overhead.
        check(used <= (left - 50) // 2 + 5,
              "ply %d: searched %d ms with %d ms on the clock" % (ply, used, left))
        check(took < left + PROMPT * 1000, "ply %d: no answer in %.0f ms" % (ply, took))
        left -= max(used + 50, 1)
        moves.append(mv)
    check(legal_after(None, moves), "the moves are not a legal game: %r" % moves)
    e.send("go wtime 0 btime 0")                  # a flag already fallen: still a move at once
    t = time.monotonic()
    bestmove(e.expect("^bestmove ", timeout=10 + PROMPT))
    check(time.monotonic() - t < PROMPT, "no prompt answer with 0 ms left")
    e.send("quit")
    e.close()


def test_uci_stop_infinite():
    e, _ = uci_engine()
    e.send("setoption name InfoInterval value 100")
    e.send("position startpos")
    e.send("go infinite")
    early = e.quiet(0.8)
    check(not any(l.startswith("bestmove") for l in early), "bestmove before stop")
    check(any(l.startswith("info depth") for l in early), "no info lines during go infinite")
    t = time.monotonic()
    e.send("stop")
    lines = e.expect("^bestmove ", timeout=PROMPT + 2)
    check(time.monotonic() - t < PROMPT, "stop answered after %.2f s" % (time.monotonic() - t))
    check(legal_after(None, [bestmove(lines)]), "bestmove after stop is illegal")
    # isready during a search is answered at once, and the search goes on.
    e.send("go infinite")
    e.send("isready")
    e.expect("^readyok$", timeout=PROMPT)
    e.send("position startpos moves h2e2")
    e.expect("info string error: position while searching", timeout=PROMPT)
    e.send("stop")
    e.expect("^bestmove ", timeout=PROMPT)
    # quit during a search ends the process at once.
    e.send("go infinite")
    time.sleep(0.3)
    t = time.monotonic()
    e.send("quit")
    check(e.close(timeout=PROMPT + 2) == 0, "exit status after quit")
    check(time.monotonic() - t < PROMPT, "quit took %.2f s" % (time.monotonic() - t))


def test_uci_depth_and_threads():
    e, _ = uci_engine()
    e.send("setoption name Threads value 2")
    e.send("isready")
    e.expect("^readyok$")
    e.send("position startpos")
    e.send("go nodes 2000")
    lines = e.expect("^bestmove ")
    info = [l for l in lines if l.startswith("info depth")][-1]
    check(info_field(info, "nodes") == "2000", "two threads ran %r playouts" % info)
    e.send("setoption name Threads value 1")
    e.send("go depth 4")
    lines = e.expect("^bestmove ")
    info = [l for l in lines if l.startswith("info depth")][-1]
    check(int(info_field(info, "depth")) >= 4, "go depth 4 reported %r" % info)
    e.send("quit")
    e.close()


def test_uci_mcts():
    """search = mcts, chosen by option or preset: go nodes caps the playouts exactly."""
    for args, send in (((), "setoption name search value mcts"), (("--set", "search=mcts"), None)):
        e, _ = uci_engine(*args)
        if send:
            e.send(send)
        e.send("position startpos moves h2e2 h9g7")
        e.send("go nodes 700")
        lines = e.expect("^bestmove ")
        info = [l for l in lines if l.startswith("info depth")][-1]
        check(info_field(info, "nodes") == "700", "mcts: final info nodes: %r" % info)
        check(legal_after(None, ["h2e2", "h9g7", bestmove(lines)]), "mcts: illegal bestmove")
        e.send("quit")
        check(e.close() == 0, "exit status")


def test_uci_alpha_beta():
    """search = ab, the default: iterative deepening to a depth, a fixed move time used to its
    end, a mate with its distance, the ab_depth budget of a go without limits, and a bad value
    refused."""
    e, lines = uci_engine()
    check(any(l.startswith("option name search type string default ab") for l in lines),
          "no search option with the default ab")
    e.send("setoption name search value alphabeta")
    lines = e.expect("^info string error")
    check("search: expected one of mcts, ab" in lines[-1], "bad search value: %r" % lines[-1])
    e.send("position startpos moves h2e2 h9g7")
    e.send("go depth 5")
    lines = e.expect("^bestmove ")
    mv = bestmove(lines)
    check(legal_after(None, ["h2e2", "h9g7", mv]), "bestmove %s is not legal" % mv)
    info = [l for l in lines if l.startswith("info depth")][-1]
    check(int(info_field(info, "depth")) >= 5, "go depth 5 reported %r" % info)
    check(int(info_field(info, "nodes")) > 1000, "a depth-5 search visited %r" % info)
    pv = info.split(" pv ")[1].split()
    check(pv[0] == mv and len(pv) >= 3, "pv %r, bestmove %s" % (pv, mv))
    check(legal_after(None, ["h2e2", "h9g7"] + pv), "pv is not a legal line: %r" % pv)
    e.send("isready")
    e.expect("^readyok$")
    t = time.monotonic()
    e.send("go movetime 300")
    lines = e.expect("^bestmove ", timeout=10 + PROMPT)
    took = time.monotonic() - t
    check(took < 0.3 + PROMPT, "go movetime 300 answered after %.3f s" % took)
    info = [l for l in lines if l.startswith("info depth")][-1]
    check(int(info_field(info, "time")) <= 300 + SLACK_MS, "searched longer than movetime: %r" % info)
    # A fixed move time is searched to its end (300 ms less the 30 ms MoveOverhead): an
    # iteration that cannot finish still searches the best moves first.
    check(int(info_field(info, "time")) >= 250, "a fixed move time of 300 ms left unused: %r" % info)
    check(int(info_field(info, "depth")) >= 3, "depth %r in 300 ms" % info)
    e.send("position fen " + MATE_IN_1)
    e.send("go movetime 2000")
    lines = e.expect("^bestmove ")
    check(bestmove(lines) == "b0b9", "mate in one not found: %r" % lines[-2:])
    check(" score mate 1 " in lines[-2] + " ", "no 'score mate 1': %r" % lines[-2])
    e.send("setoption name ab_depth value 3")
    e.send("position startpos")
    e.send("go")
    lines = e.expect("^bestmove ")
    info = [l for l in lines if l.startswith("info depth")][-1]
    check(info_field(info, "depth") == "3", "go without limits at ab_depth 3: %r" % info)
    e.send("quit")
    check(e.close() == 0, "exit status")


def test_uci_mate_and_mated():
    e, _ = uci_engine()
    e.send("position fen " + MATE_IN_1)
    e.send("go nodes 500")
    lines = e.expect("^bestmove ")
    check(bestmove(lines) == "b0b9", "mate in one not found: %r" % lines[-2:])
    check(" score mate 1 " in lines[-2] + " ", "no 'score mate 1': %r" % lines[-2])
    e.send("position fen " + MATED)
    e.send("go movetime 100")
    lines = e.expect("^bestmove ")
    check(lines[-1] == "bestmove (none)", "mated side moved: %r" % lines[-1])
    check(any("no legal move" in l and "checkmate" in l for l in lines), "no reason given")
    e.send("quit")
    e.close()


def test_uci_bad_input():
    e, _ = uci_engine()
    cases = [
        ("frobnicate 3", r"info string error: unknown command 'frobnicate'"),
        ("setoption name Threads value 0", r"error: Threads: expected an integer from 1 to 64"),
        ("setoption name Hash value lots", r"error: Hash: expected an integer"),
        ("setoption name c_puct value -2", r"error: c_puct: expected a number > 0"),
        ("setoption name reuse_tree value maybe", r"error: reuse_tree: expected true or false"),
        ("setoption name NoSuchOption value 1", r"error: unknown option 'NoSuchOption'"),
        ("setoption value 3", r"error: setoption: expected 'setoption name NAME"),
        ("setoption name UCI_Variant value chess", r"error: UCI_Variant: unknown rule set "
                                                   r"'chess' \(one of: banqi"),
        ("setoption name VariantFile value /no/such/file.ini", r"error: VariantFile: .*/no/such/"
                                                               r"file.ini"),
        ("setoption name WeightsFile value /no/such/w.ini", r"error: WeightsFile: weights: "
                                                            r".*/no/such/w.ini"),
        ("position startpos moves h2e2 h9g7 h2h9", r"error: position: move 3 'h2h9': "),
        ("position startpos moves h2e2 zz", r"error: position: move 2 'zz': 'zz' is not a move"),
        ("position fen rnbakabnr/9/1c5c1 w - - 0 1", r"error: position: bad FEN "),
        ("position sideways", r"error: position: expected 'startpos' or 'fen FEN', not "
                              r"'sideways'"),
        ("position startpos h2e2", r"error: position: expected 'moves' after the position, not "
                                   r"'h2e2'"),
    ]
    for cmd, pattern in cases:
        e.send(cmd)
        e.expect(pattern, timeout=PROMPT)
    # The refused position is never searched: go answers with the reason and no move.
    e.send("go nodes 10")
    lines = e.expect("^bestmove ")
    check(lines[-1] == "bestmove (none)", "searched a refused position: %r" % lines)
    check(any("no position to search" in l for l in lines), "go did not say why: %r" % lines)
    e.send("position startpos")
    for cmd, pattern in (("go nodes abc", r"error: go nodes: expected a whole number"),
                         ("go wtime", r"error: go wtime: expected a whole number"),
                         ("go sometime 3", r"error: go: unknown word 'sometime'")):
        e.send(cmd)
        lines = e.expect("^bestmove ")
        check(any(re.search(pattern, l) for l in lines), "%s: %r" % (cmd, lines))
        check(lines[-1] == "bestmove (none)", "%s searched anyway" % cmd)
    # After all that the engine still plays.
    e.send("go nodes 50")
    check(legal_after(None, [bestmove(e.expect("^bestmove "))]), "no legal move at the end")
    e.send("quit")
    check(e.close() == 0, "exit status after bad input")


def test_uci_ranks_from_one():
    """Fairy-Stockfish's UCI counts xiangqi ranks from 1: h3e3 is ICCS h2e2."""
    e, _ = uci_engine()
    e.send("setoption name RanksFromOne value true")
    e.send("position startpos moves h3e3 h10g8")
    e.send("d")
    fen = [l for l in e.expect("^info string status ") if " fen " in l][0].split(" fen ")[1]
    check(legal_after(None, ["h2e2", "h9g7"]), "setup")
    expected = subprocess.run([XQLAB, "play", "--moves", "h2e2 h9g7"], capture_output=True,
                              text=True).stdout.split("\n")[0][5:]
    check(fen == expected, "1-based moves gave %r, not %r" % (fen, expected))
    e.send("go nodes 300")
    lines = e.expect("^bestmove ")
    mv = bestmove(lines)
    ranks = [int(r) for r in re.findall(r"[a-i](\d+)", mv)]
    check(all(1 <= r <= 10 for r in ranks), "bestmove %s not 1-based" % mv)
    native = re.sub(r"([a-i])(\d+)", lambda m: m.group(1) + str(int(m.group(2)) - 1), mv)
    check(legal_after(None, ["h2e2", "h9g7", native]), "bestmove %s is not legal" % mv)
    e.send("position startpos moves a0a1")
    e.expect(r"error: position: move 1 'a0a1': rank 0 is not on the board: ranks count from 1")
    e.send("quit")
    e.close()


def test_uci_variants_and_files():
    e, _ = uci_engine()
    e.send("setoption name VariantFile value " + os.path.join(SOURCE, "configs/variants/sniper.ini"))
    e.send("position startpos")
    e.send("d")
    check(any(l == "info string variant sniper" for l in e.expect("^info string status ")),
          "VariantFile did not load sniper")
    e.send("go nodes 200")
    check(bestmove(e.expect("^bestmove ")) != "(none)", "no move in sniper")
    for name in shipped_variants():
        e.send("setoption name UCI_Variant value " + name)
        e.send("position startpos")
        e.send("go nodes 100")
        lines = e.expect("^bestmove ")
        check(not any("error" in l for l in lines), "%s: %r" % (name, lines))
        mv = bestmove(lines)
        check(mv != "(none)", "no move in %s" % name)
    e.send("setoption name UCI_Variant value xiangqi")
    e.send("setoption name WeightsFile value " +
           os.path.join(SOURCE, "configs/weights/xiangqi-tuned.ini"))
    e.send("position startpos")
    e.send("go nodes 100")
    check(bestmove(e.expect("^bestmove ")) != "(none)", "no move with the tuned weights")
    e.send("quit")
    e.close()


def test_uci_weights_follow_the_search():
    """Without WeightsFile the engine plays with the nearest shipped weights for its search: in
    sniper NAME.ini for alpha-beta and NAME-mcts.ini for MCTS, switched by the search option; a
    WeightsFile stays whatever the search."""
    e, _ = uci_engine()
    e.send("setoption name UCI_Variant value sniper")

    def weights():
        e.send("d")
        lines = e.expect("^info string status ")
        got = [l for l in lines if l.startswith("info string weights ")]
        check(len(got) == 1, "no weights line: %r" % lines)
        return got[0]

    check("/configs/weights/sniper.ini (nearest shipped weights:" in weights(), "alpha-beta: not sniper.ini")
    e.send("setoption name search value mcts")
    check("/configs/weights/sniper-mcts.ini (nearest shipped weights for the MCTS player:" in weights(),
          "MCTS: not sniper-mcts.ini")
    e.send("position startpos")
    e.send("go nodes 100")
    check(bestmove(e.expect("^bestmove ")) != "(none)", "no MCTS move with sniper-mcts.ini")
    e.send("setoption name search value ab")
    check("/configs/weights/sniper.ini (nearest" in weights(), "back to alpha-beta: not sniper.ini")
    given = os.path.join(SOURCE, "configs/weights/sniper-mcts.ini")
    e.send("setoption name WeightsFile value " + given)
    e.send("setoption name search value mcts")
    e.send("setoption name search value ab")
    check(given + " (given:" in weights(), "a WeightsFile changed with the search")
    e.send("quit")
    e.close()


def test_uci_jieqi_hidden():
    """Jieqi: the FEN carries the pools, reveals name the piece turned up, the engine's own
    reveal comes undrawn (the GUI draws it), and an undrawn reveal as input is refused."""
    e, _ = uci_engine("-v", "jieqi")
    e.send("position fen %s moves a3a4R" % JIEQI_START)
    e.send("d")
    fen = [l for l in e.expect("^info string status ") if " fen " in l][0]
    check("[hidden:A2B2N2R1C2P5a2b2n2r2c2p5]" in fen, "the red chariot left the pool: %r" % fen)
    e.send("go nodes 400")
    lines = e.expect("^bestmove ")
    mv = bestmove(lines)
    check(MOVE.match(mv) and not mv.endswith("?"), "bestmove %r" % mv)
    # The referee turns the reveal up: any identity the pool holds makes it a legal move.
    drawn = [mv] + [mv + k for k in "abnrcp"]
    check(any(legal_after(JIEQI_START, ["a3a4R", d], "jieqi") for d in drawn),
          "no drawing of %s is legal" % mv)
    e.send("position fen %s moves a3a4" % JIEQI_START)
    e.expect(r"error: position: move 1 'a3a4': a reveal must name the identity turned up")
    e.send("position fen %s moves a3a4Q" % JIEQI_START)
    e.expect(r"error: position: move 1 'a3a4Q': ")
    e.send("position startpos moves a3a4P i6i5p")
    e.send("go movetime 200")
    check(bestmove(e.expect("^bestmove ")) != "(none)", "no move after two reveals")
    e.send("quit")
    e.close()


# ---- UCCI ---------------------------------------------------------------------------------------

def test_ucci():
    e = Engine()
    e.send("ucci")
    lines = e.expect("^ucciok$")
    check(any(l.startswith("option usemillisec type check") for l in lines), "no usemillisec")
    check(any(l.startswith("option hashsize type spin") for l in lines), "no hashsize")
    check(not any(l.startswith("option name ") for l in lines), "UCI option syntax in UCCI")
    e.send("isready")
    e.expect("^readyok$")
    e.send("position startpos moves h2e2")
    t = time.monotonic()
    e.send("go time 3")                            # seconds: about 0.1 s of it for this move
    lines = e.expect("^bestmove ", timeout=3 + PROMPT)
    check(time.monotonic() - t < 3 + PROMPT, "go time 3: no answer")
    check(legal_after(None, ["h2e2", bestmove(lines)]), "illegal UCCI move")
    info = [l for l in lines if l.startswith("info depth")][-1]
    check(re.match(r"info depth \d+ score -?\d+ time \d+ nodes \d+", info), "info: %r" % info)
    check(int(info_field(info, "time")) <= 1500, "go time 3 searched %r" % info)
    e.send("setoption usemillisec true")
    t = time.monotonic()
    e.send("go time 400 increment 0")
    lines = e.expect("^bestmove ", timeout=0.4 + PROMPT)
    check(time.monotonic() - t < 0.4 + PROMPT, "go time 400 (ms): no answer")
    info = [l for l in lines if l.startswith("info depth")][-1]
    check(int(info_field(info, "time")) <= 200, "go time 400 (ms) searched %r" % info)
    e.send("go depth 3")
    lines = e.expect("^bestmove ")
    check(int(info_field([l for l in lines if l.startswith("info")][-1], "depth")) >= 3,
          "depth 3 not reached")
    e.send("go depth infinite")
    time.sleep(0.4)
    t = time.monotonic()
    e.send("stop")
    e.expect("^bestmove ", timeout=PROMPT)
    check(time.monotonic() - t < PROMPT, "UCCI stop was slow")
    e.send("banmoves h9g7")
    e.expect("error: banmoves is not supported")
    e.send("position fen " + MATED)
    e.send("go time 1")
    lines = e.expect("^nobestmove$")
    check(any("checkmate" in l for l in lines), "nobestmove without the reason")
    e.send("go nodes 0")
    e.expect("^nobestmove$")
    e.send("quit")
    e.expect("^bye$")
    check(e.close() == 0, "UCCI exit status")


# ---- XBoard -------------------------------------------------------------------------------------

def test_xboard():
    e = Engine()
    e.send("xboard")
    e.send("protover 2")
    lines = e.expect("^feature done=1$")
    feat = " ".join(lines)
    for f in ("ping=1", "setboard=1", "usermove=1", "sigint=0", "time=1"):
        check(f in feat, "feature %s missing" % f)
    listed = re.search(r'variants="([^"]*)"', feat).group(1).split(",")
    check(listed[0] == "xiangqi" and sorted(listed) == shipped_variants(), "variants %r" % listed)
    e.send("new")
    e.send("variant xiangqi")
    e.send("post")
    e.send("st 1")
    e.send("ping 1")
    e.expect("^pong 1$")
    t = time.monotonic()
    e.send("usermove h2e2")
    lines = e.expect("^move ", timeout=1 + PROMPT)
    check(time.monotonic() - t < 1 + PROMPT, "st 1: no answer")
    mv = lines[-1].split()[1]
    check(legal_after(None, ["h2e2", mv]), "xboard move %s illegal" % mv)
    think = [l for l in lines if re.match(r"^\d+ -?\d+ \d+ \d+ ", l)]
    check(think, "no thinking output with post: %r" % lines)
    check(int(think[-1].split()[2]) <= 100 + SLACK_MS // 10, "st 1 exceeded: %r" % think[-1])   # centiseconds
    e.send("usermove z9z9")
    e.expect(r"^Illegal move \(.*\): z9z9$")
    e.send("usermove h9h0")
    e.expect(r"^Illegal move \(.*\): h9h0$")
    e.send("setboard rnbakabnr/9 w")
    e.expect(r"^tellusererror Illegal position: ")
    e.send("variant chess")
    e.expect(r"^Error \(unsupported variant; xqlab plays .*xiangqi.*\): chess$")
    e.send("fly")
    e.expect(r"^Error \(unknown command\): fly$")
    e.send("level 40 x 0")
    e.expect(r"^Error \(level expects MPS BASE INC")
    # force mode: moves are taken, no reply, until go.
    e.send("new")
    e.send("force")
    e.send("usermove h2e2")
    e.send("usermove h9g7")
    e.send("ping 2")
    lines = e.expect("^pong 2$")
    check(not any(l.startswith("move") for l in lines), "moved in force mode")
    e.send("level 0 0:05 0")
    e.send("time 500")
    e.send("otim 500")
    t = time.monotonic()
    e.send("go")
    lines = e.expect("^move ", timeout=5 + PROMPT)
    mv = lines[-1].split()[1]
    check(time.monotonic() - t < 5 + PROMPT, "5 s clock: no answer")
    think = [l for l in lines if re.match(r"^\d+ -?\d+ \d+ \d+ ", l)]
    check(think and int(think[-1].split()[2]) <= 250 + SLACK_MS // 10,
          "5 s clock: searched more than half of it: %r" % think[-1:])
    check(legal_after(None, ["h2e2", "h9g7", mv]), "go: move %s illegal" % mv)
    # The engine claims a result it delivers.
    e.send("new")
    e.send("force")
    e.send("setboard " + MATE_IN_1)
    e.send("st 1")
    e.send("go")
    lines = e.expect(r"^1-0 \{", timeout=10 + PROMPT)
    check(any(l == "move b0b9" for l in lines), "mate not played: %r" % lines)
    check("checkmate" in lines[-1], "claim without reason: %r" % lines[-1])
    # A perpetual chase is not claimed (XBoard forfeits any win claim but a mate it flagged, and
    # adjudicates repetitions by its own tests): Red's cannon has chased Black's rook into the
    # third occurrence, a win for Black by xqlab's rules; the engine, playing Black, moves on.
    chase_fen = "2bakabnr/9/r1n1c4/2p1p1p1p/PP7/9/4P1P1P/2C3NC1/9/1NBAKAB1R w - - 0 1"
    chase = "c2a2 a7b7 a2b2 b7a7 b2a2 a7b7 a2b2 b7a7 b2a2".split()
    e.send("new")
    e.send("force")
    e.send("setboard " + chase_fen)
    for mv in chase:
        e.send("usermove " + mv)
    e.send("st 1")
    e.send("go")
    lines = e.expect(r"^(move |1-0|0-1|1/2-1/2)", timeout=10 + PROMPT)
    check(lines[-1].startswith("move "), "perpetual chase claimed or no move: %r" % lines[-1:])
    # The board after the cycle: the cannon back on a2, the rook on a7 (the FEN above, by hand).
    after = "2bakabnr/9/r1n1c4/2p1p1p1p/PP7/9/4P1P1P/C5NC1/9/1NBAKAB1R b - - 0 1"
    check(legal_after(after, [lines[-1].split()[1]]), "move after the chase illegal: %r" % lines[-1])
    # Nor is the move-limit draw (XBoard counts its own 100 plies, without checks): Red's quiet
    # move is the 120th ply without a capture; the engine, playing Black, moves on.
    limit_fen = "3k5/9/9/9/9/9/9/9/4A4/3AK4 w - - 119 80"
    check(legal_after(limit_fen, ["e1f2"]), "the move-limit case's first move is illegal")
    e.send("new")
    e.send("force")
    e.send("setboard " + limit_fen)
    e.send("usermove e1f2")
    e.send("go")
    lines = e.expect(r"^(move |1-0|0-1|1/2-1/2)", timeout=10 + PROMPT)
    check(lines[-1].startswith("move "), "move-limit draw claimed or no move: %r" % lines[-1:])
    # Analysis: thinking lines until exit; undo goes back.
    e.send("new")
    e.send("force")
    e.send("usermove h2e2")
    e.send("option InfoInterval=100")
    e.send("analyze")
    lines = e.quiet(0.8)
    check(any(re.match(r"^\d+ -?\d+ \d+ \d+ ", l) for l in lines), "no analysis output")
    e.send("exit")
    e.send("undo")
    e.send("undo")
    e.expect(r"^Error \(undo: fewer than 1 moves were played\): undo$")
    e.send("option c_puct=abc")
    e.expect(r"^tellusererror error: c_puct: expected a number")
    e.send("quit")
    check(e.close() == 0, "XBoard exit status")


TESTS = [test_uci_handshake, test_uci_go_nodes_and_info, test_uci_movetime,
         test_uci_clock_never_flags, test_uci_stop_infinite, test_uci_depth_and_threads,
         test_uci_mcts, test_uci_alpha_beta,
         test_uci_mate_and_mated, test_uci_bad_input, test_uci_ranks_from_one,
         test_uci_variants_and_files, test_uci_weights_follow_the_search, test_uci_jieqi_hidden, test_ucci,
         test_xboard]


def main():
    for t in TESTS:
        name = t.__name__[5:]
        if ONLY and name not in ONLY:
            continue
        try:
            t()
        except AssertionError as err:
            print("FAIL %s: %s" % (name, err))
            return 1
        print("ok %s" % name)
    return 0


if __name__ == "__main__":
    sys.exit(main())
