#!/usr/bin/python3
"""plot_analysis.py - PNG plots of the analysis commands (xqlab report / openings / compare /
ladder --plots DIR). Reads the command's JSON on stdin (every number, interval included, is
computed in C; this script never opens a dataset) and writes PNG files into DIR (xqlab gives it a
scratch folder and moves the files into place under its output rules, listing them).

usage: plot_analysis.py DIR [--size W H] [--dpi N] < command.json

The files are W x H pixels (default 1600 x 1000) at N dots per inch (default 150: the text
size). Exit 3 if matplotlib is missing. Needs Debian's /usr/bin/python3 with matplotlib
(python3-matplotlib)."""
import json
import textwrap
import os
import sys

try:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.ticker import FixedLocator, NullLocator, FuncFormatter
except ImportError:
    sys.stderr.write("plot_analysis.py: matplotlib is not installed "
                     "(Debian: apt-get install python3-matplotlib)\n")
    sys.exit(3)

FIRST, DRAW, SECOND = "#b03030", "#8c8c8c", "#303030"
SIDE_COLOURS = ("#3a6ea5", "#d08a2c")


class Canvas:
    """Figure size and resolution from the command line."""

    def __init__(self, width, height, dpi):
        self.width, self.height, self.dpi = width, height, dpi

    def figure(self, ncols=1, **kw):
        fig, axes = plt.subplots(1, ncols, figsize=(self.width / self.dpi, self.height / self.dpi),
                                 dpi=self.dpi, **kw)
        return fig, axes


def pct(x):
    return 100.0 * x


def err_bars(values, intervals):
    """Asymmetric error bars (in percent) from values and [lo, hi] intervals."""
    return [[pct(v - i[0]) for v, i in zip(values, intervals)], [pct(i[1] - v) for v, i in zip(values, intervals)]]


def labels(d):
    """The names of the two sides and the first mover's possessive: seats where the first reveal
    decides the colours (jieqi-folk, banqi, banqi-hp), else colours (the first mover plays red)."""
    if d.get("colours_assigned_in_game"):
        return "first mover", "second mover", "first mover's"
    return "red (first mover)", "black (second mover)", "red's"


def short(text):
    """Paths in a text shortened to their file names (legends and titles stay readable)."""
    return " ".join(os.path.basename(w) if "/" in w else w for w in text.split(" "))


def finish(fig, title):
    lines = title.count("\n") + 1
    fig.suptitle(title, fontsize="large")
    fig.tight_layout(rect=(0, 0, 1, 1 - 0.05 * lines))


