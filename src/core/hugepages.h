/*
 * Transparent huge pages for the large arrays a process touches once: a recording's matrices, a
 * partition's vectors, a key. The kernels' default mode ("madvise") gives them only to memory
 * that asks, and a 4 KiB page fault costs microseconds (the development VM: 26 s of system time
 * for the 9 GB of a 32 GiB PoRep recording), so asking saves 511 faults in 512.
 */
#ifndef CUZK_CORE_HUGEPAGES_H
#define CUZK_CORE_HUGEPAGES_H

#include <stddef.h>
#include <stdint.h>
#include <sys/mman.h>

#define CZ__HUGE_PAGE ((size_t)2 << 20) /* the x86-64 huge page */

/* Asks for huge pages on the whole 2 MiB pages inside [p, p + len) (advice: nothing happens
 * where the kernel declines, or for a range holding no whole huge page). Call it before the
 * range is touched. */
static inline void cz__huge_pages_advise(void *p, size_t len) {
    uintptr_t lo = ((uintptr_t)p + CZ__HUGE_PAGE - 1) & ~(uintptr_t)(CZ__HUGE_PAGE - 1);
    uintptr_t hi = ((uintptr_t)p + len) & ~(uintptr_t)(CZ__HUGE_PAGE - 1);
    if (p != NULL && hi > lo)
        (void)madvise((void *)lo, hi - lo, MADV_HUGEPAGE);
}

#endif
