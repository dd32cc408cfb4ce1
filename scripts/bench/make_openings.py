#!/usr/bin/env python3
"""make_openings.py - balanced opening lines for `xqlab bench strength`, made with Fairy-Stockfish.

Each candidate line is a walk of --plies plies from the start position: at every ply the engine
searches to --pick-depth with --multipv lines, and one of the moves scoring within --window
centipawns of the best is drawn at random (seeded, so the walk is reproducible). The line is kept
when the engine's evaluation of its final position at --depth is within --max-cp of 0 and that
position was not reached before (transpositions are dropped). The hash is cleared before every
search and the engine runs one thread, so the same engine build and arguments give the same file.

Writes the book (selfplay/book.h format: ICCS moves from the start, ranks from 0) to --out, which
must not exist yet. Only the Python standard library is needed.

  python3 scripts/bench/make_openings.py --variant xiangqi --out configs/openings/xiangqi.txt
  python3 scripts/bench/make_openings.py --variant sniper --variant-path configs/fairy/sniper.ini \\
      --engine /path/to/fairy-stockfish-14 --out configs/openings/sniper.txt
"""
import argparse
import os
import random
import re
import subprocess
import sys


class Engine:
    """A Fairy-Stockfish process spoken to over UCI."""

    def __init__(self, command, variant, variant_path):
        self.proc = subprocess.Popen(command, shell=True, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     universal_newlines=True, bufsize=1)
        self.send("uci")
        self.name = "?"
        self.options = set()
        for line in self.until("uciok"):
            if line.startswith("id name "):
                self.name = line[8:]
            elif line.startswith("option name "):
                self.options.add(line[12:].split(" type ")[0])
        self.send("setoption name Threads value 1")
        # Scores without the engine's bias towards avoiding draws.
        if "Contempt" in self.options:
            self.send("setoption name Contempt value 0")
        if variant_path:
            self.send("setoption name VariantPath value " + os.path.abspath(variant_path))
        self.send("setoption name UCI_Variant value " + variant)
        self.ready()

    def send(self, line):
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def until(self, prefix):
        while True:
            line = self.proc.stdout.readline()
            if not line:
                sys.exit("make_openings: the engine died")
            line = line.rstrip("\r\n")
            yield line
            if line.startswith(prefix):
                return

    def ready(self):
        self.send("isready")
        for _ in self.until("readyok"):
            pass

    def search(self, moves, depth, multipv):
        """{first move: (kind, score)} of the final iteration, kind 'cp' or 'mate'."""
        self.send("ucinewgame")
        self.send("setoption name MultiPV value %d" % multipv)
        self.ready()
        self.send("position startpos" + (" moves " + " ".join(moves) if moves else ""))
        self.send("go depth %d" % depth)
        best = {}
        pattern = re.compile(r"^info depth (\d+) .*?multipv (\d+) score (cp|mate) (-?\d+).* pv (\S+)")
        for line in self.until("bestmove"):
            m = pattern.match(line)
            if m and int(m.group(1)) == depth:
                best[m.group(5)] = (m.group(3), int(m.group(4)))
        return best

    def fen(self, moves):
        self.send("position startpos" + (" moves " + " ".join(moves) if moves else ""))
        self.send("d")
        fen = None
        for line in self.until("Fen: "):
            if line.startswith("Fen: "):
                fen = line[5:]
        self.send("isready")
        for _ in self.until("readyok"):
            pass
        return " ".join(fen.split()[:2]) if fen else None

    def quit(self):
        self.send("quit")
        self.proc.wait(timeout=10)


