#!/usr/bin/python3
"""Reads an xqlab dataset with h5py (needs HDF5_PLUGIN_PATH pointing at the zstd plugin) and checks
its layout and invariants; exits non-zero on any problem. Usage: check_dataset.py FILE.h5"""
import sys

import h5py
import numpy as np

GAMES = ["index", "seed", "result", "termination", "plies", "start_fen", "first_position",
         "position_count", "first_policy", "policy_count", "first_move", "move_count",
         "wall_seconds", "resign_disabled"]
POSITIONS = ["board", "side", "ply", "no_capture", "game", "played", "best", "root_value",
             "static_eval", "result", "visits", "first_policy", "policy_count"]


def text(value):
    """A string attribute as str: format 3 stores fixed-length strings, which h5py returns as bytes;
    formats 1 and 2 stored variable-length ones (str)."""
    return value.decode("utf-8") if isinstance(value, bytes) else value


def check_tiles(first, count, total, what):
    ends = first.astype(np.int64) + count.astype(np.int64)
    assert len(first) == 0 or first[0] == 0, f"{what}: first row is {first[0]}"
    assert np.array_equal(first[1:], ends[:-1]), f"{what}: ranges do not follow each other"
    assert (ends[-1] if len(ends) else 0) == total, f"{what}: ranges end at {ends[-1]}, dataset has {total}"


def main(path):
    with h5py.File(path, "r") as f:
        version = int(f.attrs["format_version"])
        assert version in (1, 2, 3, 4, 5), "format_version"
        for name in ["program_version", "variant_name", "variant_text", "params_text", "weights_text",
                     "command_line", "host", "created_utc", "closed_utc"]:
            assert isinstance(text(f.attrs[name]), str), f"attribute {name} is not a string"
            if version >= 3:
                assert not f.attrs.get_id(name).get_type().is_variable_str(), \
                    f"attribute {name} is a variable-length string in a format-3 file"
        npoints = int(f.attrs["npoints"])
        assert text(f.attrs["variant_name"]) in text(f.attrs["variant_text"]), \
            "variant text does not name the variant"

        # Reading every column decodes every chunk through the zstd plugin.
        g = {k: f["games/" + k][...] for k in GAMES}
        p = {k: f["positions/" + k][...] for k in POSITIONS}
        moves = f["games/moves"][...]
        pmove = f["policy/move"][...]
        pvisits = f["policy/visits"][...]
        for d in [f["positions/board"], f["policy/move"]]:
            plist = d.id.get_create_plist()
            filters = [plist.get_filter(i)[0] for i in range(plist.get_nfilters())]
            assert 32015 in filters, f"{d.name} is not zstd-compressed (filters {filters})"

        ngames, npos, npol = len(g["index"]), len(p["side"]), len(pmove)
        assert ngames > 0 and npos > 0 and npol > 0, "empty file"
        assert all(len(v) == ngames for v in g.values()), "games columns differ in length"
        assert all(len(v) == npos for v in p.values()), "positions columns differ in length"
        assert len(pvisits) == npol, "policy columns differ in length"
        assert p["board"].shape == (npos, npoints), "board shape"
        check_tiles(g["first_position"], g["position_count"], npos, "games positions")
        check_tiles(g["first_policy"], g["policy_count"], npol, "games policy")
        check_tiles(g["first_move"], g["move_count"], len(moves), "games moves")
        check_tiles(p["first_policy"], p["policy_count"], npol, "positions policy")
        assert np.all(np.diff(g["index"].astype(np.int64)) > 0), "game indices do not increase"

        # Every position belongs to its game and its played move is the game's move at that ply.
        game_of = np.repeat(np.arange(ngames), g["position_count"])
        assert np.array_equal(p["game"], game_of), "positions/game disagrees with games ranges"
        ply_in_game = p["ply"].astype(np.int64)
        assert np.array_equal(p["played"], moves[g["first_move"][game_of].astype(np.int64) + ply_in_game]), "played moves"

        codes = p["board"]
        kind = codes & 15
        assert np.all((codes == 0) | ((kind >= 1) & ((codes >> 5) == 0))), "bad piece codes"
        assert set(np.unique(p["side"])) <= {0, 1}, "side"
        assert set(np.unique(g["result"])) <= {-2, -1, 0, 1}, "game result"
        sign = np.where(p["side"] == 0, 1, -1)
        want = np.where(g["result"][game_of] == -2, -2, g["result"][game_of] * sign)
        assert np.array_equal(p["result"], want), "positions/result is not the result from the side to move"
        scale = f["positions/root_value"].attrs["scale"]
        value = p["root_value"].astype(np.float64) * scale
        assert np.all(np.abs(value[p["root_value"] != -32768]) <= 1.0), "root value out of range"
        per_position = np.add.reduceat(pvisits.astype(np.int64), p["first_policy"].astype(np.int64)) \
            if npol else np.zeros(0)
        has = p["policy_count"] > 0
        assert np.all(per_position[has] <= p["visits"][has]), "child visits exceed root visits"
        assert all(len(s) > 0 for s in g["start_fen"]), "empty start FEN"
        if version >= 2:
            # Hidden-piece columns: module state per position, deal / swap / seat colour per game.
            assert f["positions/module"].shape == (npos, 32), "positions/module shape"
            assert f["games/deal"].shape == (ngames, npoints), "games/deal shape"
            assert len(f["games/deal_swapped"]) == ngames, "games/deal_swapped length"
            assert set(np.unique(f["games/seat_colour"][...])) <= {-1, 0, 1}, "games/seat_colour"
        if version >= 5:
            # The termination column is an HDF5 enum of the termination names; piece_letters maps
            # every board byte to its letter ('.' empty, '?' unused).
            names = h5py.check_enum_dtype(f["games/termination"].dtype)
            assert names is not None, "games/termination is not an enum"
            assert names["checkmate"] == 1 and names["ongoing"] == 0, f"termination names {names}"
            assert set(np.unique(g["termination"])) <= set(names.values()), "termination outside the enum"
            letters = np.frombuffer(f.attrs["piece_letters"], dtype="S1")
            assert len(letters) == 32 and letters[0] == b".", "piece_letters"
            assert b"?" not in set(letters[np.unique(codes)]), "a board byte without a piece letter"
    print(f"{path}: ok ({ngames} games, {npos} positions, {npol} policy rows)")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: check_dataset.py FILE.h5")
    main(sys.argv[1])
