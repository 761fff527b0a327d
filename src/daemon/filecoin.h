/*
 * The daemon's Filecoin proofs (docs/daemon.md, "Filecoin proofs"): what a WINNING_POST,
 * WINDOW_POST_PARTITION or POREP_SEAL_COMMIT request needs besides the engine.
 *
 *   circuits  one recorded circuit per shape (cz_post_circuit), made on the first request of
 *             that shape and kept; a request of another shape never waits for it
 *   keys      the key file of a registered proof, by its Filecoin name in the parameter
 *             directory (srs.param_cache), loaded by the SRS manager as bellperson .params;
 *             before its first use the file's digest is compared with the built-in manifest. A key
 *             that does not match is refused (FAILED_PRECONDITION) unless srs.allow_untrusted,
 *             which uses it with a warning in the log and in /status. The verdict is kept per
 *             file identity (inode, size, mtime): a file replaced on disk is hashed again.
 *
 * The request is checked before any of it costs time: the kind against the registered proof,
 * the sector size when given; PoSt: 32 bytes of randomness, the vanilla proofs (cz_workload_post
 * checks each natively, spread over the pool given at creation); PoRep: the C1, the replica id
 * against miner_id and sector_number, every partition's vanilla proofs (cz_workload_porep, a
 * task per partition on the pool). Thread-safe; the tables have their own
 * lock, never held while hashing a file or recording a circuit.
 */
#ifndef CZ_DAEMON_FILECOIN_H
#define CZ_DAEMON_FILECOIN_H

#include <stddef.h>

#include "cuzk/engine.h"
#include "cuzk/err.h"
#include "cuzk/pipeline.h"
#include "cuzk/v1/proving.pb-c.h"

typedef struct cz_daemon_filecoin cz_daemon_filecoin;

/* param_dir: where the keys are (NULL or "": every Filecoin request fails naming the setting).
 * digest_store: the file of remembered key digests (keydigests.h; NULL: a key is hashed on
 * first use after every start). abc_on_gpu: PoRep circuits compute their partitions' a, b, c on
 * the GPU (cz_porep_circuit_abc_on_gpu). pool: the threads that record the circuits and check the
 * requests' vanilla proofs (the service's loading pool; NULL: the requesting thread alone); it
 * must outlive f. */
int cz_daemon_filecoin_create(cz_daemon_filecoin **out, const char *param_dir, int allow_untrusted,
                              const char *digest_store, int abc_on_gpu, cz_srs *srs,
                              cz_threadpool *pool, cz_errinfo *ei);
void cz_daemon_filecoin_destroy(cz_daemon_filecoin *f); /* NULL is a no-op */

/*
 * The workload of a PoSt, PoRep or SnapDeals request r into *wl, its priority when r gives none
 * into *prio (Winning CRITICAL, Window HIGH, PoRep and SnapDeals NORMAL), and into *load_ms the
 * time its key took to come from the SRS manager (its load, or about 0 when it was resident). On
 * failure returns the gRPC status (CZ_RPC_*: INVALID_ARGUMENT for the request's fault,
 * FAILED_PRECONDITION for a missing or refused key, RESOURCE_EXHAUSTED, INTERNAL) with the message
 * in ei; 0 on success.
 */
int cz_daemon_filecoin_workload(cz_workload *wl, cz_priority *prio, uint64_t *load_ms,
                                cz_daemon_filecoin *f, const Cuzk__V1__SubmitProofRequest *r,
                                cz_errinfo *ei);

/* For PreloadSRS (and srs.preload): a path whose file name is a .params key of the manifest gets
 * the same digest check as a request's key (CZ_OK, CZ_EVERIFY refused, CZ_EIO naming the file),
 * so a key that would be refused is refused at start-up, and the hash is not left to the first
 * request. Any other path: CZ_OK. */
int cz_daemon_filecoin_key_check(cz_daemon_filecoin *f, const char *path, cz_errinfo *ei);

/* The /status section: {"param_dir", "allow_untrusted", "keys": [{"file", "digest",
 * "manifest_digest", "trusted"}]} for every key file checked so far; malloc'd JSON text, NULL
 * when out of memory. */
char *cz_daemon_filecoin_status_json(cz_daemon_filecoin *f);

#endif
