#!/usr/bin/env python3
"""loss_probe.py - where did xqlab lose its games against a UCI engine?

Reads the games of `xqlab bench strength --pgn FILE` (standard xiangqi), turns their moves into
ICCS with `xqlab import` and `xqlab export --notation iccs` (in a temporary directory), and for
every game xqlab lost replays the positions where xqlab was to move with a referee engine
(Fairy-Stockfish by default) and with xqlab:

  * the first move pair (xqlab's move and the reply) that cost xqlab more than --drop
    centipawns in the referee's evaluation and left it worse than -drop: the ply, the referee's score before and after (from
    xqlab's side), the referee's move there, xqlab's move, and xqlab's own score of that
    position at --xqlab-ms;
  * with --before N, also the referee's score N plies (about) before the game's end.

Standard library only; mates count as +-(30000 - 100 per move). Moves are printed with ranks
from 0 (xqlab's ICCS).

usage: scripts/bench/loss_probe.py GAMES.pgn [--xqlab BIN] [--engine CMD] [--games N]
       [--engine-ms MS] [--xqlab-ms MS] [--drop CP] [--before N]
"""
import argparse
import re
import os
import shlex
import subprocess
import sys
import tempfile


class Uci:
    """A UCI engine on a pipe."""

    def __init__(self, cmd, setup):
        try:
            self.p = subprocess.Popen(shlex.split(cmd), stdin=subprocess.PIPE,
                                      stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                      text=True)
        except OSError as e:
            sys.exit(f"loss_probe.py: cannot start '{cmd}': {e}")
        self.cmd = cmd
        self.send("uci")
        self.until("uciok")
        for line in setup:
            self.send(line)
        self.send("isready")
        self.until("readyok")

    def send(self, line):
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()

    def until(self, token):
        lines = []
        while True:
            line = self.p.stdout.readline()
            if not line:
                sys.exit(f"loss_probe.py: '{self.cmd}' ended before '{token}'")
            lines.append(line)
            if line.startswith(token):
                return lines

    def search(self, moves, ms):
        """(score in centipawns for the side to move, mate as +-30000 less 100 a move, best move)."""
        self.send("position startpos" + (" moves " + " ".join(moves) if moves else ""))
        self.send(f"go movetime {ms}")
        lines = self.until("bestmove")
        score = None
        for line in lines:
            m = re.search(r"score (cp|mate) (-?\d+)", line)
            if m:
                v = int(m.group(2))
                score = v if m.group(1) == "cp" else (30000 - 100 * abs(v)) * (1 if v > 0 else -1)
        return score, lines[-1].split()[1]

    def close(self):
        try:
            self.send("quit")
            self.p.wait(timeout=5)
        except (OSError, subprocess.TimeoutExpired):
            self.p.kill()


def one_based(move):
    return f"{move[0]}{int(move[1]) + 1}{move[2]}{int(move[3]) + 1}"


def zero_based(move):
    """A referee's move (ranks from 1, rank 10 in two digits) with ranks from 0."""
    m = re.fullmatch(r"([a-i])(\d+)([a-i])(\d+)(.*)", move)
    if not m:
        return move
    return f"{m.group(1)}{int(m.group(2)) - 1}{m.group(3)}{int(m.group(4)) - 1}{m.group(5)}"


def read_games(path):
    """(tags, movetext) of each game of a PGN file."""
    try:
        text = open(path, encoding="utf-8").read()
    except OSError as e:
        sys.exit(f"loss_probe.py: {path}: {e}")
    games, tags, body = [], {}, []
    for line in text.splitlines():
        tag = re.fullmatch(r'\s*\[(\w+) "([^"]*)"\]\s*', line)
        if tag:
            if body:  # a tag after movetext starts the next game
                games.append((tags, re.sub(r"\{[^}]*\}", " ", " ".join(body))))
                tags, body = {}, []
            tags[tag.group(1)] = tag.group(2)
        elif line.strip():
            body.append(line)
    if tags or body:
        games.append((tags, re.sub(r"\{[^}]*\}", " ", " ".join(body))))
    return games


