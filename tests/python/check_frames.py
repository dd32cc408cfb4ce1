#!/usr/bin/python3
"""Checks the pandas recipe (scripts/analysis/dataset_frames.py) on a dataset whose games start
with BOOK_PLIES unsearched book moves: the frames' counts, the termination names against xqlab's
report, missing values as NaN, integer offsets, board letters against the start FEN.
Usage: check_frames.py FILE.h5 REPORT.json BOOK_PLIES (Debian python3-pandas, python3-h5py)."""
import json
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "scripts", "analysis"))
from dataset_frames import load_frames  # noqa: E402


def fen_letters(fen):
    return sorted(c for c in fen.split()[0] if c.isalpha())


def main(path, report_path, book_plies):
    games, positions = load_frames(path)
    report = json.load(open(report_path))
    assert len(games) == report["games"], f"{len(games)} games, the report has {report['games']}"
    assert len(positions) == int(games["position_count"].sum()), "positions do not add up"
    counts = games["termination"].value_counts()
    want = report["terminations"]
    got = {name: int(n) for name, n in counts.items() if n}
    assert got == want, f"terminations {got}, the report says {want}"
    # Book positions carry the missing marker: NaN, never -1.00003; searched ones are in [-1, 1].
    missing = int(positions["root_value"].isna().sum())
    assert missing == book_plies * len(games), f"{missing} positions without a value, expected {book_plies * len(games)}"
    searched = positions["root_value"].dropna()
    assert len(searched) > 0 and searched.between(-1, 1).all(), "searched values outside [-1, 1]"
    # Offsets are int64: the last position of each game is an integer index.
    last = games["first_position"] + games["position_count"] - 1
    assert last.dtype == np.int64, f"offset arithmetic gives {last.dtype}"
    assert (positions["game"].iloc[last.to_numpy()].to_numpy() == np.arange(len(games))).all(), "last positions"
    # The board letters of each game's first position are the pieces of its start FEN.
    for k in range(len(games)):
        board = positions["board"].iloc[int(games["first_position"][k])]
        assert sorted(c for c in board if c.isalpha()) == fen_letters(games["start_fen"][k]), \
            f"game {k}: board letters {board} do not match {games['start_fen'][k]}"
    print(f"{path}: pandas frames ok ({len(games)} games, {len(positions)} positions, {missing} unsearched)")


if __name__ == "__main__":
    if len(sys.argv) != 4:
        sys.exit("usage: check_frames.py FILE.h5 REPORT.json BOOK_PLIES")
    main(sys.argv[1], sys.argv[2], int(sys.argv[3]))
