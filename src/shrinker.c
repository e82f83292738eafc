/*
 * shrinker.c - caches outside the LRU lists, asked to shrink in proportion to LRU scanning.
 *
 * Locking: the shrinker list is under a mutex (Linux's shrinker_rwsem) that is held only to
 * walk a step of the list or change it, never across a callback.  A shrinker being called
 * counts the call in ->active; unregistering marks it dead, so that no call starts, and it
 * is unlinked and freed once ->active is 0.  So a callback may register and unregister
 * shrinkers, its own included: from inside a callback, unregistering does not wait (the
 * caller's own call is in progress), and the last call to return frees the shrinker.
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

/* Callbacks of any engine's shrinkers the calling thread is inside. */
static __thread int shrinker_call_depth;

struct nlru_shrinker {
	struct nlru_engine *eng;
	struct nlru_shrinker_def def; /* seeks and batch filled in */
	struct nlru_shrinker *next;
	/* Under eng->shrinker_lock: */
	int active;        /* shrink_slab() calls of its callbacks in progress */
	atomic_bool dead;  /* unregistered: no call starts any more (read unlocked between calls) */
	bool free_on_idle; /* unregistered from inside a callback: the last call frees it */
	atomic_bool futile_logged; /* its first futile call was reported */
	_Atomic long nr_deferred[MAX_NUMNODES];
};

/*
 * A call of one shrinker ends after this many batches in a row that freed nothing.  4.8 goes
 * on until the target, up to twice what count() reports: a count of 2^40 objects that scan()
 * never frees would hold the allocating thread for hours.  1024 batches (131072 objects at
 * the default batch) is far past what any real cache needs to find something to free; what
 * is left of the target is deferred, as for a call that ends at NLRU_SHRINK_STOP.
 */
#define SHRINK_FUTILE_BATCHES 1024

int shrinker_list_init(struct nlru_engine *eng)
{
	pthread_condattr_t attr;
	int r;

	eng->shrinkers = NULL;
	mutex_init(&eng->shrinker_lock, LOCK_SHRINKERS, &eng->log);
	pthread_condattr_init(&attr);
	pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
	r = pthread_cond_init(&eng->shrinker_idle, &attr);
	pthread_condattr_destroy(&attr);
	if (r)
		mutex_destroy(&eng->shrinker_lock);
	return -r;
}

/* Free @shrinker and the copy of its name. */
static void shrinker_free(struct nlru_shrinker *shrinker)
{
	free((char *)shrinker->def.name);
	free(shrinker);
}

void shrinker_list_destroy(struct nlru_engine *eng)
{
	unsigned int n = 0;

	for (const struct nlru_shrinker *s = eng->shrinkers; s; s = s->next)
		n += !s->dead;
	/* The handles die with the engine: an unregister after this is a use-after-free. */
	if (n)
		log_warn(&eng->log,
			 "destroy: %u shrinker%s still registered, freed with the engine; their "
			 "handles are now invalid (unregister shrinkers before destroying)",
			 n, n == 1 ? " was" : "s were");
	while (eng->shrinkers) {
		struct nlru_shrinker *next = eng->shrinkers->next;

		shrinker_free(eng->shrinkers);
		eng->shrinkers = next;
	}
	pthread_cond_destroy(&eng->shrinker_idle);
	mutex_destroy(&eng->shrinker_lock);
}

/* Says which part of a shrinker definition is wrong; -EINVAL. */
static int bad_shrinker_def(struct nlru_engine *eng, const struct nlru_shrinker_def *def)
{
	if (!def)
		log_err(&eng->log, "shrinker: register needs a definition (def is NULL)");
	else if (def->size < sizeof(*def) && def->size != NLRU_SHRINKER_DEF_SIZE_0_1)
		log_err(&eng->log,
			"shrinker: def->size is %zu, not sizeof(struct nlru_shrinker_def) (%zu, or "
			"%d of version 0.1)",
			def->size, sizeof(*def), NLRU_SHRINKER_DEF_SIZE_0_1);
	else if (def->size > sizeof(*def))
		log_err(&eng->log,
			"shrinker: def->size is %zu, more than sizeof(struct nlru_shrinker_def) "
			"(%zu) in this library; was the program built against a newer nodelru?",
			def->size, sizeof(*def));
	else if (!def->count || !def->scan)
		log_err(&eng->log, "shrinker: the %s callback is missing",
			!def->count ? (!def->scan ? "count and scan" : "count") : "scan");
	else if (def->seeks < 0)
		log_err(&eng->log, "shrinker: seeks is %d; 0 (the default) or more", def->seeks);
	else if (def->batch < 0)
		log_err(&eng->log, "shrinker: batch is %ld; 0 (the default) or more", def->batch);
	else
		log_err(&eng->log, "shrinker: unknown flags 0x%x",
			def->flags & ~NLRU_SHRINKER_NUMA_AWARE);
	return -EINVAL;
}

