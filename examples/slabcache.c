/*
 * slabcache - a slab allocator on a nodelru engine, serving an object cache that reclaim
 * shrinks.
 *
 * Objects of one size live in slabs of two engine pages (nlru_alloc_pages(), order 1,
 * NLRU_GFP_SLAB_RECLAIMABLE).  Each node has its own list of slabs with free objects, and a
 * thread allocates from the node it runs on (nlru_current_node()), with slab pages from that
 * node only (NLRU_GFP_THISNODE), so its objects are local.  A slab's descriptor is kept off
 * the slab, and the slab's head page points to it (nlru_page_set_private()): freeing an object
 * finds its slab from the object's address alone (nlru_page_private()), as Linux's
 * kmem_cache_free() does through virt_to_head_page().
 *
 * The objects are the entries of a cache (a key and a checksummed payload), kept on an LRU
 * list.  A shrinker offers them to reclaim: count is the number of cached entries, scan evicts
 * the oldest, and a slab left empty goes back to the engine, which counts it as reclaimed.
 * Threads insert and look up keys while an anonymous region, as large as the engine, keeps
 * memory short; every lookup checks its entry.  At the end the program prints what the
 * shrinker evicted, how many slabs were local, and the engine's counters; it exits 0 only if
 * no entry was ever wrong and everything is freed.
 *
 * Usage: slabcache [threads] [operations per thread]
 */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <nodelru/nodelru.h>
#include <nodelru/vmstat.h>

#define ENGINE_MIB 16   /* per node */
#define SLAB_ORDER 1    /* two pages a slab */
#define OBJECT_SIZE 256 /* bytes */
#define OBJECTS_PER_SLAB ((NLRU_PAGE_SIZE << SLAB_ORDER) / OBJECT_SIZE)
#define MAX_NODES 8
#define KEYS 65536

struct slab {
	struct slab *next, *prev; /* on its node's list of slabs with free objects */
	void *base;               /* the slab's memory */
	void *free;               /* free objects, linked through their first word */
	unsigned int inuse;
	int node;
};

struct slab_node {
	pthread_mutex_t lock;
	struct slab partial; /* list head: slabs with a free object */
	long slabs;
};

struct object {
	struct object *lru_next, *lru_prev; /* on the cache's LRU list, oldest at the tail */
	uint64_t key;
	uint32_t checksum;
	unsigned char payload[OBJECT_SIZE - 2 * sizeof(void *) - 12];
};

struct cache {
	struct nlru_engine *eng;
	int nr_nodes;
	struct slab_node nodes[MAX_NODES];
	pthread_mutex_t lock; /* the index and the LRU list */
	struct object *index[KEYS];
	struct object lru;
	_Atomic long cached, evicted, local_slabs, remote_slabs, wrong, failed;
};

_Static_assert(sizeof(struct object) == OBJECT_SIZE, "an object fills its slot");

static uint32_t checksum(const struct object *o)
{
	uint32_t h = 2166136261u ^ (uint32_t)o->key;

	for (size_t i = 0; i < sizeof(o->payload); i++)
		h = (h ^ o->payload[i]) * 16777619u;
	return h;
}

static void list_add(struct slab *head, struct slab *s)
{
	s->next = head->next;
	s->prev = head;
	head->next->prev = s;
	head->next = s;
}

static void list_del(struct slab *s)
{
	s->prev->next = s->next;
	s->next->prev = s->prev;
	s->next = s->prev = s;
}

/* A new slab on @node: its pages, its descriptor, and the head page pointing to it. */
static struct slab *slab_new(struct cache *c, int node)
{
	struct slab *s = calloc(1, sizeof(*s));
	int err;

	if (!s)
		return NULL;
	err = nlru_alloc_pages(c->eng,
			       NLRU_GFP_KERNEL | NLRU_GFP_SLAB_RECLAIMABLE | NLRU_GFP_THISNODE |
				       NLRU_GFP_NOWARN,
			       SLAB_ORDER, node, &s->base);
	if (err) {
		free(s);
		return NULL;
	}
	nlru_page_set_private(c->eng, s->base, (uint64_t)(uintptr_t)s);
	s->node = node;
	s->next = s->prev = s;
	for (size_t i = 0; i < OBJECTS_PER_SLAB; i++) {
		void **obj = (void **)((char *)s->base + i * OBJECT_SIZE);

		*obj = s->free;
		s->free = obj;
	}
	if (nlru_addr_node(c->eng, s->base, NLRU_PAGE_SIZE << SLAB_ORDER) == node)
		atomic_fetch_add(&c->local_slabs, 1);
	else
		atomic_fetch_add(&c->remote_slabs, 1);
	return s;
}