def plot_report(d, canvas):
    out = []
    first, second, poss = labels(d)
    n = d["games"]
    known = d["red_wins"] + d["draws"] + d["black_wins"]

    # score.png: the outcome rates with their intervals; the first mover's score against 50%.
    fig, (a1, a2) = canvas.figure(2, gridspec_kw={"width_ratios": [3, 2]})
    names = ["%s wins" % first, "draws", "%s wins" % second]
    rates = [d["red_wins"] / known, d["draws"] / known, d["black_wins"] / known] if known else [0, 0, 0]
    ivs = [d["win_rate_ci95"], d["draw_rate_ci95"], d["loss_rate_ci95"]]
    a1.bar(names, [pct(r) for r in rates], color=[FIRST, DRAW, SECOND], yerr=err_bars(rates, ivs), capsize=8,
           ecolor="#000000")
    for i, r in enumerate(rates):
        a1.annotate("%.1f%%" % pct(r), (i, pct(r)), textcoords="offset points", xytext=(12, 4), fontsize="small")
    a1.set_ylabel("share of games (%), 95% interval")
    a1.set_ylim(0, 100)
    a1.set_title("Results of %d games" % known)
    pts = [("%s score" % poss, d["red_score"], d["red_score_ci95"], FIRST)]
    h = d.get("hidden")
    if h and d.get("colours_assigned_in_game"):
        pts.append(("red colour's score", h["by_colour"]["red_score"], h["by_colour"]["red_score_ci95"], "#d06060"))
    if h:
        if h["paired_deals"]["pairs"]:
            p = h["paired_deals"]
            pts.append(("%s score by pair" % poss, p["first_mover_score"], p["first_mover_score_ci95"], "#703030"))
    for i, (name, v, iv, colour) in enumerate(pts):
        a2.errorbar([i], [pct(v)], yerr=err_bars([v], [iv]), fmt="o", ms=9, capsize=10, color=colour,
                    label="%s %.1f%% (%.1f .. %.1f)" % (name, pct(v), pct(iv[0]), pct(iv[1])))
    a2.axhline(50, color="black", lw=1, ls="--", label="50%: no advantage")
    a2.set_xticks(range(len(pts)))
    a2.set_xticklabels(["\n".join(textwrap.wrap(p[0], 16)) for p in pts])
    a2.set_xlim(-0.6, len(pts) - 0.4)
    a2.set_ylabel("score (%), 95% interval")
    lo = min(min(pct(p[2][0]) for p in pts), 50) - 5
    hi = max(max(pct(p[2][1]) for p in pts), 50) + 5
    a2.set_ylim(max(0, lo), min(100, hi))
    a2.legend(fontsize="small", loc="lower right")
    a2.set_title("Score (a draw counts 1/2)")
    a2.text(0.02, 0.98, "these games detect an advantage\nof %.1f points or more (95%%)" % pct(d["resolution"]),
            transform=a2.transAxes, va="top", fontsize="small",
            bbox={"boxstyle": "round", "facecolor": "white", "alpha": 0.8})
    finish(fig, "%s: balance of %d games (%s)" % (d["variant"], n, ", ".join(os.path.basename(f) for f in d["files"])))
    out.append(("score.png", fig))

    # lengths.png: the length histogram stacked by outcome, the length cap marked.
    L = d["length"]
    hist = L["histogram"]
    fig, ax = canvas.figure()
    xs = [hist["lo"] + i * hist["width"] for i in range(len(hist["counts"]))]
    bottom = [0] * len(xs)
    parts = [("first_mover_wins", "%s wins" % first, FIRST), ("draws", "draws", DRAW),
             ("second_mover_wins", "%s wins" % second, SECOND), ("unknown", "no result", "#c0c0f0")]
    for key, name, colour in parts:
        counts = hist["by_outcome"].get(key, [])
        if not any(counts):
            continue
        ax.bar(xs, counts, width=hist["width"], bottom=bottom, align="edge", color=colour, edgecolor="white",
               lw=0.5, label="%s (%d)" % (name, sum(counts)))
        bottom = [b + c for b, c in zip(bottom, counts)]
    ax.axvline(L["median"], color="#2060c0", lw=1.5, ls="--", label="median %.0f plies" % L["median"])
    if L.get("cap"):
        ax.axvline(L["cap"], color="#c02020", lw=2, ls=":",
                   label="length cap %d plies (games stopped there are adjudicated draws)" % L["cap"])
    ax.set_xlabel("game length (plies; bins of %g)" % hist["width"])
    ax.set_ylabel("games")
    ax.set_ylim(0, max(bottom + [1]) * 1.35)
    ax.legend(loc="upper left")
    finish(fig, "%s: game length by outcome, %d games" % (d["variant"], n))
    out.append(("lengths.png", fig))

    # branching.png: mean legal moves by ply, with how many games reach the ply.
    b = d["branching"]["mean_legal_moves"]
    if b:
        fig, ax = canvas.figure()
        ax.plot(range(len(b)), b, color="#307030", lw=1.5, label="mean legal moves")
        ax.set_xlabel("ply")
        ax.set_ylabel("mean legal moves")
        ax2 = ax.twinx()
        ax2.fill_between(range(len(b)), d["branching"]["positions"], color="#a0a0a0", alpha=0.25, step="mid",
                         label="games reaching the ply")
        ax2.set_ylabel("games reaching the ply")
        ax2.grid(False)
        ax.set_zorder(ax2.get_zorder() + 1)
        ax.patch.set_visible(False)
        h1, l1 = ax.get_legend_handles_labels()
        h2, l2 = ax2.get_legend_handles_labels()
        ax.legend(h1 + h2, l1 + l2, loc="upper right")
        finish(fig, "%s: branching factor by ply" % d["variant"])
        out.append(("branching.png", fig))

    sm = d.get("special_moves", [])
    if sm:
        fig, ax = canvas.figure()
        names = [s["name"] for s in sm][::-1]
        ax.barh(names, [s["per_game"] for s in sm][::-1], color="#a07030", height=0.5,
                label="moves per game (both sides)")
        ax.set_ylim(-0.75, len(names) - 0.25)
        ax.set_xlabel("moves per game")
        ax.legend(loc="lower right")
        finish(fig, "%s: use of the rule-module moves, %d games" % (d["variant"], n))
        out.append(("special_moves.png", fig))
    return out


