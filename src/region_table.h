/* The engine's table of anonymous regions: page->mapping indexes it (0 means none). */
#ifndef NODELRU_REGION_TABLE_H
#define NODELRU_REGION_TABLE_H

#include <pthread.h>
#include <stdint.h>

struct nlru_region;

struct region_table {
	pthread_rwlock_t lock; /* read: a reclaim pass over isolated pages; write: create, destroy */
	struct nlru_region **regions;
	uint32_t capacity;
};

#endif /* NODELRU_REGION_TABLE_H */
