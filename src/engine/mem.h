/*
 * The memory manager's internal interface: what its parts say to each other (include/cuzk/engine.h
 * has the public side, "Memory budget" and "Memory manager").
 *
 * The module is three files with one concern, the host memory the engine holds:
 *   budget.c   the accounting: one number of bytes, FIFO waiters, reservations, the evictor;
 *   hostmem.c  the allocation: pinned or pageable blocks with a header, one warning on fallback;
 *   mem.c      the manager: a partition's reserve and release paths and the buffers it gets,
 *              kept idle (charged to the budget) between partitions.
 * Calls go one way, mem.c -> budget.c and mem.c -> hostmem.c, except the two hooks below, which the
 * budget calls without its lock: the manager attached to a budget (its idle buffers, asked first
 * for every request that does not fit) and a partition's reclaim hook (its wait takes over idle
 * buffers instead of having them freed).
 */
#ifndef CZ_ENGINE_MEM_H
#define CZ_ENGINE_MEM_H

#include "cuzk/engine.h"

/* Attaches the manager's evictor to b (fn NULL: detaches); asked before the budget's evictor for
 * every request that brings no reclaim hook. One manager per budget (CZ_ASSERT). */
void cz__budget_attach(cz_budget *b, cz_budget_evict_fn fn, void *arg);
/* Asks the budget's own evictor (cz_budget_set_evictor; none: 0) for need bytes, for a manager's
 * evictor that freed less than it was asked. Called without any lock of the module held. */
uint64_t cz__budget_evict_next(cz_budget *b, uint64_t need);
/*
 * cz_budget_reserve with a reclaim hook of the request's own: while the request is at the head of
 * the queue and does not fit, the budget calls reclaim(reclaim_arg, short_by) (without its lock)
 * in place of the attached manager. The hook may free memory as an evictor does, and may move
 * bytes already reserved into *out (cz__reservation_move): the request then waits for that much
 * less (never more than bytes in all). It returns the bytes freed or moved; 0 = nothing now (it is
 * called again after the next change). On failure *out keeps the bytes moved into it, for the
 * caller to give back. reclaim NULL: cz_budget_reserve.
 */
int cz__budget_reserve_reclaim(cz_reservation *out, cz_budget *b, uint64_t bytes,
                               int64_t timeout_ms, cz_budget_abort_fn abort, void *abort_arg,
                               cz_budget_evict_fn reclaim, void *reclaim_arg, cz_errinfo *ei);
/* Moves bytes (<= from->bytes) from one reservation to another of the same budget (to may be
 * empty, budget NULL). The budget's used bytes do not change, so no other request can take them
 * in between. Both reservations must be the caller's (no lock is taken). */
void cz__reservation_move(cz_reservation *to, cz_reservation *from, uint64_t bytes);

#endif