int nlru_shrinker_register(struct nlru_engine *eng, const struct nlru_shrinker_def *def,
			   struct nlru_shrinker **out)
{
	struct nlru_shrinker *shrinker;

	if (!eng)
		return -EINVAL;
	if (!out) {
		log_err(&eng->log, "shrinker: register needs somewhere to put the handle (out)");
		return -EINVAL;
	}
	/* A later version's struct (longer) or flag would be silently ignored: refuse them. */
	if (!def || (def->size != sizeof(*def) && def->size != NLRU_SHRINKER_DEF_SIZE_0_1) ||
	    !def->count || !def->scan || def->seeks < 0 || def->batch < 0 ||
	    (def->flags & ~NLRU_SHRINKER_NUMA_AWARE))
		return bad_shrinker_def(eng, def);
	shrinker = calloc(1, sizeof(*shrinker));
	if (!shrinker)
		return -ENOMEM;
	shrinker->eng = eng;
	/* Version 0.1's def ends before name: what it lacks stays zero. */
	memcpy(&shrinker->def, def, def->size);
	shrinker->def.size = sizeof(shrinker->def);
	if (shrinker->def.name && !(shrinker->def.name = strdup(shrinker->def.name))) {
		free(shrinker);
		return -ENOMEM;
	}
	if (!shrinker->def.seeks)
		shrinker->def.seeks = NLRU_DEFAULT_SEEKS;
	if (!shrinker->def.batch)
		shrinker->def.batch = SHRINK_BATCH;
	mutex_lock(&eng->shrinker_lock);
	shrinker->next = eng->shrinkers;
	eng->shrinkers = shrinker;
	mutex_unlock(&eng->shrinker_lock);
	*out = shrinker;
	return 0;
}

/* Take @shrinker off the list and free it.  shrinker_lock held; no call is in progress. */
static void shrinker_unlink_free(struct nlru_engine *eng, struct nlru_shrinker *shrinker)
{
	struct nlru_shrinker **link;

	for (link = &eng->shrinkers; *link && *link != shrinker; link = &(*link)->next)
		;
	if (*link)
		*link = shrinker->next;
	shrinker_free(shrinker);
}