/* kmem_cache_alloc(): an object from a slab of the calling thread's node. */
static void *object_alloc(struct cache *c)
{
	int node = nlru_current_node(c->eng);
	struct slab_node *n = &c->nodes[node];
	struct slab *s;
	void *obj;

	pthread_mutex_lock(&n->lock);
	s = n->partial.next;
	if (s == &n->partial) {
		/* The engine may reclaim, and call our shrinker: no lock of ours is held. */
		pthread_mutex_unlock(&n->lock);
		s = slab_new(c, node);
		if (!s)
			return NULL;
		pthread_mutex_lock(&n->lock);
		list_add(&n->partial, s);
		n->slabs++;
	}
	obj = s->free;
	s->free = *(void **)obj;
	if (++s->inuse == OBJECTS_PER_SLAB)
		list_del(s);
	pthread_mutex_unlock(&n->lock);
	return obj;
}

/* kmem_cache_free(): the slab is found from the object's address through its head page. */
static void object_free(struct cache *c, void *obj)
{
	struct slab_node *n;
	uint64_t word;
	struct slab *s;
	bool empty;

	if (nlru_page_private(c->eng, obj, &word) || !word) {
		atomic_fetch_add(&c->failed, 1);
		return;
	}
	s = (struct slab *)(uintptr_t)word;
	n = &c->nodes[s->node];
	pthread_mutex_lock(&n->lock);
	if (s->inuse-- == OBJECTS_PER_SLAB)
		list_add(&n->partial, s);
	*(void **)obj = s->free;
	s->free = obj;
	empty = s->inuse == 0;
	if (empty) {
		list_del(s);
		n->slabs--;
	}
	pthread_mutex_unlock(&n->lock);
	if (empty) {
		if (nlru_free_pages(c->eng, s->base, SLAB_ORDER))
			atomic_fetch_add(&c->failed, 1);
		free(s);
	}
}

static void lru_unlink(struct object *o)
{
	o->lru_prev->lru_next = o->lru_next;
	o->lru_next->lru_prev = o->lru_prev;
}

static void lru_push(struct cache *c, struct object *o)
{
	o->lru_next = c->lru.lru_next;
	o->lru_prev = &c->lru;
	c->lru.lru_next->lru_prev = o;
	c->lru.lru_next = o;
}

/* Evict up to @nr of the oldest entries; how many went. */
static unsigned long evict(struct cache *c, unsigned long nr)
{
	unsigned long done = 0;

	while (done < nr) {
		struct object *o;

		pthread_mutex_lock(&c->lock);
		o = c->lru.lru_prev;
		if (o == &c->lru) {
			pthread_mutex_unlock(&c->lock);
			break;
		}
		lru_unlink(o);
		c->index[o->key % KEYS] = NULL;
		pthread_mutex_unlock(&c->lock);
		object_free(c, o);
		atomic_fetch_sub(&c->cached, 1);
		done++;
	}
	return done;
}

static unsigned long cache_count(void *arg, struct nlru_shrink_control *sc)
{
	struct cache *c = arg;

	return (unsigned long)atomic_load(&c->cached);
}

static unsigned long cache_scan(void *arg, struct nlru_shrink_control *sc)
{
	struct cache *c = arg;
	unsigned long freed = evict(c, sc->nr_to_scan);

	atomic_fetch_add(&c->evicted, (long)freed);
	return freed;
}

/* Look @key up (checking the entry found), or insert it. */
static void lookup_or_insert(struct cache *c, uint64_t key)
{
	struct object *o;

	pthread_mutex_lock(&c->lock);
	o = c->index[key % KEYS];
	if (o) {
		if (o->key != key || o->checksum != checksum(o))
			atomic_fetch_add(&c->wrong, 1);
		lru_unlink(o);
		lru_push(c, o);
		pthread_mutex_unlock(&c->lock);
		return;
	}
	pthread_mutex_unlock(&c->lock);
	o = object_alloc(c);
	if (!o)
		return; /* memory short even after reclaim: a cache may go without */
	o->key = key;
	for (size_t i = 0; i < sizeof(o->payload); i++)
		o->payload[i] = (unsigned char)(key * 31 + i);
	o->checksum = checksum(o);
	pthread_mutex_lock(&c->lock);
	if (c->index[key % KEYS]) { /* another thread inserted it meanwhile */
		pthread_mutex_unlock(&c->lock);
		object_free(c, o);
		return;
	}
	c->index[key % KEYS] = o;
	lru_push(c, o);
	pthread_mutex_unlock(&c->lock);
	atomic_fetch_add(&c->cached, 1);
}