def plot_openings(d, canvas):
    moves = d["tree"]["children"][:15]
    if not moves:
        sys.stderr.write("plot: no first move with at least %d games: no openings.png\n" % d["min_games"])
        return []
    fig, (a1, a2) = canvas.figure(2, sharey=True)
    names = [m["move"] for m in moves][::-1]
    a1.barh(names, [pct(m["share"]) for m in moves][::-1], color="#4070a0", label="share of the games")
    a1.set_xlabel("share of games (%)")
    a1.legend(loc="lower center", bbox_to_anchor=(0.5, 1.0))
    scores = [m["score"] for m in moves][::-1]
    ivs = [m["score_ci95"] for m in moves][::-1]
    e = err_bars(scores, ivs)
    _, _, poss = labels(d)
    a2.errorbar([pct(s) for s in scores], names, xerr=e, fmt="o", color=FIRST, capsize=5, ms=6,
                label="%s score, 95%% interval" % poss)
    a2.axvline(50, color="black", lw=1, ls="--", label="50%")
    a2.set_xlim(0, 100)
    a2.set_xlabel("%s score after the move (%%)" % poss)
    a2.legend(loc="lower center", bbox_to_anchor=(0.5, 1.0), ncol=2)
    finish(fig, "%s: first moves (%d games; entropy %.2f bits)" % (d["variant"], d["games"],
                                                                    d["first_move_entropy_bits"]))
    return [("openings.png", fig)]


def plot_compare(d, canvas):
    a, b = d["a"], d["b"]
    _, _, poss = labels(d)
    metrics = [("%s score" % poss, "red_score", "red_score_ci95"), ("draw rate", "draw_rate", "draw_rate_ci95")]
    rows = [(m[0], [s[m[1]] for s in (a, b)], [s[m[2]] for s in (a, b)], d[m[1]]["p"]) for m in metrics]
    if "red_colour_score" in d:
        rows.append(("red colour's score", [s["hidden"]["by_colour"]["red_score"] for s in (a, b)],
                     [s["hidden"]["by_colour"]["red_score_ci95"] for s in (a, b)], d["red_colour_score"]["p"]))
    if "pair_score" in d:
        rows.append(("%s score by pair" % poss, [s["hidden"]["paired_deals"]["first_mover_score"] for s in (a, b)],
                     [s["hidden"]["paired_deals"]["first_mover_score_ci95"] for s in (a, b)], d["pair_score"]["p"]))
    fig, ax = canvas.figure()
    width = 0.36
    for k, (side, name) in enumerate(((a, "A"), (b, "B"))):
        xs = [i + (k - 0.5) * width for i in range(len(rows))]
        vals = [r[1][k] for r in rows]
        ivs = [r[2][k] for r in rows]
        ax.bar(xs, [pct(v) for v in vals], width=width * 0.95, color=SIDE_COLOURS[k], yerr=err_bars(vals, ivs),
               capsize=8, label="%s: %s, %d games (%s)" % (name, side["variant"], side["games"], short(side["source"])))
        for x, v in zip(xs, vals):
            ax.annotate("%.1f%%" % pct(v), (x, 0), textcoords="offset points", xytext=(0, 6), ha="center",
                        color="white", fontweight="bold")
    ax.set_xticks(range(len(rows)))
    ax.set_xticklabels(["%s\n(B - A: p = %.3g)" % (r[0], r[3]) for r in rows])
    ax.axhline(50, color="black", lw=1, ls="--")
    ax.set_ylabel("% (bars: 95% interval)")
    ax.set_ylim(0, 100)
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.12), fontsize="small")
    warn = " [WARNING: settings or evaluation differ]" if d.get("allowed_different_settings") and (
        d.get("settings_differ") or d.get("evaluation_differs")) else ""
    finish(fig, "\n".join(textwrap.wrap("A/B comparison: %s%s" % (d["verdict"], warn), 100)))
    return [("compare.png", fig)]


