/* State shared by both curves' NTT (see ntt_common.h), and the names of the roots. */
#include "cuzk/ntt.h"
#include "ntt/ntt_common.h"

unsigned cz__ntt_tile_log = NTT_TILE_LOG;

const char *cz_ntt_roots_name(cz_ntt_roots roots) {
    switch (roots) {
    case CZ_NTT_ROOTS_SNARKJS:
        return "snarkjs";
    case CZ_NTT_ROOTS_BELLPERSON:
        return "bellperson";
    }
    return "?";
}
