/*
 * os.c - anonymous mappings for node memory and page descriptors.
 *
 * Mappings of at least OS_MAP_ALIGN bytes start on an OS_MAP_ALIGN boundary, the size of the
 * largest buddy block, so a block is as aligned in the address space as within its zone (as
 * physical memory is in Linux) whenever the zone starts on such a boundary: callers that need
 * aligned memory (jemalloc's 2 MiB base blocks) then get it without over-allocating.
 *
 * Large mappings ask for transparent huge pages (MADV_HUGEPAGE; "madvise" is Debian's default
 * THP mode).  Linux reaches every page frame through its direct map, which the kernel maps
 * with 2 MiB or 1 GiB pages, so touching a page frame costs it no TLB miss of its own.  With
 * 4 KiB mappings the engine would pay one for nearly every page it recycles, since reclaim hands
 * pages back in LRU order, scattered over the node: a streaming copy through a 64 MiB engine
 * ran 10 % slower so.  Where THP is off, the advice is refused and the mapping stays as it is.
 *
 * Prefaulting uses MADV_POPULATE_WRITE (Linux 5.14) and falls back to touching one byte per
 * page, which also respects a memory policy set by mbind beforehand.
 */
#include <errno.h>
#include <stdint.h>
#include <sys/mman.h>

#include "os.h"

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23
#endif

int os_map(size_t len, void **out)
{
	size_t align = len >= OS_MAP_ALIGN ? OS_MAP_ALIGN : OS_PAGE_SIZE;
	size_t rounded = (len + OS_PAGE_SIZE - 1) & ~(OS_PAGE_SIZE - 1);
	size_t span = rounded + align - OS_PAGE_SIZE, head, tail;
	char *p = mmap(NULL, span, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);

	if (p == MAP_FAILED)
		return -ENOMEM;
	/* Over-map by the alignment less a page, then unmap what lies outside the aligned run. */
	head = (size_t)(-(uintptr_t)p & (align - 1));
	tail = span - head - rounded;
	if (head)
		munmap(p, head);
	if (tail)
		munmap(p + head + rounded, tail);
	if (rounded >= OS_MAP_ALIGN)
		madvise(p + head, rounded, MADV_HUGEPAGE);
	*out = p + head;
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
	for (size_t off = 0; off < len; off += OS_PAGE_SIZE)
		((volatile char *)addr)[off] = 0;
}
