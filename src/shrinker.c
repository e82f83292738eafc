/*
 * shrinker.c - caches outside the LRU lists, asked to shrink in proportion to LRU scanning.
 *
 * Locking: the shrinker list is under an rwlock, as Linux's shrinker_rwsem: registration
 * writes, shrink_slab() only tries to read (a busy list counts as progress, as in Linux).
 * nr_deferred (work a shrinker owes from passes that asked too little to reach a batch) is
 * an atomic per node, exchanged and added back without a lock.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "current.h"
#include "shrinker.h"
#include "vmstat.h"

#define SHRINK_BATCH 128

__thread struct reclaim_state *current_reclaim_state;

struct nlru_shrinker {
	struct nlru_engine *eng;
	struct nlru_shrinker_def def; /* seeks and batch filled in */
	struct nlru_shrinker *next;
	_Atomic long nr_deferred[MAX_NUMNODES];
};

int shrinker_list_init(struct nlru_engine *eng)
{
	eng->shrinkers = NULL;
	return -rwlock_init(&eng->shrinker_rwsem, NULL, LOCK_SHRINKERS, &eng->log);
}

void shrinker_list_destroy(struct nlru_engine *eng)
{
	unsigned int n = 0;

	for (const struct nlru_shrinker *s = eng->shrinkers; s; s = s->next)
		n++;
	/* The handles die with the engine: an unregister after this is a use-after-free. */
	if (n)
		log_warn(&eng->log,
			 "destroy: %u shrinker%s still registered, freed with the engine; their "
			 "handles are now invalid (unregister shrinkers before destroying)",
			 n, n == 1 ? " was" : "s were");
	while (eng->shrinkers) {
		struct nlru_shrinker *next = eng->shrinkers->next;

		free(eng->shrinkers);
		eng->shrinkers = next;
	}
	rwlock_destroy(&eng->shrinker_rwsem);
}

int nlru_shrinker_register(struct nlru_engine *eng, const struct nlru_shrinker_def *def,
			   struct nlru_shrinker **out)
{
	struct nlru_shrinker *shrinker;

	if (!eng || !out)
		return -EINVAL;
	if (!def || def->size < sizeof(*def) || !def->count || !def->scan || def->seeks < 0 ||
	    def->batch < 0) {
		log_err(&eng->log, "shrinker: needs count and scan callbacks, and no negative "
				   "seeks or batch");
		return -EINVAL;
	}
	/* A flag of a later version would be silently ignored: refuse it. */
	if (def->flags & ~NLRU_SHRINKER_NUMA_AWARE) {
		log_err(&eng->log, "shrinker: unknown flags 0x%x",
			def->flags & ~NLRU_SHRINKER_NUMA_AWARE);
		return -EINVAL;
	}
	shrinker = calloc(1, sizeof(*shrinker));
	if (!shrinker)
		return -ENOMEM;
	shrinker->eng = eng;
	shrinker->def = *def;
	if (!shrinker->def.seeks)
		shrinker->def.seeks = NLRU_DEFAULT_SEEKS;
	if (!shrinker->def.batch)
		shrinker->def.batch = SHRINK_BATCH;
	rwlock_wrlock(&eng->shrinker_rwsem);
	shrinker->next = eng->shrinkers;
	eng->shrinkers = shrinker;
	rwlock_unlock(&eng->shrinker_rwsem);
	*out = shrinker;
	return 0;
}

int nlru_shrinker_unregister(struct nlru_shrinker *shrinker)
{
	struct nlru_engine *eng;
	struct nlru_shrinker **link;

	if (!shrinker)
		return 0;
	eng = shrinker->eng;
	rwlock_wrlock(&eng->shrinker_rwsem);
	for (link = &eng->shrinkers; *link && *link != shrinker; link = &(*link)->next)
		;
	if (*link)
		*link = shrinker->next;
	rwlock_unlock(&eng->shrinker_rwsem);
	free(shrinker);
	return 0;
}

unsigned long shrink_slab_target(unsigned long freeable, unsigned long deferred,
				 unsigned long nr_scanned, unsigned long nr_eligible, int seeks)
{
	/* Pressure on the cache matches pressure on the LRU, weighted by the cost to rebuild. */
	unsigned long long delta = (4ull * nr_scanned) / (unsigned int)seeks;
	unsigned long long total;

	delta = delta * freeable / (nr_eligible + 1);
	total = deferred + delta;
	/* Little new pressure: do not let deferred work empty more than half the cache. */
	if (delta < freeable / 4)
		total = MIN(total, freeable / 2);
	return (unsigned long)MIN(total, 2ull * freeable);
}

/* do_shrink_slab(): one shrinker, one node. */
static unsigned long do_shrink_slab(struct nlru_engine *eng, struct nlru_shrinker *shrinker,
				    int nid, unsigned long nr_scanned, unsigned long nr_eligible)
{
	const struct nlru_shrinker_def *def = &shrinker->def;
	struct nlru_shrink_control sc = {.nid = nid};
	unsigned long freeable, total, freed = 0, batch = (unsigned long)def->batch;
	long deferred;

	freeable = def->count(def->arg, &sc);
	if (freeable == 0 || freeable == NLRU_SHRINK_STOP)
		return 0;
	deferred = atomic_exchange(&shrinker->nr_deferred[nid], 0);
	total = shrink_slab_target(freeable, (unsigned long)MAX(deferred, 0), nr_scanned,
				   nr_eligible, def->seeks);
	while (total >= batch || total >= freeable) {
		unsigned long ret;

		sc.nr_to_scan = MIN(batch, total);
		sc.nr_scanned = sc.nr_to_scan;
		ret = def->scan(def->arg, &sc);
		if (ret == NLRU_SHRINK_STOP)
			break;
		freed += ret;
		count_vm_events(eng, NLRU_SLABS_SCANNED, sc.nr_to_scan);
		total -= sc.nr_to_scan;
	}
	/* What was asked but not done is owed next time (4.8.0 to 4.8.15 behaviour). */
	if (total > 0)
		atomic_fetch_add(&shrinker->nr_deferred[nid], (long)total);
	return freed;
}

unsigned long shrink_slab(struct nlru_engine *eng, int nid, unsigned long nr_scanned,
			  unsigned long nr_eligible)
{
	unsigned long freed = 0;

	if (nr_scanned == 0)
		nr_scanned = SWAP_CLUSTER_MAX;
	/* Someone is (un)registering: report progress rather than wait, as Linux does. */
	if (rwlock_tryrdlock(&eng->shrinker_rwsem))
		return 1;
	for (struct nlru_shrinker *s = eng->shrinkers; s; s = s->next)
		freed += do_shrink_slab(eng, s, (s->def.flags & NLRU_SHRINKER_NUMA_AWARE) ? nid : 0,
					nr_scanned, nr_eligible);
	rwlock_unlock(&eng->shrinker_rwsem);
	return freed;
}