struct worker {
	struct cache *cache;
	long ops;
	unsigned int seed;
};

static void *worker_main(void *arg)
{
	struct worker *w = arg;

	for (long i = 0; i < w->ops; i++)
		lookup_or_insert(w->cache, (uint64_t)rand_r(&w->seed) % KEYS);
	return NULL;
}

struct hog {
	struct nlru_region *region;
	size_t pages;
};

/* Write every page of the hog once: anonymous memory as large as the engine. */
static void *hog_main(void *arg)
{
	struct hog *hog = arg;
	void *p;

	for (size_t i = 0; i < hog->pages; i++)
		if (nlru_region_pin(hog->region, i, NLRU_PIN_WRITE, &p) == 0) {
			memset(p, 1, 64);
			nlru_region_unpin(hog->region, i);
		}
	return NULL;
}

int main(int argc, char **argv)
{
	int threads = argc > 1 ? atoi(argv[1]) : 2;
	long ops = argc > 2 ? atol(argv[2]) : 200000;
	static struct cache c;
	struct nlru_shrinker_def def = {.size = sizeof(def),
					.count = cache_count,
					.scan = cache_scan,
					.arg = &c,
					.name = "slabcache"};
	struct nlru_shrinker *shrinker;
	struct nlru_config cfg;
	struct hog hog;
	pthread_t tid[16], hog_tid;
	struct worker w[16];
	int64_t reclaimable = -1;

	if (threads < 1 || threads > 16)
		threads = 2;
	nlru_config_init(&cfg);
	cfg.node_mib = ENGINE_MIB;
	cfg.topology = "pack:2 numa:1 core:1 pu:1"; /* two emulated nodes */
	if (nlru_engine_create(&cfg, &c.eng))
		return 1;
	c.nr_nodes = nlru_engine_nr_nodes(c.eng);
	for (int n = 0; n < c.nr_nodes && n < MAX_NODES; n++) {
		pthread_mutex_init(&c.nodes[n].lock, NULL);
		c.nodes[n].partial.next = c.nodes[n].partial.prev = &c.nodes[n].partial;
	}
	pthread_mutex_init(&c.lock, NULL);
	c.lru.lru_next = c.lru.lru_prev = &c.lru;
	hog.pages = (size_t)c.nr_nodes * ENGINE_MIB * 256;
	if (nlru_shrinker_register(c.eng, &def, &shrinker) ||
	    nlru_region_create(c.eng, hog.pages, NLRU_NUMA_NO_NODE, &hog.region))
		return 1;
	pthread_create(&hog_tid, NULL, hog_main, &hog);
	for (int i = 0; i < threads; i++) {
		w[i] = (struct worker){&c, ops, 17u * (unsigned int)i + 1};
		pthread_create(&tid[i], NULL, worker_main, &w[i]);
	}
	for (int i = 0; i < threads; i++)
		pthread_join(tid[i], NULL);
	pthread_join(hog_tid, NULL);

	printf("slabcache: %d threads x %ld lookups of %d keys, %d nodes of %d MiB\n", threads, ops,
	       KEYS, c.nr_nodes, ENGINE_MIB);
	printf("cached %ld entries at the end; the shrinker evicted %ld; %ld slabs local, %ld "
	       "remote; %ld wrong entries, %ld failed frees\n",
	       atomic_load(&c.cached), atomic_load(&c.evicted), atomic_load(&c.local_slabs),
	       atomic_load(&c.remote_slabs), atomic_load(&c.wrong), atomic_load(&c.failed));

	/* Tear down in reverse: the shrinker, the entries (and so every slab), the hog. */
	nlru_shrinker_unregister(shrinker);
	evict(&c, (unsigned long)KEYS);
	struct nlru_vmstat snap = {.size = sizeof(snap), .version = NLRU_VMSTAT_VERSION};
	nlru_vmstat_read(c.eng, &snap);
	nlru_vmstat_get(&snap, "nr_slab_reclaimable", &reclaimable);
	printf("after freeing every entry: nr_slab_reclaimable %lld\n", (long long)reclaimable);
	if (nlru_region_destroy(hog.region) || nlru_engine_destroy(c.eng))
		return 1;
	return atomic_load(&c.wrong) || atomic_load(&c.failed) || reclaimable != 0 ||
	       atomic_load(&c.remote_slabs) != 0;
}
