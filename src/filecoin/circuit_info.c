/*
 * Circuit shapes from blank synthesis (circuit_info.h).
 */
#include <string.h>

#include "filecoin/circuit_info.h"
#include "filecoin/porep_circuit.h"
#include "filecoin/post_circuit.h"
#include "filecoin/snap_circuit.h"

/* The info of a recorded blank circuit (cs, RECORD), and its domain. */
static int info_of(cz__circuit_info *out, const cz__cs *cs, cz_errinfo *ei) {
    int rc = cz__cs_info_get(&out->cs, cs, ei);
    if (rc == CZ_OK) {
        const uint64_t n = (uint64_t)out->cs.nrows + out->cs.ninput;
        while ((UINT64_C(1) << out->domain_log) < n)
            out->domain_log++;
    }
    return rc;
}

int cz__post_circuit_info(cz__circuit_info *out, cz__post_kind kind, uint64_t sector_size,
                          cz_errinfo *ei) {
    cz__post_shape shape;
    cz__cs cs;
    int rc;
    memset(out, 0, sizeof *out);
    if ((rc = cz__post_shape_get(&shape, kind, sector_size, ei)) != CZ_OK ||
        (rc = cz__cs_init(&cs, CZ__CS_RECORD, 0, ei)) != CZ_OK)
        return rc;
    rc = cz__post_circuit_blank(&cs, &shape.tree, shape.nleaves, shape.sectors, shape.challenges,
                                ei);
    if (rc == CZ_OK)
        rc = info_of(out, &cs, ei);
    cz__cs_free(&cs);
    return rc;
}

int cz__porep_circuit_info(cz__circuit_info *out, uint64_t sector_size, cz_errinfo *ei) {
    cz__porep_shape shape;
    cz__cs cs;
    int rc;
    memset(out, 0, sizeof *out);
    if ((rc = cz__porep_shape_get(&shape, sector_size, ei)) != CZ_OK ||
        (rc = cz__cs_init(&cs, CZ__CS_RECORD, 0, ei)) != CZ_OK)
        return rc;
    rc = cz__porep_circuit_blank(&cs, &shape, 0, NULL, ei);
    if (rc == CZ_OK)
        rc = info_of(out, &cs, ei);
    cz__cs_free(&cs);
    return rc;
}

int cz__snap_circuit_info(cz__circuit_info *out, uint64_t sector_size, int poseidon,
                          cz_errinfo *ei) {
    cz__snap_shape shape;
    cz__cs cs;
    int rc;
    memset(out, 0, sizeof *out);
    if ((rc = cz__snap_shape_get(&shape, sector_size,
                                 poseidon ? CZ__SNAP_POSEIDON : CZ__SNAP_SHA256, ei)) != CZ_OK ||
        (rc = cz__cs_init(&cs, CZ__CS_RECORD, 0, ei)) != CZ_OK)
        return rc;
    rc = cz__snap_circuit_blank(&cs, &shape, 0, ei);
    if (rc == CZ_OK)
        rc = info_of(out, &cs, ei);
    cz__cs_free(&cs);
    return rc;
}
