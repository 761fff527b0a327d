#!/usr/bin/env python3
"""Host model of the GPU MSM's batch-affine bucket accumulation (msm_acc_ba_kern in
src/gpu/gpu_msm_impl.cuh), no GPU needed: the same streams, rounds, batch masks, flush rules
(acc_flush: inside / crossing the start / crossing the end, owner) and combine (every owner's
part[2c + 1] plus the heads of the chunks its bucket reaches), on BN254 G1 in Python integers.
Checks every bucket against the plain sum of its points over sorted pair lists with long runs of
one base and its negation (doublings, cancellations, restarts), infinity bases and uniform keys.
It checks the algorithm, not the CUDA code: tests/gpu/test_gpu_msm.c (batch_affine cases) does.

Usage: scripts/model_msm_batch_affine.py [SEED]   (exit 1 on a mismatch)
"""
import random
import sys

P = 21888242871839275222246405745257275088696311157297823662689037894645226208583
R = 21888242871839275222246405745257275088548364400416034343698204186575808495617
G = (1, 2)
INF = None


def add(a, b):
    """Complete affine addition on y^2 = x^3 + 3 (None: infinity)."""
    if a is INF:
        return b
    if b is INF:
        return a
    if a[0] == b[0]:
        if (a[1] + b[1]) % P == 0:
            return INF
        lam = 3 * a[0] * a[0] * pow(2 * a[1], P - 2, P) % P
    else:
        lam = (b[1] - a[1]) * pow(b[0] - a[0], P - 2, P) % P
    x3 = (lam * lam - a[0] - b[0]) % P
    return (x3, (lam * (a[0] - x3) - a[1]) % P)


def mul(k, p):
    r = INF
    while k:
        if k & 1:
            r = add(r, p)
        p = add(p, p)
        k >>= 1
    return r


def neg(p):
    return INF if p is INF else (p[0], (-p[1]) % P)


def model(keys, vals, pts, nb, K, T_res):
    """The kernel and the combine; returns the buckets (None: never written = infinity)."""
    nvalid = sum(1 for k in keys if k < nb)
    start = [sum(1 for k in keys if k < b) for b in range(nb + 1)]
    S = K * T_res
    ln = max(4, -(-nvalid // S))
    nchunks = -(-nvalid // ln)
    T = -(-nchunks // K)
    buckets = [INF] * nb
    part = {}
    owner = {}

    def flush(c, key, lo, hi, acc):
        sb, eb = start[key], start[key + 1]
        if sb < lo:
            part[2 * c] = acc
        elif eb > hi:
            part[2 * c + 1] = acc
            owner[c] = key
        else:
            buckets[key] = acc

    for t in range(T):
        ax, ay, pre = {}, {}, {}
        empty = (1 << K) - 1
        for r in range(ln + 1):
            inc = dbl = 0
            run = 0
            for j in range(K):
                c = j * T + t
                if c >= nchunks:
                    break
                lo = c * ln
                hi = min(lo + ln, nvalid)
                k = lo + r
                bit = 1 << j
                if k > hi:
                    continue
                if r > 0:
                    key = keys[k - 1]
                    if k == hi or keys[k] != key:
                        flush(c, key, lo, hi, INF if empty & bit else (ax[c], ay[c]))
                        empty |= bit
                if k == hi:
                    continue
                v = vals[k]
                p = pts[v & 0x7FFFFFFF]
                if p is INF:
                    continue
                x2, y2 = p[0], (-p[1]) % P if v >> 31 else p[1]
                if empty & bit:
                    ax[c], ay[c] = x2, y2
                    empty &= ~bit
                    continue
                d = (x2 - ax[c]) % P
                if d == 0:
                    if ay[c] != y2:
                        empty |= bit
                        continue
                    d = 2 * ay[c] % P
                    dbl |= bit
                run = run * d % P if inc else d
                pre[c] = run
                inc |= bit
            if inc == 0:
                continue
            assert run != 0
            inv = pow(run, P - 2, P)
            while inc:
                j = inc.bit_length() - 1
                inc &= ~(1 << j)
                c = j * T + t
                x1, y1 = ax[c], ay[c]
                if (dbl >> j) & 1:
                    x2, d, num = x1, 2 * y1 % P, 3 * x1 * x1 % P
                else:
                    v = vals[c * ln + r]
                    p = pts[v & 0x7FFFFFFF]
                    x2, y2 = p[0], (-p[1]) % P if v >> 31 else p[1]
                    d, num = (x2 - x1) % P, (y2 - y1) % P
                if inc:
                    jp = inc.bit_length() - 1
                    ij = inv * pre[jp * T + t] % P
                    inv = inv * d % P
                else:
                    ij = inv
                lam = num * ij % P
                x3 = (lam * lam - x1 - x2) % P
                ax[c], ay[c] = x3, (lam * (x1 - x3) - y1) % P
    for c, key in owner.items():
        acc = part[2 * c + 1]
        last = (start[key + 1] - 1) // ln
        for cc in range(c + 1, last + 1):
            acc = add(acc, part[2 * cc])
        buckets[key] = acc
    return buckets


def check(name, keys, vals, pts, nb, K, T_res):
    order = sorted(range(len(keys)), key=lambda i: keys[i])
    keys = [keys[i] for i in order]
    vals = [vals[i] for i in order]
    want = [INF] * nb
    for k, v in zip(keys, vals):
        if k < nb:
            p = pts[v & 0x7FFFFFFF]
            want[k] = add(want[k], neg(p) if v >> 31 else p)
    got = model(keys, vals, pts, nb, K, T_res)
    bad = sum(1 for a, b in zip(want, got) if a != b)
    print(f"{name}: K = {K}, {T_res} threads, {len(keys)} pairs, {nb} buckets: {bad} wrong")
    return bad == 0


def main():
    rnd = random.Random(int(sys.argv[1]) if len(sys.argv) > 1 else 1)
    base = [mul(rnd.randrange(1, R), G) for _ in range(64)]
    base[5] = INF
    ok = True
    for K, T_res in ((4, 3), (8, 2), (32, 2), (3, 7)):
        # uniform keys over few buckets, some sentinel pairs, random signs
        n = 600
        nb = 17
        keys = [rnd.randrange(nb + 1) for _ in range(n)]
        vals = [rnd.randrange(64) | (rnd.randrange(2) << 31) for _ in range(n)]
        ok &= check("uniform", keys, vals, base, nb, K, T_res)
        # one bucket holding every pair, one base and its negation: doublings, cancellations
        n = 500
        keys = [0] * n
        vals = [rnd.choice((0, 1, 5)) | (rnd.randrange(2) << 31) for _ in range(n)]
        ok &= check("one bucket, repeated", keys, vals, base, 1, K, T_res)
        # alternating P, P, -P, -P ... and runs of equal points across stream edges
        keys = [i // 50 for i in range(400)]
        vals = [2 | (((i // 2) & 1) << 31) for i in range(400)]
        ok &= check("runs of P and -P", keys, vals, base, 8, K, T_res)
        keys = [0] * 64
        vals = [3] * 64
        ok &= check("64 copies (powers of two)", keys, vals, base, 1, K, T_res)
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