def to_iccs(move, rank_base):
    """Fairy-Stockfish writes ranks from 1; the book counts them from 0."""
    return re.sub(r"([a-z])(\d+)", lambda m: m.group(1) + str(int(m.group(2)) - rank_base), move)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--engine", default="/usr/games/fairy-stockfish")
    ap.add_argument("--variant", default="xiangqi")
    ap.add_argument("--variant-path", help="Fairy-Stockfish variants file defining --variant")
    ap.add_argument("--plies", type=int, default=6, help="plies per line (default 6)")
    ap.add_argument("--count", type=int, default=100, help="lines to keep (default 100)")
    ap.add_argument("--pick-depth", type=int, default=6, help="search depth choosing each move (default 6)")
    ap.add_argument("--multipv", type=int, default=5, help="candidate moves per ply (default 5)")
    ap.add_argument("--window", type=int, default=40, help="centipawns below the best a move may be (default 40)")
    ap.add_argument("--depth", type=int, default=10, help="depth of the final evaluation (default 10)")
    ap.add_argument("--max-cp", type=int, default=30, help="keep lines evaluated within +-max-cp (default 30)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--max-tries", type=int, default=5000)
    ap.add_argument("--verbose", action="store_true", help="print every candidate's evaluation on stderr")
    ap.add_argument("--out", required=True, help="book file to write (refused if it exists)")
    args = ap.parse_args()
    if os.path.exists(args.out):
        sys.exit("make_openings: %s exists: refusing to overwrite it" % args.out)

    rng = random.Random(args.seed)
    engine = Engine(args.engine, args.variant, args.variant_path)
    kept, seen, tries = [], set(), 0
    while len(kept) < args.count and tries < args.max_tries:
        tries += 1
        moves = []
        for _ in range(args.plies):
            scored = engine.search(moves, args.pick_depth, args.multipv)
            cps = {m: s for m, (kind, s) in scored.items() if kind == "cp"}
            if not cps:
                break
            top = max(cps.values())
            moves.append(rng.choice(sorted(m for m, s in cps.items() if s >= top - args.window)))
        if len(moves) < args.plies:
            continue
        key = engine.fen(moves)
        if key in seen:
            continue
        seen.add(key)
        final = engine.search(moves, args.depth, 1)
        if not final:
            continue
        kind, score = next(iter(final.values()))
        if args.verbose:
            print("make_openings: %s: %s %d" % (" ".join(moves), kind, score), file=sys.stderr, flush=True)
        if kind != "cp" or abs(score) > args.max_cp:
            continue
        kept.append((moves, score))
        if len(kept) % 10 == 0:
            print("make_openings: %d/%d kept, %d tried" % (len(kept), args.count, tries), file=sys.stderr, flush=True)
    engine.quit()
    command = "python3 scripts/bench/make_openings.py " + " ".join(
        "--%s %s" % (k.replace("_", "-"), v) for k, v in sorted(vars(args).items())
        if v is not None and k not in ("out", "verbose") and not (k == "engine" and v == ap.get_default("engine")))
    with open(args.out, "x") as f:
        f.write("# Balanced openings for `xqlab bench strength` (%s): %d lines of %d plies, ICCS moves\n"
                "# from the start position (ranks from 0). Played in pairs, each line once with each colour.\n"
                "# Made by scripts/bench/make_openings.py with %s:\n"
                "#   %s\n"
                "# Each ply drawn (seeded) among the engine's %d best moves at depth %d within %d cp of the\n"
                "# best; a line is kept when its final position is new and the engine evaluates it within\n"
                "# +-%d cp at depth %d (hash cleared before every search, one thread, contempt 0). %d candidate\n"
                "# lines were tried. The number after each line is that evaluation, from the side to move.\n"
                % (args.variant, len(kept), args.plies, engine.name, command, args.multipv, args.pick_depth,
                   args.window, args.max_cp, args.depth, tries))
        for moves, score in kept:
            f.write("%-40s # %+d\n" % (" ".join(to_iccs(m, 1) for m in moves), score))
    if len(kept) < args.count:
        sys.exit("make_openings: only %d lines within %d tries" % (len(kept), args.max_tries))


if __name__ == "__main__":
    main()
