#!/usr/bin/env python3
"""Writes a synthetic raw start/end trace (the arcflow paper's Figure 2 format) to stdout.

usage: gen-trace.py EVENTS [THREADS]

The program it imitates is a transaction server in steady state: THREADS worker threads run a
request loop; each request calls one of 24 handlers, whose bodies are a fixed static call tree over
600 methods (each method calls 0-4 callees chosen from its id, depth <= 9), with a data-dependent
branch in each handler's last call so that its tree varies a little between requests. The metric is a per-thread CPU
time in nanoseconds that advances by a pseudo-random amount per event. Deterministic (fixed seeds).
"""
import random
import sys

def main():
    events = int(sys.argv[1])
    threads = int(sys.argv[2]) if len(sys.argv) > 2 else 4
    methods = [f"com/acme/bench/{pkg}/{cls}.{m}"
               for pkg in ("order", "stock", "pay", "ship", "db", "util")
               for cls in ("Service", "Repo", "Cache", "Codec", "Index")
               for m in ("get", "put", "scan", "apply", "check", "load", "emit", "merge",
                         "hash", "find", "sort", "copy", "read", "write", "open", "close",
                         "lock", "next", "size", "init")]
    rng = random.Random(42)
    out = sys.stdout
    write = out.write
    clock = [0] * threads
    emitted = 0

    def body(t, m, depth, variant):
        nonlocal emitted
        h = (m * 2654435761) & 0xFFFFFFFF
        n = 0 if depth >= 9 else (h >> 7) % 5
        for k in range(n):
            c = ((h + k * 40503 + (variant if depth == 1 and k == n - 1 else 0)) >> 3) % len(methods)
            clock[t] += rng.randrange(20, 400)
            write(f"{clock[t]} > {methods[c]}\n")
            body(t, c, depth + 1, variant)
            clock[t] += rng.randrange(20, 400)
            write(f"{clock[t]} < {methods[c]}\n")
            emitted += 2

    t = 0
    request = 0
    while emitted < events:
        # A thread switch every few requests, as a scheduler would.
        if request % 5 == 0:
            t = (t + 1) % threads
            write(f"{clock[t]} pidtid worker-{t}\n")
        handler = request % 24
        variant = rng.randrange(3) * 8
        name = f"com/acme/bench/Server.handle{handler}"
        clock[t] += rng.randrange(50, 500)
        write(f"{clock[t]} > {name}\n")
        body(t, handler * 25, 1, variant)
        clock[t] += rng.randrange(50, 500)
        write(f"{clock[t]} < {name}\n")
        emitted += 2
        request += 1

if __name__ == "__main__":
    main()