def lost_games(path, xqlab_bin, name):
    """(game number in the file, xqlab plays red, ICCS moves) of each game of `path` that the
    player `name` lost."""
    original = read_games(path)
    with tempfile.TemporaryDirectory() as tmp:
        h5, iccs = os.path.join(tmp, "games.h5"), os.path.join(tmp, "games.pgn")
        for cmd in ([xqlab_bin, "import", path, "-v", "xiangqi", "-o", h5],
                    [xqlab_bin, "export", h5, "--pgn", iccs, "--notation", "iccs"]):
            r = subprocess.run(cmd, capture_output=True, text=True)
            if r.returncode != 0:
                sys.exit(f"loss_probe.py: {' '.join(cmd)}: {r.stderr.strip()}")
        converted = read_games(iccs)
    if len(converted) != len(original):
        sys.exit(f"loss_probe.py: {path}: {len(original)} games, {len(converted)} converted")
    games = []
    for number, ((tags, _), (_, body)) in enumerate(zip(original, converted), 1):
        red, black, result = tags.get("Red", ""), tags.get("Black", ""), tags.get("Result")
        if name in red:
            as_red = True
        elif name in black:
            as_red = False
        else:
            continue
        if result == ("0-1" if as_red else "1-0"):
            games.append((number, as_red, re.findall(r"\b[a-i]\d[a-i]\d\b", body)))
    return games


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("pgn", help="games of xqlab bench strength --pgn")
    ap.add_argument("--xqlab", default="build/cli/xqlab", help="the xqlab binary [build/cli/xqlab]")
    ap.add_argument("--engine", default="/usr/games/fairy-stockfish", help="the referee engine")
    ap.add_argument("--name", default="xqlab", help="xqlab's name in the Red / Black tags")
    ap.add_argument("--games", type=int, default=12, help="lost games to probe [12]")
    ap.add_argument("--engine-ms", type=int, default=150, help="referee ms a position [150]")
    ap.add_argument("--xqlab-ms", type=int, default=100, help="xqlab ms a position [100]")
    ap.add_argument("--drop", type=int, default=150, help="a move pair costing more is reported [150]")
    ap.add_argument("--before", type=int, default=0,
                    help="also the referee's score this many plies before the end (0: not)")
    a = ap.parse_args()
    if a.games < 1 or a.engine_ms < 1 or a.xqlab_ms < 1 or a.drop < 1 or a.before < 0:
        ap.error("--games, --engine-ms, --xqlab-ms and --drop must be positive, --before >= 0")
    games = lost_games(a.pgn, a.xqlab, a.name)[:a.games]
    if not games:
        sys.exit(f"loss_probe.py: {a.pgn}: no game lost by a player named '{a.name}'")
    ref = Uci(a.engine, ["setoption name UCI_Variant value xiangqi"])
    xq = Uci(shlex.quote(a.xqlab) + " engine", [])
    print(f"{len(games)} lost games; referee {a.engine} at {a.engine_ms} ms, xqlab at {a.xqlab_ms} ms")
    for number, as_red, moves in games:
        line = f"game {number} (xqlab {'red' if as_red else 'black'}, {len(moves)} plies):"
        if a.before and len(moves) > a.before:
            k = len(moves) - a.before
            k -= (k % 2) != (0 if as_red else 1)  # a position with xqlab to move
            sc, _ = ref.search([one_based(m) for m in moves[:k]], a.engine_ms)
            line += f" referee {sc} at ply {k};"
        prev = None
        for k in range(0 if as_red else 1, len(moves) - 1, 2):
            sc, best = ref.search([one_based(m) for m in moves[:k]], a.engine_ms)
            if sc is None:
                continue
            if prev and sc < prev[1] - a.drop and sc < -a.drop:
                pk, psc, pbest = prev
                xsc, _ = xq.search(moves[:pk], a.xqlab_ms)
                line += (f" first drop at ply {pk}: xqlab played {moves[pk]}, referee"
                         f" {psc} -> {sc} (its move {zero_based(pbest)}), xqlab's own score {xsc}")
                break
            prev = (k, sc, best)
        else:
            line += " no drop found"
        print(line, flush=True)
    ref.close()
    xq.close()


if __name__ == "__main__":
    main()
