"""What the benches that put Reprise beside wrk share: wrk's report read,
and the 95% interval of paired rounds' ratios."""

import math
import statistics

# Two-sided 95% Student t quantiles by degrees of freedom (then ~normal).
T95 = {1: 12.71, 2: 4.30, 3: 3.18, 4: 2.78, 5: 2.57, 6: 2.45, 7: 2.36, 8: 2.31, 9: 2.26,
       10: 2.23, 12: 2.18, 15: 2.13, 20: 2.09, 25: 2.06, 30: 2.04, 40: 2.02}


def t95(df):
    keys = sorted(k for k in T95 if k <= df)
    return T95[keys[-1]] if keys else T95[1]


def interval(ratios):
    """(geometric mean, low, high, half-width as a fraction) of `ratios`;
    one ratio has no interval (low = high = it, half-width 0)."""
    logs = [math.log(r) for r in ratios]
    mean = statistics.mean(logs)
    half = t95(len(logs) - 1) * statistics.stdev(logs) / math.sqrt(len(logs)) if len(logs) > 1 else 0.0
    return math.exp(mean), math.exp(mean - half), math.exp(mean + half), math.exp(half) - 1


def wrk_report(out):
    """(req/s, or None where wrk saw non-2xx answers or socket errors, as
    the harness reads it; its latency distribution in ms by percentile,
    "50%" to "99%", where it printed one with --latency)."""
    if "Non-2xx" in out or "Socket errors" in out:
        return None, {}
    rps = float(next(line.split()[1] for line in out.splitlines()
                     if line.startswith("Requests/sec:")))
    dist, on = {}, False
    for line in out.splitlines():
        if "Latency Distribution" in line:
            on = True
            continue
        words = line.split()
        if on and len(words) == 2 and words[0].endswith("%"):
            v = words[1]
            unit = v.lstrip("0123456789.")
            n = float(v[: len(v) - len(unit)])
            dist[words[0]] = n / 1000 if unit == "us" else n * 1000 if unit == "s" else n
        elif on:
            on = False
    return rps, dist
