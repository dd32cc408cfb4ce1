#!/usr/bin/python3
"""Game-length histogram of an xqlab dataset, saved as a PNG.

Needs Debian's /usr/bin/python3 with h5py, numpy and matplotlib (python3-h5py python3-numpy
python3-matplotlib) and HDF5_PLUGIN_PATH pointing at the folder of libxq_h5zstd.so, e.g.
    HDF5_PLUGIN_PATH=build/hdf5-plugins /usr/bin/python3 scripts/analysis/plot_lengths.py run.h5 lengths.png
"""
import sys

import h5py
import matplotlib
matplotlib.use("Agg")  # no display needed
import matplotlib.pyplot as plt
import numpy as np


def main(path, out):
    with h5py.File(path, "r") as f:
        plies = f["games/plies"][...]
        result = f["games/result"][...]
        variant = f.attrs["variant_name"]
    # Fixed-length strings (format 3) come back as bytes, the variable-length ones of older
    # files as str.
    if isinstance(variant, bytes):
        variant = variant.decode("utf-8")
    fig, ax = plt.subplots(figsize=(7, 4))
    bins = np.arange(0, plies.max() + 11, 10)
    for value, label in [(1, "red wins"), (0, "draw"), (-1, "black wins")]:
        ax.hist(plies[result == value], bins=bins, alpha=0.6, label=label)
    ax.set_xlabel("plies")
    ax.set_ylabel("games")
    ax.set_title(f"{variant}: {len(plies)} games, mean length {plies.mean():.1f} plies")
    ax.legend()
    fig.tight_layout()
    fig.savefig(out, dpi=100)
    print(f"wrote {out}")


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit("usage: plot_lengths.py FILE.h5 OUT.png")
    main(sys.argv[1], sys.argv[2])
