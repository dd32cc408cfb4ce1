#!/usr/bin/python3
"""Compares two xqlab datasets for identical game content: every dataset of /games, /positions and
/policy must be equal, except per-game wall times; root attributes must agree except the ones that
describe the run rather than the games (times, host, command line). Exits 1 on a difference.
Needs Debian's h5py (/usr/bin/python3) and HDF5_PLUGIN_PATH pointing at the zstd plugin.
Usage: compare_datasets.py A.h5 B.h5"""
import sys

import h5py
import numpy as np

RUN_ATTRIBUTES = {"created_utc", "closed_utc", "resumed_utc", "host", "command_line"}
RUN_COLUMNS = {"games/wall_seconds"}


def text(value):
    """Strings compare as str: h5py returns format 3's fixed-length strings as bytes and the
    variable-length strings of formats 1 and 2 as str."""
    return value.decode("utf-8") if isinstance(value, bytes) else value


def columns(f):
    names = []
    f.visititems(lambda name, obj: names.append(name) if isinstance(obj, h5py.Dataset) else None)
    return sorted(names)


def main(a_path, b_path):
    with h5py.File(a_path, "r") as a, h5py.File(b_path, "r") as b:
        for key in sorted(set(a.attrs) | set(b.attrs)):
            if key in RUN_ATTRIBUTES:
                continue
            if key not in a.attrs or key not in b.attrs:
                sys.exit(f"attribute {key} is in only one file")
            if not np.array_equal(np.asarray(text(a.attrs[key])), np.asarray(text(b.attrs[key]))):
                sys.exit(f"attribute {key} differs")
        ca, cb = columns(a), columns(b)
        if ca != cb:
            sys.exit(f"different datasets: {sorted(set(ca) ^ set(cb))}")
        for name in ca:
            if name in RUN_COLUMNS:
                if a[name].shape != b[name].shape:
                    sys.exit(f"{name}: shapes differ")
                continue
            x, y = a[name][...], b[name][...]
            if x.shape != y.shape or not np.array_equal(x, y):
                sys.exit(f"{name} differs ({x.shape} vs {y.shape})")
        print(f"identical: {len(ca)} datasets, {a['games/index'].shape[0]} games")


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2])
