#!/usr/bin/python3
"""Independent reference values for tests/test_interval.c (stats/interval.c).

The C code finds the restricted maximum-likelihood multinomial of a given mean through its
Lagrange multiplier and the Karush-Kuhn-Tucker conditions; this script does not: it maximises the
likelihood directly (trinomial: over the draw probability d, with w = mu - d/2, l = 1 - mu - d/2;
pentanomial: SLSQP over the five probabilities) and finds the interval's ends with brentq on
n (mean - mu)^2 = z^2 V(mu). Needs Debian's /usr/bin/python3 with numpy and scipy
(python3-numpy, python3-scipy). Prints the values the C test asserts.
"""
import numpy as np
from scipy.optimize import brentq, minimize, minimize_scalar
from scipy.stats import norm

Z = norm.ppf(0.975)
WDL = [0, 0.5, 1]
PAIRS = [0, 0.25, 0.5, 0.75, 1]


def xlogy(c, p):
    return 0.0 if c == 0 else c * np.log(max(p, 1e-300))


def var0_trinomial(c, mu):
    loss, draw, win = c
    dmax = min(2 * mu, 2 - 2 * mu)
    f = lambda d: -(xlogy(win, mu - d / 2) + xlogy(draw, d) + xlogy(loss, 1 - mu - d / 2))
    d = minimize_scalar(f, bounds=(0, dmax), method="bounded", options={"xatol": 1e-13}).x
    for end in (0.0, dmax):
        if f(end) < f(d):
            d = end
    w, l = mu - d / 2, 1 - mu - d / 2
    return w * (1 - mu) ** 2 + d * (0.5 - mu) ** 2 + l * mu ** 2


def var0_general(c, x, mu):
    c = np.asarray(c, float)
    x = np.asarray(x, float)
    k = len(c)
    nll = lambda p: -sum(xlogy(ci, pi) for ci, pi in zip(c, p))
    cons = [{"type": "eq", "fun": lambda p: p.sum() - 1}, {"type": "eq", "fun": lambda p: p @ x - mu}]
    best = None
    q = c / c.sum()
    for a in (0.01, 0.1, 0.3, 0.6):
        r = minimize(nll, (1 - a) * q + a / k, constraints=cons, bounds=[(0, 1)] * k, method="SLSQP",
                     options={"ftol": 1e-14, "maxiter": 2000})
        if abs(r.x.sum() - 1) < 1e-9 and abs(r.x @ x - mu) < 1e-9 and (best is None or r.fun < best.fun):
            best = r
    return float(best.x @ (x - mu) ** 2)


def interval(c, x, width):
    c = np.asarray(c, float)
    x = np.asarray(x, float)
    n = c.sum()
    m = (c @ x) / n
    var0 = (lambda mu: var0_trinomial(list(c), mu)) if len(c) == 3 else (lambda mu: var0_general(c, x, mu))
    f = lambda mu: n * (m - mu) ** 2 - Z * Z * var0(mu)
    lo = brentq(f, max(1e-7, m - width), m - 1e-9, xtol=1e-12) if m > 0 else 0.0
    hi = brentq(f, m + 1e-9, min(1 - 1e-7, m + width), xtol=1e-12) if m < 1 else 1.0
    return lo, hi


def mirrored_half(c, x, width, n):
    c = np.asarray(c, float)
    m = 0.5 * (c + c[::-1])
    lo, hi = interval(m / m.sum() * n, x, width)
    return 0.5 * (hi - lo)


def games_for(c, x, width, h):
    lo, hi = 1, 2
    while mirrored_half(c, x, width, hi) > h:
        lo, hi = hi, hi * 2
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if mirrored_half(c, x, width, mid) > h:
            lo = mid
        else:
            hi = mid
    return hi


if __name__ == "__main__":
    for c in ([64, 72, 64], [20, 160, 20], [20, 120, 60], [10, 160, 30], [0, 1, 1]):
        lo, hi = interval(c, WDL, 1.0)
        print("loss/draw/win %-15s [%.6f, %.6f] resolution %.6f, games for +-1 / +-2 points: %d / %d" % (
            c, lo, hi, mirrored_half(c, WDL, 1.0, sum(c)), games_for(c, WDL, 1.0, 0.01), games_for(c, WDL, 1.0, 0.02)))
    for c in ([5, 10, 30, 40, 15], [10, 20, 40, 20, 10]):
        lo, hi = interval(c, PAIRS, 0.3)
        print("pairs 0..2 points %-18s [%.6f, %.6f] resolution %.6f" % (c, lo, hi, mirrored_half(c, PAIRS, 0.3, sum(c))))
