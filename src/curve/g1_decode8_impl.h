/*
 * The arithmetic of eight G1 decodings (src/curve/g1_decode8.c), over one instantiation of
 * src/field/fp8_impl.h (the includer defines its names, see there). xw and yw hold the
 * coordinates as parsed (word w of lane i at [w][i], little-endian words, each coordinate below
 * 2^384); ok has the lanes that passed the flag and range checks. Returns ok without the lanes
 * off the curve; out[i] of the lanes returned is the stored (Montgomery) form of the point.
 *
 * With R = 2^384 the stored form and mont'(a, b) = a·b/2^416 the product of fp8_impl.h:
 * X = mont'(x, TO_MONT) = x·R, Y likewise; the curve equation y^2 = x^3 + 4 is compared on the
 * scale R^2/R': mont'(Y, Y) against mont'(mont'(mont'(X, X), X), RESCALE) + B_SCALED
 * (scripts/gen_field_consts.py derives the constants and checks the scheme on the generator).
 */
P8_FN unsigned P8(decode8)(cz_bls12381_g1_affine out[8], uint64_t xw[6][8], uint64_t yw[6][8],
                           unsigned ok) {
    cz_v8 xv[6], yv[6];
    memcpy(xv, xw, sizeof xv);
    memcpy(yv, yw, sizeof yv);
    cz_fp8 x, y, c, lhs, rhs;
    P8(from_u64)(&x, xv);
    P8(from_u64)(&y, yv);
    P8(set_const)(&c, BLS12381_FP52_TO_MONT);
    P8(mul)(&x, &x, &c);
    P8(mul)(&y, &y, &c);
    P8(mul)(&lhs, &y, &y);
    P8(canon)(&lhs, &lhs);
    P8(mul)(&rhs, &x, &x);
    P8(mul)(&rhs, &rhs, &x);
    P8(set_const)(&c, BLS12381_FP52_RESCALE);
    P8(mul)(&rhs, &rhs, &c);
    P8(set_const)(&c, BLS12381_FP52_B_SCALED);
    P8(add)(&rhs, &rhs, &c); /* below 3p */
    P8(canon)(&rhs, &rhs);
    P8(canon)(&rhs, &rhs);
    ok &= P8(eq_mask)(&lhs, &rhs);
    P8(canon)(&x, &x);
    P8(canon)(&y, &y);
    P8(to_u64)(xv, &x);
    P8(to_u64)(yv, &y);
    for (int i = 0; i < 8; i++)
        for (int w = 0; w < 6; w++) {
            out[i].x.l[w] = xv[w][i];
            out[i].y.l[w] = yv[w][i];
        }
    return ok;
}
