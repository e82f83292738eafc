/*
 * os.c - anonymous mappings for node memory and page descriptors.
 *
 * Prefaulting uses MADV_POPULATE_WRITE (Linux 5.14) and falls back to touching one byte per
 * page, which also respects a memory policy set by mbind beforehand.
 */
#include <errno.h>
#include <sys/mman.h>

#include "os.h"

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23
#endif

int os_map(size_t len, void **out)
{
	void *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
		       -1, 0);

	if (p == MAP_FAILED)
		return -ENOMEM;
	*out = p;
	return 0;
}

void os_unmap(void *addr, size_t len)
{
	if (addr)
		munmap(addr, len);
}

void os_prefault(void *addr, size_t len)
{
	if (madvise(addr, len, MADV_POPULATE_WRITE) == 0)
		return;
	for (size_t off = 0; off < len; off += 4096)
		((volatile char *)addr)[off] = 0;
}
