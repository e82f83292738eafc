/* Page-granular memory from the OS: map, unmap, prefault.  No policy, no binding (topo.c). */
#ifndef NODELRU_OS_H
#define NODELRU_OS_H

#include <stddef.h>

/* The alignment of large mappings: the largest buddy block, 2^(MAX_ORDER-1) pages. */
#define OS_PAGE_SIZE 4096ul
#define OS_MAP_ALIGN (OS_PAGE_SIZE << 10)

/* Reserve @len bytes of private anonymous memory, OS_MAP_ALIGN-aligned and backed by huge
 * pages where the system has them if at least that long; -ENOMEM on failure. */
int os_map(size_t len, void **out);
void os_unmap(void *addr, size_t len);
/* Fault every page of [addr, addr+len) in now, writable, so first use costs no fault. */
void os_prefault(void *addr, size_t len);

#endif /* NODELRU_OS_H */
