#!/usr/bin/python3
"""dataset_frames.py - an xqlab dataset as two pandas DataFrames: one row per game (/games) and
one row per position (/positions), the documented recipe of docs/data-format.md.

Needs Debian's python3-h5py, python3-numpy and python3-pandas (run it with /usr/bin/python3) and
HDF5_PLUGIN_PATH naming xqlab's build/hdf5-plugins (the zstd filter).

    /usr/bin/python3 scripts/analysis/dataset_frames.py run.h5      # prints a short summary
    from dataset_frames import load_frames; games, positions = load_frames("run.h5")
"""
import sys

import h5py
import numpy as np
import pandas as pd

TERMINATION_NAMES_V3 = ["ongoing", "checkmate", "stalemate", "move limit", "repetition", "perpetual check",
                        "perpetual chase", "resignation", "length cap", "general captured", "no pieces left",
                        "hit points lost"]


def _text(value):
    return value.decode("utf-8") if isinstance(value, bytes) else value


def _value(column):
    """An int16 value column as float: the missing marker -32768 becomes NaN *before* scaling
    (scaled, it would read as -1.00003)."""
    raw = column[...]
    scale = column.attrs["scale"]
    return np.where(raw == column.attrs["missing"], np.nan, raw * scale)


def load_frames(path):
    """Returns (games, positions). games: one row per game, with `termination` as a categorical of
    the termination names and `result` as 1 / 0 / -1 / -2 (none). positions: one row per position
    with `game` (row in games), the search values as floats (NaN = none) and the board as one
    string of piece letters per position. Offsets are int64, so `first + count - 1` stays an integer
    (HDF5's uint64 plus a Python int is a float in NumPy)."""
    with h5py.File(path, "r") as f:
        g, p = f["games"], f["positions"]
        games = pd.DataFrame({
            "index": g["index"][...].astype(np.int64),
            "seed": g["seed"][...],
            "result": g["result"][...],
            "plies": g["plies"][...],
            "start_fen": [_text(s) for s in g["start_fen"][...]],
            "first_position": g["first_position"][...].astype(np.int64),
            "position_count": g["position_count"][...].astype(np.int64),
            "first_move": g["first_move"][...].astype(np.int64),
            "move_count": g["move_count"][...].astype(np.int64),
            "wall_seconds": g["wall_seconds"][...],
        })
        codes = g["termination"][...]
        names = h5py.check_enum_dtype(g["termination"].dtype)  # format 5: an HDF5 enum
        by_code = {v: k for k, v in names.items()} if names else dict(enumerate(TERMINATION_NAMES_V3))
        games["termination"] = pd.Categorical([by_code.get(int(c), "unknown") for c in codes])

        letters = f.attrs.get("piece_letters")
        board = p["board"][...]
        positions = pd.DataFrame({
            "game": p["game"][...].astype(np.int64),
            "ply": p["ply"][...],
            "side": p["side"][...],
            "no_capture": p["no_capture"][...],
            "played": p["played"][...],
            "best": p["best"][...],
            "root_value": _value(p["root_value"]),
            "static_eval": _value(p["static_eval"]),
            "result": p["result"][...],
            "visits": p["visits"][...],
        })
        if letters is not None:  # format 5: board bytes -> letters without parsing the rule set
            table = np.frombuffer(letters, dtype="S1")
            positions["board"] = [b"".join(row).decode() for row in table[board]]
    return games, positions


def main(path):
    games, positions = load_frames(path)
    print(f"{path}: {len(games)} games, {len(positions)} positions")
    print(games.groupby("termination", observed=True).size().to_string())
    print(f"mean root value of searched positions: {positions['root_value'].mean():.4f}")
    print(f"positions without a search value: {int(positions['root_value'].isna().sum())}")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: dataset_frames.py FILE.h5")
    main(sys.argv[1])
