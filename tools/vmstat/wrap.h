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

#endif /* NODELRU_TOOLS_VMSTAT_WRAP_H */
