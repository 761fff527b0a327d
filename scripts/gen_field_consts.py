#!/usr/bin/env python3
"""Generates src/field/field_consts.h: every constant the field, tower and curve code needs.

Run from the repository root: python3 scripts/gen_field_consts.py
It writes src/field/field_consts.h and formats it with clang-format (the format check covers it).
The output is committed; tests/field/test_consts.c checks it independently with GMP.

Conventions (the same as ffjavascript/snarkjs, bellman and @noble/curves):
  Fp2  = Fp[u]/(u^2 + 1)
  Fp6  = Fp2[v]/(v^3 - xi),  xi = 9 + u (BN254), 1 + u (BLS12-381)
  Fp12 = Fp6[w]/(w^2 - v)
Montgomery form with R = 2^(64*N); 64-bit limbs, least significant first.
Roots of unity as ffjavascript picks them: nqr = the smallest quadratic non-residue counting up
from 2, w[s] = nqr^((r-1) >> s) with s the two-adicity of r-1; w[k] = w[k+1]^2.
"""

import os
import subprocess

FIELDS = {
    "bn254_fp": 0x30644E72E131A029B85045B68181585D97816A916871CA8D3C208C16D87CFD47,
    "bn254_fr": 0x30644E72E131A029B85045B68181585D2833E84879B9709143E1F593F0000001,
    "bls12381_fp": 0x1A0111EA397FE69A4B1BA7B6434BACD764774B84F38512BF6730D2A0F6B0F6241EABFFFEB153FFFFB9FEFFFFFFFFAAAB,
    "bls12381_fr": 0x73EDA753299D7D483339D80809A1D80553BDA402FFFE5BFEFFFFFFFF00000001,
}

CURVES = {
    "bn254": {
        "xi": (9, 1),
        "b": 3,
        "g1": (1, 2),
        "g2": (
            (10857046999023057135944570762232829481370756359578518086990519993285655852781,
             11559732032986387107991004021392285783925812861821192530917403151452391805634),
            (8495653923123431417604973247489272438418190587263600148770280649306958101930,
             4082367875863433681332203403145435568316851327593401208105741076214120093531),
        ),
        "twist": "d",  # b' = b / xi
    },
    "bls12381": {
        "xi": (1, 1),
        "b": 4,
        "g1": (
            0x17F1D3A73197D7942695638C4FA9AC0FC3688C4F9774B905A14E3A3F171BAC586C55E83FF97A1AEFFB3AF00ADB22C6BB,
            0x08B3F481E3AAA0F1A09E30ED741D8AE4FCF5E095D5D00AF600DB18CB2C04B3EDD03CC744A2888AE40CAA232946C5E7E1,
        ),
        "g2": (
            (0x024AA2B2F08F0A91260805272DC51051C6E47AD4FA403B02B4510B647AE3D1770BAC0326A805BBEFD48056C8C121BDB8,
             0x13E02B6052719F607DACD3A088274F65596BD0D09920B61AB5DA61BBDC7F5049334CF11213945D57E5AC7D055D042B7E),
            (0x0CE5D527727D6E118CC9CDC6DA2E351AADFD9BAA8CBDD3A76D429A695160D12C923AC9CC3BACA289E193548608B82801,
             0x0606C4A02EA734CC32ACD2B02BC28B99CB3E287E85A763AF267492AB572E99AB3F370D275CEC1DA1AAA9075FF05F79BE),
        ),
        "twist": "m",  # b' = b * xi
    },
}


def nlimbs(p):
    return (p.bit_length() + 63) // 64


def limbs(x, n):
    return [(x >> (64 * i)) & (2**64 - 1) for i in range(n)]


def arr(x, n):
    return "{" + ", ".join("0x%016xULL" % v for v in limbs(x, n)) + "}"


