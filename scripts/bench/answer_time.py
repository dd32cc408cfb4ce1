#!/usr/bin/env python3
"""answer_time.py - how long `xqlab engine` takes to answer a fixed-time search, through a pipe.

usage: scripts/bench/answer_time.py [XQLAB] [--movetime MS ...] [--repeat N]

For each move time (default 50, 100 and 200 ms) the engine is sent `go movetime MS` N times
(default 15) from positions of a short opening line, and the wall time from writing `go` to
reading `bestmove` is measured. Prints the median and the maximum per move time, and the
median's share of the move time. Any python3 will do (no h5py or numpy).
"""
import argparse
import statistics
import subprocess
import sys
import time

LINE = "h2e2 h9g7 h0g2 i9h9 i0h0 b9c7 b2b6 c6c5 b0c2 h7h3 g3g4 b7b3".split()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("xqlab", nargs="?", default="build/cli/xqlab")
    ap.add_argument("--movetime", type=int, nargs="+", default=[50, 100, 200])
    ap.add_argument("--repeat", type=int, default=15)
    a = ap.parse_args()
    e = subprocess.Popen([a.xqlab, "engine"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         text=True, bufsize=1)

    def send(line):
        e.stdin.write(line + "\n")
        e.stdin.flush()

    def wait_for(prefix):
        while True:
            line = e.stdout.readline()
            if not line:
                sys.exit("the engine ended before answering")
            if line.startswith(prefix):
                return line

    send("uci")
    wait_for("uciok")
    print("%8s %8s %8s %8s" % ("movetime", "median", "max", "share"))
    for ms in a.movetime:
        times = []
        for i in range(a.repeat):
            send("position startpos moves " + " ".join(LINE[:i % len(LINE)]))
            send("isready")
            wait_for("readyok")
            t = time.monotonic()
            send("go movetime %d" % ms)
            wait_for("bestmove")
            times.append(1000.0 * (time.monotonic() - t))
        med = statistics.median(times)
        print("%8d %8.1f %8.1f %7.0f%%" % (ms, med, max(times), 100.0 * med / ms))
    send("quit")
    e.wait()


if __name__ == "__main__":
    main()
