/*
 * wrap - 64-bit counter arithmetic that wraps like the kernel's unsigned long instead of
 * overflowing (undefined for int64_t).  Dumps are untrusted input: a crafted or corrupt value
 * must give a wrong number, never a trap.
 */
#ifndef NODELRU_TOOLS_VMSTAT_WRAP_H
#define NODELRU_TOOLS_VMSTAT_WRAP_H

#include <stdint.h>

static inline int64_t wrap_add(int64_t a, int64_t b)
{
	return (int64_t)((uint64_t)a + (uint64_t)b);
}

static inline int64_t wrap_sub(int64_t a, int64_t b)
{
	return (int64_t)((uint64_t)a - (uint64_t)b);
}

/*
 * wrap_went_down - did an event counter decrease from @before to @after?  Event counters are
 * the kernel's unsigned long, so they are compared unsigned: 10 -> 2^63 + 9 is growth, and
 * 2^63 + 9 -> 10 is a reset (a reboot or restart between the dumps, or the two swapped).
 * diff's flag and compare's warning both use this, so they always agree.
 */
static inline int wrap_went_down(int64_t before, int64_t after)
{
	return (uint64_t)after < (uint64_t)before;
}

/* wrap_change - AFTER - BEFORE as a double, read as out_change() prints it (for rates). */
static inline double wrap_change(int is_event, int64_t before, int64_t after)
{
	if (!is_event)
		return (double)wrap_sub(after, before);
	if (wrap_went_down(before, after))
		return -(double)((uint64_t)before - (uint64_t)after);
	return (double)((uint64_t)after - (uint64_t)before);
}

#endif /* NODELRU_TOOLS_VMSTAT_WRAP_H */
