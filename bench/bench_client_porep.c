/*
 * cuzk-bench's PoRep C2 requests (docs/bench.md, "The daemon's client"): --workload porep-c2
 * with --c1 FILE, a C1 file (Curio's envelope, as `cuzk filecoin seal-2k` and `fake-c1` write
 * it, or bare with --sector N: the SealCommitPhase1Output JSON, or its bincode (supra_seal's),
 * which needs --registered-proof N). The file is read once and looked
 * at for its registered proof, its sector number and its partitions (the same reader as the
 * daemon's, so a file the daemon would refuse is refused here first); the request sent is a
 * POREP_SEAL_COMMIT with the file's bytes, --miner (default 1000) and the sector.
 */
#ifdef CZ_BENCH_DAEMON
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_client.h"
#include "cuzk/fileio.h"
#include "filecoin/porep_c1.h"

int bench_client_porep_load(client_opts *o) {
    cz__porep_c1 c1;
    cz__porep_envelope env;
    cz_errinfo ei;
    int rc = BENCH_OK;
    cz_errinfo_clear(&ei);
    if (cz_file_read(&o->c1_data, &o->c1_len, o->c1, &ei) != CZ_OK ||
        cz__porep_c1_read_any(&c1, &env, o->c1_data, o->c1_len, o->porep_registered, &ei) !=
            CZ_OK) {
        fprintf(stderr, "cuzk-bench %s: %s: %s\n", o->cmd, o->c1, ei.msg);
        rc = BENCH_USAGE;
    } else if (!env.enveloped && !o->have_sector) {
        fprintf(stderr, "cuzk-bench %s: %s is a bare C1: give its sector with --sector N\n", o->cmd,
                o->c1);
        rc = BENCH_USAGE;
    } else {
        o->porep_registered = c1.registered_proof;
        o->porep_partitions = c1.npartitions;
        if (!o->have_sector)
            o->sector = env.sector_num;
    }
    cz__porep_c1_free(&c1);
    return rc;
}

void bench_client_porep_request(Cuzk__V1__SubmitProofRequest *sub, const client_opts *o) {
    sub->proof_kind = CUZK__V1__PROOF_KIND__POREP_SEAL_COMMIT;
    sub->registered_proof = o->porep_registered;
    sub->vanilla_proof.data = o->c1_data;
    sub->vanilla_proof.len = o->c1_len;
    sub->sector_number = o->sector;
    sub->miner_id = o->miner;
}

void bench_client_porep_free(client_opts *o) {
    free(o->c1_data);
    o->c1_data = NULL;
}

#else
typedef int bench_client_porep_not_built; /* ISO C: no empty file */
#endif