int nlru_shrinker_unregister(struct nlru_shrinker *shrinker)
{
	struct nlru_engine *eng;

	if (!shrinker)
		return 0;
	eng = shrinker->eng;
	mutex_lock(&eng->shrinker_lock);
	shrinker->dead = true;
	/*
	 * From inside a callback, waiting could be for this very call, or for a thread that
	 * waits for us: no call starts from now on, and the last one to end frees it.
	 */
	if (shrinker->active && shrinker_call_depth) {
		shrinker->free_on_idle = true;
		mutex_unlock(&eng->shrinker_lock);
		return 0;
	}
	while (shrinker->active)
		pthread_cond_wait(&eng->shrinker_idle, &eng->shrinker_lock.mutex);
	shrinker_unlink_free(eng, shrinker);
	mutex_unlock(&eng->shrinker_lock);
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

/* Said once per shrinker: its callbacks are the caller's, and the fix is there. */
static void shrinker_report_futile(struct nlru_engine *eng, struct nlru_shrinker *shrinker,
				   unsigned long freeable)
{
	char address[32];

	if (atomic_exchange(&shrinker->futile_logged, true))
		return;
	snprintf(address, sizeof(address), "%p", (void *)shrinker);
	log_warn(&eng->log,
		 "shrinker %s: count reports %lu objects but %d scans in a row freed none; each "
		 "reclaim call now stops after %d such scans (return NLRU_SHRINK_STOP from scan, "
		 "or count only what scan can free)",
		 shrinker->def.name ? shrinker->def.name : address, freeable, SHRINK_FUTILE_BATCHES,
		 SHRINK_FUTILE_BATCHES);
}

/* do_shrink_slab(): one shrinker, one node. */
static unsigned long do_shrink_slab(struct nlru_engine *eng, struct nlru_shrinker *shrinker,
				    const struct nlru_shrink_control *ask, unsigned long nr_scanned,
				    unsigned long nr_eligible)
{
	const struct nlru_shrinker_def *def = &shrinker->def;
	int nid = (def->flags & NLRU_SHRINKER_NUMA_AWARE) ? ask->nid : 0;
	struct nlru_shrink_control sc = *ask;
	unsigned long freeable, total, freed = 0, batch = (unsigned long)def->batch;
	unsigned int futile = 0; /* batches in a row that freed nothing */
	long deferred;

	sc.nid = nid;
	shrinker_call_depth++;
	freeable = def->count(def->arg, &sc);
	shrinker_call_depth--;
	/* Unregistered meanwhile, by its own callback or another's: no call follows. */
	if (freeable == 0 || freeable == NLRU_SHRINK_STOP || atomic_load(&shrinker->dead))
		return 0;
	deferred = atomic_exchange(&shrinker->nr_deferred[nid], 0);
	total = shrink_slab_target(freeable, (unsigned long)MAX(deferred, 0), nr_scanned,
				   nr_eligible, def->seeks);
	while ((total >= batch || total >= freeable) && !atomic_load(&shrinker->dead)) {
		unsigned long ret;

		if (futile == SHRINK_FUTILE_BATCHES) {
			shrinker_report_futile(eng, shrinker, freeable);
			break;
		}
		sc.nr_to_scan = MIN(batch, total);
		sc.nr_scanned = sc.nr_to_scan;
		shrinker_call_depth++;
		ret = def->scan(def->arg, &sc);
		shrinker_call_depth--;
		if (ret == NLRU_SHRINK_STOP)
			break;
		futile = ret ? 0 : futile + 1;
		freed += ret;
		count_vm_events(eng, NLRU_SLABS_SCANNED, sc.nr_to_scan);
		total -= sc.nr_to_scan;
	}
	/* What was asked but not done is owed next time (4.8.0 to 4.8.15 behaviour). */
	if (total > 0)
		atomic_fetch_add(&shrinker->nr_deferred[nid], (long)total);
	return freed;
}

/*
 * The first live shrinker from @s on, marked active, or NULL.  An active shrinker stays on
 * the list, so the walk goes on from it after the lock is dropped for its calls.  Locked.
 */
static struct nlru_shrinker *shrinker_get_next(struct nlru_shrinker *s)
{
	while (s && s->dead)
		s = s->next;
	if (s)
		s->active++;
	return s;
}

/* A call of @s ended: free it if it died meanwhile, or wake its unregisterer.  Locked. */
static struct nlru_shrinker *shrinker_put(struct nlru_engine *eng, struct nlru_shrinker *s)
{
	struct nlru_shrinker *next = s->next;

	if (--s->active || !s->dead)
		return next;
	if (s->free_on_idle)
		shrinker_unlink_free(eng, s);
	else
		pthread_cond_broadcast(&eng->shrinker_idle);
	return next;
}

unsigned long shrink_slab(struct nlru_engine *eng, int nid, unsigned int gfp_mask, int priority,
			  unsigned long nr_scanned, unsigned long nr_eligible)
{
	struct nlru_shrink_control ask = {
		.nid = nid,
		.gfp_mask = gfp_mask,
		.priority = priority,
		.flags = (current_flags & PF_KSWAPD) ? NLRU_SHRINK_KSWAPD : 0,
	};
	struct nlru_shrinker *s;
	unsigned long freed = 0;

	if (nr_scanned == 0)
		nr_scanned = SWAP_CLUSTER_MAX;
	mutex_lock(&eng->shrinker_lock);
	for (s = shrinker_get_next(eng->shrinkers); s;
	     s = shrinker_get_next(shrinker_put(eng, s))) {
		mutex_unlock(&eng->shrinker_lock);
		freed += do_shrink_slab(eng, s, &ask, nr_scanned, nr_eligible);
		mutex_lock(&eng->shrinker_lock);
	}
	mutex_unlock(&eng->shrinker_lock);
	return freed;
}
