#!/usr/bin/python3
"""teacher_agreement.py - how much of a teacher's values other values of the same positions explain.

usage: teacher_agreement.py TEACHER.h5 OTHER.h5[:COLUMN]...

TEACHER.h5 is a dataset labelled by `xqlab label` (its root values are the teacher's); each OTHER
is a dataset of the same games (the input of the labelling, or another labelling of it), read at
COLUMN (root_value, the default, or static_eval). For the positions the teacher labelled and the
other file has a value of, it prints the cross-entropy of the teacher's targets t = (v + 1) / 2
under the other values taken as predictions p = sigmoid(2 a atanh(u)), with the one scale a that
fits best (engines count centipawns differently), next to two references: the floor (the mean
entropy of the targets: a perfect prediction) and a constant 1/2. "explained" is the share of the
constant's excess loss that the prediction removes.

Needs Debian's /usr/bin/python3 with h5py and numpy (python3-h5py, python3-numpy) and, for files
compressed with zstd, HDF5_PLUGIN_PATH pointing at the build's hdf5-plugins folder.
Exit status: 0, 1 for unreadable or mismatched files, 2 for bad usage.
"""
import sys

try:
    import h5py
    import numpy as np
except ImportError as exc:  # pragma: no cover - depends on the machine
    sys.stderr.write("teacher_agreement.py: needs h5py and numpy (Debian: python3-h5py python3-numpy, "
                     "run with /usr/bin/python3): %s\n" % exc)
    sys.exit(1)

ME = "teacher_agreement.py"


def read_values(path, column):
    try:
        with h5py.File(path, "r") as f:
            d = f["/positions/" + column]
            raw = d[...].astype(np.int64)
            missing = int(d.attrs["missing"])
            scale = float(d.attrs["scale"])
            boards = f["/positions/board"].shape[0]
    except (OSError, KeyError) as exc:
        sys.stderr.write("%s: %s: cannot read /positions/%s: %s\n" % (ME, path, column, exc))
        sys.exit(1)
    v = np.where(raw == missing, np.nan, raw * scale)
    return v, boards


def entropy(t):
    t = np.clip(t, 1e-12, 1 - 1e-12)
    return float(np.mean(-(t * np.log(t) + (1 - t) * np.log(1 - t))))


def cross_entropy(t, x, a):
    p = 1.0 / (1.0 + np.exp(-2.0 * a * x))
    p = np.clip(p, 1e-12, 1 - 1e-12)
    return float(np.mean(-(t * np.log(p) + (1 - t) * np.log(1 - p))))


def best_scale(t, x):
    """The a minimising the cross-entropy (convex in a): golden-section search on [0.01, 20]."""
    lo, hi = 0.01, 20.0
    g = (5 ** 0.5 - 1) / 2
    c, d = hi - g * (hi - lo), lo + g * (hi - lo)
    for _ in range(80):
        if cross_entropy(t, x, c) < cross_entropy(t, x, d):
            hi = d
        else:
            lo = c
        c, d = hi - g * (hi - lo), lo + g * (hi - lo)
    a = (lo + hi) / 2
    return a, cross_entropy(t, x, a)


def main(argv):
    if len(argv) < 3 or argv[1] in ("-h", "--help"):
        sys.stdout.write(__doc__)
        return 0 if len(argv) >= 2 and argv[1] in ("-h", "--help") else 2
    teacher, rows = read_values(argv[1], "root_value")
    for spec in argv[2:]:
        path, _, column = spec.partition(":")
        column = column or "root_value"
        if column not in ("root_value", "static_eval"):
            sys.stderr.write("%s: %s: column must be root_value or static_eval, not '%s'\n" % (ME, spec, column))
            return 2
        other, other_rows = read_values(path, column)
        if other_rows != rows:
            sys.stderr.write("%s: %s has %d positions, %s %d: not the same games\n"
                             % (ME, path, other_rows, argv[1], rows))
            return 1
        keep = ~np.isnan(teacher) & ~np.isnan(other)
        if not keep.any():
            sys.stderr.write("%s: %s: no position has both values\n" % (ME, spec))
            return 1
        t = (teacher[keep] + 1) / 2
        x = np.arctanh(np.clip(other[keep], -0.999999, 0.999999))
        floor, const = entropy(t), cross_entropy(t, x, 0.0)
        a, loss = best_scale(t, x)
        explained = (const - loss) / (const - floor) if const > floor else float("nan")
        print("%s: %d positions  floor %.6f  constant %.6f  loss %.6f (scale %.3f)  explained %.1f%%"
              % (spec, int(keep.sum()), floor, const, loss, a, 100 * explained))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