def plot_ladder(d, canvas):
    r = d["rungs"]
    _, _, poss = labels(d)
    x = [k["playouts"] for k in r]
    fig, ax = canvas.figure()
    s = [k["red_score"] for k in r]
    ax.errorbar(x, [pct(v) for v in s], yerr=err_bars(s, [k["red_score_ci95"] for k in r]), fmt="o-", color=FIRST,
                capsize=6, lw=2, ms=7, label="%s score, 95%% interval" % poss)
    dr = [k["draw_rate"] for k in r]
    ax.errorbar(x, [pct(v) for v in dr], yerr=err_bars(dr, [k["draw_rate_ci95"] for k in r]), fmt="s--",
                color=DRAW, capsize=6, lw=2, ms=7, label="draw rate, 95% interval")
    ax.axhline(50, color="black", lw=1, ls=":", label="50%")
    ax.set_xscale("log")
    # One labelled tick per budget, in plain numbers (a log axis alone labels only powers of 10).
    ax.xaxis.set_major_locator(FixedLocator(x))
    ax.xaxis.set_major_formatter(FuncFormatter(lambda v, _: "%g" % v))
    ax.xaxis.set_minor_locator(NullLocator())
    if len(x) > 1:
        ax.set_xlim(min(x) / 1.4, max(x) * 1.4)
    ax.set_xlabel("playouts per move (log scale)")
    ax.set_ylabel("% of games / score (%)")
    ax.set_ylim(0, 100)
    ax.legend(loc="upper right")
    finish(fig, "%s: balance by search budget, %d games per budget" % (d["variant"], r[0]["games"] if r else 0))
    return [("ladder.png", fig)]


def main(argv):
    args = argv[1:]
    if not args or args[0].startswith("-"):
        sys.stderr.write("usage: plot_analysis.py DIR [--size W H] [--dpi N] < analysis.json\n")
        return 2
    out_dir, width, height, dpi = args[0], 1600, 1000, 150
    i = 1
    while i < len(args):
        if args[i] == "--size" and i + 2 < len(args):
            width, height = int(args[i + 1]), int(args[i + 2])
            i += 3
        elif args[i] == "--dpi" and i + 1 < len(args):
            dpi = int(args[i + 1])
            i += 2
        else:
            sys.stderr.write("plot_analysis.py: unknown argument %r\n" % args[i])
            return 2
    d = json.load(sys.stdin)
    plotters = {"report": plot_report, "openings": plot_openings, "compare": plot_compare, "ladder": plot_ladder}
    if d.get("kind") not in plotters:
        sys.stderr.write("plot_analysis.py: unknown kind %r\n" % d.get("kind"))
        return 2
    plt.rcParams.update({"font.size": 11, "axes.grid": True, "grid.alpha": 0.3})
    for name, fig in plotters[d["kind"]](d, Canvas(width, height, dpi)):
        fig.savefig(os.path.join(out_dir, name), dpi=dpi)
        plt.close(fig)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
