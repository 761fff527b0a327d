/* State shared by both curves' NTT (see ntt_common.h). */
#include "ntt/ntt_common.h"

unsigned cz__ntt_tile_log = NTT_TILE_LOG;