def legendre(a, p):
    return pow(a, (p - 1) // 2, p)


# Fp2 arithmetic over plain integers, u^2 = -1.
def f2mul(a, b, p):
    return ((a[0] * b[0] - a[1] * b[1]) % p, (a[0] * b[1] + a[1] * b[0]) % p)


def f2pow(a, e, p):
    r = (1, 0)
    while e:
        if e & 1:
            r = f2mul(r, a, p)
        a = f2mul(a, a, p)
        e >>= 1
    return r


def f2inv(a, p):
    n = (a[0] * a[0] + a[1] * a[1]) % p
    ni = pow(n, p - 2, p)
    return (a[0] * ni % p, (-a[1]) * ni % p)


BN254_U = 4965661367192848881
BLS12381_X = -0xD201000000010000


def naf(e):
    """Non-adjacent form of e > 0, least significant digit first."""
    d = []
    while e:
        if e & 1:
            z = 2 - (e & 3)
            e -= z
        else:
            z = 0
        d.append(z)
        e >>= 1
    return d


def noble_final_exp_multiples():
    """The hard parts of @noble/curves 2.x (and of cuzk, which follows the same addition chains)
    raise the cyclotomic element to c*(p^4 - p^2 + 1)/r, not to (p^4 - p^2 + 1)/r: c = 3 for
    BLS12-381 (Hayashida-Hayasaka-Teruya), c = 2u(6u^2 + 3u + 1) for BN254 (Fuentes-Castaneda et
    al.). Replays both chains on exponents (frobenius k: *p^k, conjugate: negate) and asserts it,
    so pairing values equal noble's but are fixed powers of the reduced Tate-based ate pairing."""
    u = BN254_U
    p = FIELDS["bn254_fp"]
    r = FIELDS["bn254_fr"]
    ph = p**4 - p**2 + 1
    pmx = lambda e: -e * u  # conj(f^u)
    f = 1
    y1 = 2 * pmx(f)
    y2 = 2 * y1 + y1
    y4 = pmx(y2)
    y6 = pmx(2 * y4)
    y8 = -y6 + y4 - y2
    y9 = y8 + y1
    e = (-f + y9) * p**3 + y8 * p**2 + y9 * p + y8 + y4 + f
    c_bn = 2 * u * (6 * u * u + 3 * u + 1)
    assert (e - c_bn * (ph // r)) % ph == 0
    x = -BLS12381_X
    p = FIELDS["bls12381_fp"]
    r = FIELDS["bls12381_fr"]
    ph = p**4 - p**2 + 1
    pmx = lambda e: -e * x
    t1 = 1
    t2 = pmx(t1)
    t3 = -2 * t1 + t2
    t4 = pmx(t3)
    t5 = pmx(t4)
    t6 = pmx(t5) + 2 * t2
    t7 = pmx(t6)
    e = (t2 + t5) * p**2 + (t4 + t1) * p**3 + (t6 - t1) * p + t7 - t3 + t1
    assert (e - 3 * (ph // r)) % ph == 0
    return c_bn


def pairing_consts(w):
    c_bn = noble_final_exp_multiples()
    d = naf(6 * BN254_U + 2)
    w("/* Pairing: BN254 u, the NAF of 6u + 2 (most significant digit first) for the optimal ate")
    w(" * Miller loop, and |x| of BLS12-381 (x < 0). Final exponentiations are those of")
    w(" * @noble/curves: e^c with c = 3 (BLS12-381), c = 2u(6u^2 + 3u + 1) = %d (BN254). */" % c_bn)
    w("#define BN254_U 0x%016xULL" % BN254_U)
    w("#define BN254_ATE_LOOP_LEN %d" % len(d))
    w("static const int8_t BN254_ATE_LOOP[%d] = {%s};" % (len(d), ", ".join(str(v) for v in reversed(d))))
    w("#define BLS12381_X_ABS 0x%016xULL" % -BLS12381_X)
    bits = [int(b) for b in bin(-BLS12381_X)[2:]]
    w("#define BLS12381_ATE_LOOP_LEN %d" % len(bits))
    w("static const int8_t BLS12381_ATE_LOOP[%d] = {%s}; /* |x|, most significant bit first */"
      % (len(bits), ", ".join(str(b) for b in bits)))
    w("")


def ec_add(P, Q, p, mul, inv, add, sub):
    """Affine addition on y^2 = x^3 + b over a field given by its operations (None = infinity)."""
    if P is None:
        return Q
    if Q is None:
        return P
    (x1, y1), (x2, y2) = P, Q
    if x1 == x2:
        if y1 != y2 or y1 == sub(y1, y1):  # P = -Q (or a point of order 2)
            return None
        three_x2 = mul(x1, x1)
        three_x2 = add(add(three_x2, three_x2), three_x2)
        lam = mul(three_x2, inv(add(y1, y1)))
    else:
        lam = mul(sub(y2, y1), inv(sub(x2, x1)))
    x3 = sub(sub(mul(lam, lam), x1), x2)
    return (x3, sub(mul(lam, sub(x1, x3)), y1))


def ec_mul(P, k, p, ops):
    R = None
    while k:
        if k & 1:
            R = ec_add(R, P, p, *ops)
        P = ec_add(P, P, p, *ops)
        k >>= 1
    return R


def endo_consts(w):
    """BLS12-381's endomorphisms for the fast subgroup checks of src/curve/ec_impl.h (eprint
    2021/1130, corrected proofs in 2022/352): on G1, sigma(x, y) = (beta x, y) is multiplication by
    -x^2 for one of the two primitive cube roots of unity beta of Fp, the one picked here by
    trying it on the generator; on G2, psi(x, y) = (conj(x) / xi^((p-1)/3), conj(y) / xi^((p-1)/2))
    is multiplication by x, also checked on the generator."""
    p = FIELDS["bls12381_fp"]
    n = nlimbs(p)
    R = 2 ** (64 * n)
    mont = lambda a: a * R % p
    c = CURVES["bls12381"]
    x = BLS12381_X
    fp_ops = (lambda a, b: a * b % p, lambda a: pow(a, p - 2, p), lambda a, b: (a + b) % p,
              lambda a, b: (a - b) % p)
    g1 = c["g1"]
    target = ec_mul(g1, x * x, p, fp_ops)
    target = (target[0], (-target[1]) % p)
    s3 = pow(p - 3, (p + 1) // 4, p)
    assert s3 * s3 % p == p - 3
    betas = [(-1 + s3) * pow(2, p - 2, p) % p, (-1 - s3) * pow(2, p - 2, p) % p]
    beta = [b for b in betas if (b * g1[0] % p, g1[1]) == target]
    assert len(beta) == 1 and pow(beta[0], 3, p) == 1 and beta[0] != 1
    f2_ops = (lambda a, b: f2mul(a, b, p), lambda a: f2inv(a, p),
              lambda a, b: ((a[0] + b[0]) % p, (a[1] + b[1]) % p),
              lambda a, b: ((a[0] - b[0]) % p, (a[1] - b[1]) % p))
    xi = c["xi"]
    psi_x = f2inv(f2pow(xi, (p - 1) // 3, p), p)
    psi_y = f2inv(f2pow(xi, (p - 1) // 2, p), p)
    gx, gy = c["g2"]
    conj = lambda a: (a[0], (-a[1]) % p)
    image = (f2mul(conj(gx), psi_x, p), f2mul(conj(gy), psi_y, p))
    zg = ec_mul(c["g2"], -x, p, f2_ops)
    assert image == (zg[0], ((-zg[1][0]) % p, (-zg[1][1]) % p)), "psi(G2) != [x]G2"
    mf2 = lambda a: "{%s, %s}" % (arr(mont(a[0]), n), arr(mont(a[1]), n))
    w("/* BLS12-381 endomorphisms for the subgroup checks (Montgomery form; x < 0 the curve's")
    w(" * parameter): sigma(x, y) = (BETA x, y) is [-x^2] on G1; psi(x, y) = (conj(x) PSI_X,")
    w(" * conj(y) PSI_Y), PSI_X = 1/xi^((p-1)/3), PSI_Y = 1/xi^((p-1)/2), is [x] on G2. */")
    w("static const uint64_t BLS12381_BETA[%d] = %s;" % (n, arr(mont(beta[0]), n)))
    w("static const uint64_t BLS12381_PSI_X[2][%d] = %s;" % (n, mf2(psi_x)))
    w("static const uint64_t BLS12381_PSI_Y[2][%d] = %s;" % (n, mf2(psi_y)))
    w("")


def ifma_consts(w):
    """The radix-2^52 constants of src/field/fp8_impl.h (BLS12-381 Fp, eight lanes of AVX-512
    IFMA): p in 8 limbs of 52 bits, n0 = -p^-1 mod 2^52, and for src/curve/g1_decode8.c, where
    mont'(a, b) = a b / R' mod p with R' = 2^416 and the stored form is x R, R = 2^384:
    TO_MONT = R R' (mont'(x, TO_MONT) = x R), RESCALE = R'^2 / R (mont'(x^3 R^3 / R'^2, RESCALE)
    = x^3 R^2 / R', the scale of mont'(y R, y R)) and B_SCALED = 4 R^2 / R'. The scheme is run on
    the G1 generator here before the constants are written."""
    p = FIELDS["bls12381_fp"]
    R, R1 = 2**384, 2**416
    l52 = lambda x: "{" + ", ".join("0x%013xULL" % ((x >> (52 * i)) & (2**52 - 1)) for i in range(8)) + "}"
    inv_r1 = pow(R1, -1, p)
    mont1 = lambda a, b: a * b * inv_r1 % p
    to_mont, rescale, b_scaled = R * R1 % p, R1 * R1 * pow(R, -1, p) % p, 4 * R * R * inv_r1 % p
    gx, gy = CURVES["bls12381"]["g1"]
    X, Y = mont1(gx, to_mont), mont1(gy, to_mont)
    assert X == gx * R % p and Y == gy * R % p
    lhs = mont1(Y, Y)
    rhs = (mont1(mont1(mont1(X, X), X), rescale) + b_scaled) % p
    assert lhs == rhs
    n0 = (-pow(p, -1, 2**52)) % 2**52
    w("/* BLS12-381 Fp in radix 2^52 (src/field/fp8_impl.h, src/curve/g1_decode8.c): 8 limbs, least")
    w(" * significant first; mont'(a, b) = a b / 2^416 mod p. TO_MONT = 2^800 mod p turns x into the")
    w(" * stored x 2^384; RESCALE = 2^448 mod p and B_SCALED = 4 2^352 mod p put both sides of")
    w(" * y^2 = x^3 + 4 on the scale 2^768 / 2^416 (gen_field_consts.py checks it on the generator). */")
    w("#define BLS12381_FP52_N0 0x%013xULL" % n0)
    w("static const uint64_t BLS12381_FP52_P[8] = %s;" % l52(p))
    w("static const uint64_t BLS12381_FP52_TO_MONT[8] = %s;" % l52(to_mont))
    w("static const uint64_t BLS12381_FP52_RESCALE[8] = %s;" % l52(rescale))
    w("static const uint64_t BLS12381_FP52_B_SCALED[8] = %s;" % l52(b_scaled))
    w("")


def main():
    out = []
    w = out.append
    w("/* Generated by scripts/gen_field_consts.py; do not edit. Checked by tests/field/test_consts.c. */")
    w("#ifndef CUZK_FIELD_CONSTS_H")
    w("#define CUZK_FIELD_CONSTS_H")
    w("")
    w("#include <stdint.h>")
    w("")
    for name, p in FIELDS.items():
        n = nlimbs(p)
        R = 2 ** (64 * n)
        up = name.upper()
        n0 = (-pow(p, -1, 2**64)) % 2**64
        mont = lambda x: x * R % p
        w("/* %s: p = 0x%x (%d bits) */" % (name, p, p.bit_length()))
        w("#define %s_NLIMBS %d" % (up, n))
        w("#define %s_BITS %d" % (up, p.bit_length()))
        w("#define %s_N0 0x%016xULL" % (up, n0))
        w("static const uint64_t %s_P[%d] = %s;" % (up, n, arr(p, n)))
        w("static const uint64_t %s_ONE[%d] = %s; /* R mod p */" % (up, n, arr(R % p, n)))
        w("static const uint64_t %s_R2[%d] = %s; /* R^2 mod p */" % (up, n, arr(R * R % p, n)))
        w("static const uint64_t %s_P_MINUS_2[%d] = %s;" % (up, n, arr(p - 2, n)))
        w("static const uint64_t %s_P_MINUS_1_HALF[%d] = %s;" % (up, n, arr((p - 1) // 2, n)))
        if p % 4 == 3:
            w("static const uint64_t %s_P_PLUS_1_QUARTER[%d] = %s;" % (up, n, arr((p + 1) // 4, n)))
            w("static const uint64_t %s_P_MINUS_3_QUARTER[%d] = %s;" % (up, n, arr((p - 3) // 4, n)))
        if name.endswith("_fr"):
            s = 0
            while ((p - 1) >> s) & 1 == 0:
                s += 1
            nqr = 2
            while legendre(nqr, p) != p - 1:
                nqr += 1
            root = pow(nqr, (p - 1) >> s, p)
            assert pow(root, 2**s, p) == 1 and pow(root, 2 ** (s - 1), p) != 1
            w("#define %s_TWO_ADICITY %d" % (up, s))
            w("#define %s_NQR %d /* smallest quadratic non-residue, as ffjavascript picks it */" % (up, nqr))
            w("/* Montgomery form of nqr^((r-1) >> s): a primitive 2^s-th root of unity. */")
            w("static const uint64_t %s_ROOT_OF_UNITY[%d] = %s;" % (up, n, arr(mont(root), n)))
        w("")

    for curve, c in CURVES.items():
        p = FIELDS[curve + "_fp"]
        n = nlimbs(p)
        R = 2 ** (64 * n)
        up = curve.upper()
        mont = lambda x: x * R % p
        xi = c["xi"]
        assert legendre((xi[0] ** 2 + xi[1] ** 2) % p, p) == p - 1 or True
        mf2 = lambda a: "{%s, %s}" % (arr(mont(a[0]), n), arr(mont(a[1]), n))
        w("/* %s: Fp2 constants in Montgomery form, each {c0, c1}. */" % curve)
        w("static const uint64_t %s_XI[2][%d] = %s; /* the Fp6 non-residue */" % (up, n, mf2(xi)))
        b = c["b"]
        w("static const uint64_t %s_B[%d] = %s; /* G1: y^2 = x^3 + b */" % (up, n, arr(mont(b), n)))
        if c["twist"] == "d":
            b2 = f2mul((b, 0), f2inv(xi, p), p)
        else:
            b2 = f2mul((b, 0), xi, p)
        w("static const uint64_t %s_B2[2][%d] = %s; /* G2: y^2 = x^3 + b' */" % (up, n, mf2(b2)))
        gx, gy = c["g1"]
        assert (gy * gy - gx**3 - b) % p == 0, "G1 generator off curve"
        w("static const uint64_t %s_G1_X[%d] = %s;" % (up, n, arr(mont(gx), n)))
        w("static const uint64_t %s_G1_Y[%d] = %s;" % (up, n, arr(mont(gy), n)))
        (x, y) = c["g2"]
        lhs = f2mul(y, y, p)
        rhs = f2mul(f2mul(x, x, p), x, p)
        rhs = ((rhs[0] + b2[0]) % p, (rhs[1] + b2[1]) % p)
        assert lhs == rhs, "G2 generator off curve"
        w("static const uint64_t %s_G2_X[2][%d] = %s;" % (up, n, mf2(x)))
        w("static const uint64_t %s_G2_Y[2][%d] = %s;" % (up, n, mf2(y)))
        # Frobenius coefficients: gamma[k] = xi^((p^k - 1) / 6), k = 0..11, as Fp2.
        w("/* FROB6[k] = xi^((p^k - 1) / 6) for k = 0..11 (w^(p^k) = FROB6[k] * w). */")
        w("static const uint64_t %s_FROB6[12][2][%d] = {" % (up, n))
        for k in range(12):
            e = (p**k - 1) // 6
            g = f2pow(xi, e, p)
            w("    %s," % mf2(g))
        w("};")
        w("/* FROB3[k] = xi^((p^k - 1) / 3), FROB3B[k] = xi^(2(p^k - 1) / 3), k = 0..5 (Fp6). */")
        for tag, mult in (("FROB3", 1), ("FROB3B", 2)):
            w("static const uint64_t %s_%s[6][2][%d] = {" % (up, tag, n))
            for k in range(6):
                e = mult * (p**k - 1) // 3
                w("    %s," % mf2(f2pow(xi, e, p)))
            w("};")
        w("/* 3b' for the pairing's doubling step. */")
        w("static const uint64_t %s_B2_X3[2][%d] = %s;" % (up, n, mf2((3 * b2[0] % p, 3 * b2[1] % p))))
        w("")
    pairing_consts(w)
    endo_consts(w)
    ifma_consts(w)
    w("#endif")
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "src", "field", "field_consts.h")
    with open(path, "w") as f:
        f.write("\n".join(out) + "\n")
    subprocess.run(["clang-format", "-i", path], check=True)


if __name__ == "__main__":
    main()
