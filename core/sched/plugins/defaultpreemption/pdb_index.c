/*
 * pdb_index.c - see pdb_index.h.
 */
#include "pdb_index.h"
#include "arena.h"

#include <stdlib.h>

/* slots of the search table kept on the stack (2 x 256 entries) */
#define STACK_SLOTS 512

size_t
kp_pdb_index_build(const int32_t *pdb, size_t n, uint32_t *local,
                   int32_t *ids)
{
    uint32_t stack[STACK_SLOTS], *slot = stack;     /* id index + 1; 0 free */
    size_t nslots = 8, mask, i, j, m = 0;

    if (n == 0)
        return 0;
    while (nslots < 2 * n)
        nslots <<= 1;
    if (nslots > STACK_SLOTS)
        slot = kp_xcalloc(nslots, sizeof(*slot));
    else
        for (j = 0; j < nslots; j++)
            slot[j] = 0;
    mask = nslots - 1;
    for (i = 0; i < n; i++) {
        j = (size_t)((uint32_t)pdb[i] * 2654435761u) & mask;
        while (slot[j] && ids[slot[j] - 1] != pdb[i])
            j = (j + 1) & mask;
        if (!slot[j]) {
            ids[m++] = pdb[i];
            slot[j] = (uint32_t)m;
        }
        local[i] = slot[j] - 1;
    }
    if (slot != stack)
        free(slot);
    return m;
}
