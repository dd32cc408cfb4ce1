#!/usr/bin/python3
"""plot_analysis.py - PNG plots of the analysis commands (xqlab report / openings / compare /
ladder --plots DIR). Reads the command's JSON on stdin (the numbers are computed in C; this script
never opens a dataset) and writes PNG files into DIR (xqlab gives it a scratch folder and moves
the files into place under its output rules, listing them). Exit 3 if matplotlib is missing."""
import json
import os
import sys

try:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
except ImportError:
    sys.stderr.write("plot_analysis.py: matplotlib is not installed "
                     "(Debian: apt-get install python3-matplotlib)\n")
    sys.exit(3)

SMALL = (5.0, 3.2)
DPI = 80


def save(fig, out_dir, name):
    path = os.path.join(out_dir, name)
    fig.tight_layout()
    fig.savefig(path, dpi=DPI)
    plt.close(fig)


def score_bar(ax, labels, scores, los, his, title):
    err = [[s - lo for s, lo in zip(scores, los)], [hi - s for s, hi in zip(scores, his)]]
    ax.bar(labels, [100 * s for s in scores], color="#b03030", alpha=0.8,
           yerr=[[100 * e for e in err[0]], [100 * e for e in err[1]]], capsize=4)
    ax.axhline(50, color="black", lw=0.8, ls="--")
    ax.set_ylabel("Red's score (%)")
    ax.set_title(title, fontsize=10)


def plot_report(d, out_dir):
    fig, ax = plt.subplots(figsize=(3.6, 3.2))
    n = d["games"]
    shares = [d["red_wins"] / n, d["draws"] / n, d["black_wins"] / n] if n else [0, 0, 0]
    ax.bar(["red wins", "draws", "black wins"], [100 * s for s in shares], color=["#b03030", "#888888", "#303030"])
    lo, hi = d["red_score_ci95"]
    ax.set_ylabel("% of games")
    ax.set_title("%s: Red's score %.1f%% (95%% CI %.1f-%.1f)" % (d["variant"], 100 * d["red_score"], 100 * lo, 100 * hi),
                 fontsize=9)
    save(fig, out_dir, "score.png")

    h = d["length"]["histogram"]
    fig, ax = plt.subplots(figsize=SMALL)
    xs = [h["lo"] + i * h["width"] for i in range(len(h["counts"]))]
    ax.bar(xs, h["counts"], width=h["width"], align="edge", color="#4070a0", edgecolor="white")
    ax.axvline(d["length"]["median"], color="black", lw=0.8, ls="--", label="median %.0f" % d["length"]["median"])
    ax.set_xlabel("game length (plies)")
    ax.set_ylabel("games")
    ax.legend(fontsize=8)
    ax.set_title("Game length, %d games" % n, fontsize=10)
    save(fig, out_dir, "lengths.png")

    b = d["branching"]["mean_legal_moves"]
    if b:
        fig, ax = plt.subplots(figsize=SMALL)
        ax.plot(range(len(b)), b, color="#307030", lw=1)
        ax.set_xlabel("ply")
        ax.set_ylabel("mean legal moves")
        ax.set_title("Branching factor by ply", fontsize=10)
        save(fig, out_dir, "branching.png")

    sm = d.get("special_moves", [])
    if sm:
        fig, ax = plt.subplots(figsize=SMALL)
        ax.barh([s["name"] for s in sm], [s["per_game"] for s in sm], color="#a07030")
        ax.set_xlabel("moves per game")
        ax.set_title("Special-rule utilisation", fontsize=10)
        save(fig, out_dir, "special_moves.png")


def plot_openings(d, out_dir):
    moves = d["tree"]["children"][:12]
    if not moves:
        sys.stderr.write("plot: no first move with at least %d games: no openings.png\n" % d["min_games"])
        return
    fig, (a1, a2) = plt.subplots(1, 2, figsize=(7.0, 3.4), sharey=True)
    labels = [m["move"] for m in moves][::-1]
    a1.barh(labels, [100 * m["share"] for m in moves][::-1], color="#4070a0")
    a1.set_xlabel("share of games (%)")
    scores = [100 * m["score"] for m in moves][::-1]
    lo = [100 * (m["score"] - m["score_ci95"][0]) for m in moves][::-1]
    hi = [100 * (m["score_ci95"][1] - m["score"]) for m in moves][::-1]
    a2.errorbar(scores, labels, xerr=[lo, hi], fmt="o", color="#b03030", capsize=3, ms=4)
    a2.axvline(50, color="black", lw=0.8, ls="--")
    a2.set_xlabel("Red's score (%), 95% CI")
    fig.suptitle("First moves (%s, entropy %.2f bits)" % (d["variant"], d["first_move_entropy_bits"]), fontsize=10)
    save(fig, out_dir, "openings.png")


def plot_compare(d, out_dir):
    fig, (a1, a2) = plt.subplots(1, 2, figsize=(6.0, 3.2))
    a, b = d["a"], d["b"]
    score_bar(a1, ["A", "B"], [a["red_score"], b["red_score"]], [a["red_score_ci95"][0], b["red_score_ci95"][0]],
              [a["red_score_ci95"][1], b["red_score_ci95"][1]], "Red's score, p = %.3g" % d["red_score"]["p"])
    rates = [a["draw_rate"], b["draw_rate"]]
    err = [[100 * (r - s["draw_rate_ci95"][0]) for r, s in zip(rates, (a, b))],
           [100 * (s["draw_rate_ci95"][1] - r) for r, s in zip(rates, (a, b))]]
    a2.bar(["A", "B"], [100 * r for r in rates], color="#888888", yerr=err, capsize=4)
    a2.set_ylabel("draw rate (%)")
    a2.set_title("Draw rate, p = %.3g" % d["draw_rate"]["p"], fontsize=10)
    save(fig, out_dir, "compare.png")


def plot_ladder(d, out_dir):
    r = d["rungs"]
    x = [k["playouts"] for k in r]
    fig, ax = plt.subplots(figsize=SMALL)
    s = [100 * k["red_score"] for k in r]
    ax.errorbar(x, s, yerr=[[100 * k["red_score"] - 100 * k["red_score_ci95"][0] for k in r],
                            [100 * k["red_score_ci95"][1] - 100 * k["red_score"] for k in r]],
                fmt="o-", color="#b03030", capsize=3, label="Red's score")
    ax.plot(x, [100 * k["draw_rate"] for k in r], "s--", color="#666666", label="draw rate")
    ax.axhline(50, color="black", lw=0.6, ls=":")
    ax.set_xscale("log")
    ax.set_xlabel("playouts per move")
    ax.set_ylabel("%")
    ax.legend(fontsize=8)
    ax.set_title("Balance by search budget (%s)" % d["variant"], fontsize=10)
    save(fig, out_dir, "ladder.png")


def main():
    if len(sys.argv) != 2:
        sys.stderr.write("usage: plot_analysis.py OUT_DIR < analysis.json\n")
        return 2
    d = json.load(sys.stdin)
    plotters = {"report": plot_report, "openings": plot_openings, "compare": plot_compare, "ladder": plot_ladder}
    if d.get("kind") not in plotters:
        sys.stderr.write("plot_analysis.py: unknown kind %r\n" % d.get("kind"))
        return 2
    plotters[d["kind"]](d, sys.argv[1])
    return 0


if __name__ == "__main__":
    sys.exit(main())
