/*
 * kvcache - a key-value cache larger than its memory, on a nodelru engine.
 *
 * Values live in an engine anonymous region, one page each: the engine keeps the hot ones
 * resident and swaps the cold ones out, and a get pins its page back in, intact.  The
 * cache's own metadata, the hash table and its entries, lives in a jemalloc arena on engine
 * pages (libnodelru-jemalloc), so the engine accounts for every byte the cache uses and can
 * ask for unused metadata pages back under pressure.
 *
 * Several threads put and get at once, most often a small hot set of keys, under a budget
 * half the size of the data; every get is checked against the checksum kept with its key.
 * At the end the cache prints its hit rate (gets that found their value resident) and the
 * engine's counters, and exits 0 only if every value came back intact.
 *
 * Usage: kvcache [threads] [keys] [operations per thread]
 */
#include <errno.h>
#include <jemalloc/jemalloc.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <nodelru/jemalloc.h>
#include <nodelru/nodelru.h>
#include <nodelru/vmstat.h>

#define ENGINE_MIB 32
#define VALUE_MAX NLRU_PAGE_SIZE
#define STRIPES 64 /* bucket locks */

struct entry {
	struct entry *next; /* hash chain */
	uint64_t key;
	size_t slot;       /* the value's page in the region */
	uint32_t len;      /* bytes of the value */
	uint32_t checksum; /* of the value as put, checked on every get */
};

struct kvcache {
	struct nlru_engine *eng;
	struct nlru_region *values; /* one page per key */
	struct nlru_jemalloc *meta; /* arena for buckets and entries */
	int mflags;                 /* MALLOCX_ARENA(meta's arena) | MALLOCX_TCACHE_NONE */
	struct entry **buckets;
	size_t nbuckets; /* a power of two */
	pthread_mutex_t locks[STRIPES];
	_Atomic size_t next_slot;
	_Atomic unsigned long gets, hits, corrupt;
};

static uint32_t fnv1a(const unsigned char *p, size_t len)
{
	uint32_t h = 2166136261u;

	while (len--)
		h = (h ^ *p++) * 16777619u;
	return h;
}

static size_t bucket_of(const struct kvcache *kv, uint64_t key)
{
	return (size_t)((key * 0x9e3779b97f4a7c15ull) >> 32) & (kv->nbuckets - 1);
}

static pthread_mutex_t *lock_of(struct kvcache *kv, size_t bucket)
{
	return &kv->locks[bucket % STRIPES];
}

/* Lock @key's bucket (*@b, still locked on return) and find its entry, or NULL. */
static struct entry *lookup_locked(struct kvcache *kv, uint64_t key, size_t *b)
{
	struct entry *e;

	*b = bucket_of(kv, key);
	pthread_mutex_lock(lock_of(kv, *b));
	for (e = kv->buckets[*b]; e && e->key != key; e = e->next)
		;
	return e;
}

/* Store @len bytes of @value under @key: a new entry and page, or the old ones rewritten. */
static int kv_put(struct kvcache *kv, uint64_t key, const void *value, uint32_t len)
{
	size_t b;
	struct entry *e = lookup_locked(kv, key, &b);
	void *page;
	int r;

	if (!e) {
		e = mallocx(sizeof(*e), kv->mflags);
		if (!e) {
			r = -ENOMEM;
			goto out_unlock;
		}
		/* Until its first write succeeds, the value reads back empty. */
		*e = (struct entry){.next = kv->buckets[b],
				    .key = key,
				    .slot = kv->next_slot++,
				    .checksum = fnv1a(value, 0)};
		kv->buckets[b] = e;
	}
	r = nlru_region_pin(kv->values, e->slot, NLRU_PIN_WRITE, &page);
	if (!r) {
		memcpy(page, value, len);
		nlru_region_unpin(kv->values, e->slot);
		e->len = len;
		e->checksum = fnv1a(value, len);
	}
out_unlock:
	pthread_mutex_unlock(lock_of(kv, b));
	return r;
}

/* Copy @key's value into @buf (VALUE_MAX bytes).  Its length, -ENOENT, or -EIO if corrupt. */
static int kv_get(struct kvcache *kv, uint64_t key, unsigned char *buf)
{
	size_t b;
	struct entry *e = lookup_locked(kv, key, &b);
	void *page;
	int r = e ? 0 : -ENOENT;

	if (e) {
		/* Resident now (a hit), or about to come back from swap (a miss)? */
		if (nlru_region_mark_accessed(kv->values, e->slot) == 0)
			kv->hits++;
		kv->gets++;
		r = nlru_region_pin(kv->values, e->slot, 0, &page);
	}
	if (e && !r) {
		memcpy(buf, page, e->len);
		nlru_region_unpin(kv->values, e->slot);
		r = fnv1a(buf, e->len) == e->checksum ? (int)e->len : -EIO;
	}
	pthread_mutex_unlock(lock_of(kv, b));
	if (r == -EIO)
		kv->corrupt++;
	return r;
}

static int kv_create(struct nlru_engine *eng, size_t keys, struct kvcache *kv)
{
	unsigned int arena;
	int r;

	*kv = (struct kvcache){.eng = eng, .nbuckets = 1};
	while (kv->nbuckets < keys)
		kv->nbuckets *= 2;
	for (int i = 0; i < STRIPES; i++)
		pthread_mutex_init(&kv->locks[i], NULL);
	r = nlru_region_create(eng, keys, NLRU_NUMA_NO_NODE, &kv->values);
	if (!r)
		r = nlru_jemalloc_create(eng, NULL, &kv->meta);
	if (r)
		return r;
	nlru_jemalloc_arena(kv->meta, &arena);
	kv->mflags = MALLOCX_ARENA(arena) | MALLOCX_TCACHE_NONE;
	kv->buckets = mallocx(kv->nbuckets * sizeof(*kv->buckets), kv->mflags | MALLOCX_ZERO);
	return kv->buckets ? 0 : -ENOMEM;
}

/* Everything back to the engine; each destroy refuses (-EBUSY) if something was left. */
static int kv_destroy(struct kvcache *kv)
{
	for (size_t b = 0; b < kv->nbuckets; b++) {
		while (kv->buckets[b]) {
			struct entry *next = kv->buckets[b]->next;

			dallocx(kv->buckets[b], kv->mflags);
			kv->buckets[b] = next;
		}
	}
	dallocx(kv->buckets, kv->mflags);
	return nlru_jemalloc_destroy(kv->meta) || nlru_region_destroy(kv->values);
}

/* A value that depends on key and version, 64 to VALUE_MAX bytes of it. */
static uint32_t make_value(uint64_t key, uint32_t version, unsigned char *buf)
{
	uint64_t x = key * 0x2545f4914f6cdd1dull + version + 1;
	uint32_t len = 64 + (uint32_t)(x % (VALUE_MAX - 63));

	for (uint32_t i = 0; i < len; i++) {
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		buf[i] = (unsigned char)x;
	}
	return len;
}

struct worker {
	struct kvcache *kv;
	size_t keys;
	long ops;
	unsigned int seed;
	int errors;
};

/* 80 % gets and 20 % puts; nine operations in ten go to the hottest tenth of the keys. */
static void *worker_main(void *arg)
{
	struct worker *w = arg;
	unsigned char buf[VALUE_MAX];

	for (long op = 0; op < w->ops; op++) {
		size_t hot = w->keys / 10 + 1;
		uint64_t key = rand_r(&w->seed) % 10 ? (uint64_t)rand_r(&w->seed) % hot
						     : (uint64_t)rand_r(&w->seed) % w->keys;

		if (rand_r(&w->seed) % 5 == 0) {
			uint32_t len = make_value(key, (uint32_t)op, buf);

			w->errors += kv_put(w->kv, key, buf, len) != 0;
		} else {
			w->errors += kv_get(w->kv, key, buf) < 0;
		}
	}
	return NULL;
}

struct outcome {
	unsigned long gets, hits; /* of the threads' workload */
	int errors;               /* failed operations, corrupt values included */
};

static struct outcome run(struct kvcache *kv, int threads, size_t keys, long ops)
{
	struct worker w[64];
	pthread_t tid[64];
	unsigned char buf[VALUE_MAX];
	struct outcome out = {0};

	for (uint64_t key = 0; key < keys; key++)
		out.errors += kv_put(kv, key, buf, make_value(key, 0, buf)) != 0;
	for (int t = 0; t < threads; t++) {
		w[t] = (struct worker){
			.kv = kv, .keys = keys, .ops = ops, .seed = 42u + (unsigned)t};
		pthread_create(&tid[t], NULL, worker_main, &w[t]);
	}
	for (int t = 0; t < threads; t++) {
		pthread_join(tid[t], NULL);
		out.errors += w[t].errors;
	}
	out.gets = kv->gets;
	out.hits = kv->hits;
	/* Every value, hot or long swapped out, is read back once more and checked. */
	for (uint64_t key = 0; key < keys; key++)
		out.errors += kv_get(kv, key, buf) < 0;
	return out;
}

static void report(struct kvcache *kv, size_t keys, int threads, long ops, struct outcome out)
{
	static const char *const counters[] = {
		"pgmajfault",     "pswpin",        "pswpout",        "pgscan_kswapd",
		"pgsteal_kswapd", "pgscan_direct", "pgsteal_direct", "nr_slab_unreclaimable",
		"slabs_scanned",  "nr_free_pages",
	};
	struct nlru_vmstat snap = {.size = sizeof(snap), .version = NLRU_VMSTAT_VERSION};
	struct nlru_jemalloc_stats js = {.size = sizeof(js),
					 .version = NLRU_JEMALLOC_STATS_VERSION};

	nlru_vmstat_read(kv->eng, &snap);
	nlru_jemalloc_stats(kv->meta, &js);
	printf("kvcache: %zu keys, %zu MiB of values in a %d MiB engine, %d threads x %ld ops\n",
	       keys, keys * VALUE_MAX >> 20, ENGINE_MIB, threads, ops);
	printf("gets %lu, hit rate %.1f %% (value resident); then every key read back: "
	       "%lu corrupt values, %d failed operations\n",
	       out.gets, out.gets ? 100.0 * (double)out.hits / (double)out.gets : 0.0, kv->corrupt,
	       out.errors);
	printf("metadata: %llu engine pages in its jemalloc arena\nengine vmstat:\n",
	       (unsigned long long)js.pages);
	for (size_t i = 0; i < sizeof(counters) / sizeof(counters[0]); i++) {
		int64_t v = 0;

		nlru_vmstat_get(&snap, counters[i], &v);
		printf("  %-22s %lld\n", counters[i], (long long)v);
	}
}

static void log_to_stderr(void *arg, enum nlru_log_level level, const char *msg)
{
	if (level <= NLRU_LOG_WARN)
		fprintf(stderr, "kvcache: %s\n", msg);
}

int main(int argc, char **argv)
{
	int threads = argc > 1 ? atoi(argv[1]) : 4;
	size_t keys = argc > 2 ? strtoul(argv[2], NULL, 0) : 2 * (ENGINE_MIB << 8);
	long ops = argc > 3 ? atol(argv[3]) : 20000;
	struct nlru_config cfg;
	struct nlru_engine *eng;
	struct kvcache kv;
	struct outcome out;

	if (threads < 1 || threads > 64 || keys < 1) {
		fprintf(stderr, "usage: kvcache [threads 1-64] [keys] [operations per thread]\n");
		return 2;
	}
	nlru_config_init(&cfg);
	cfg.node_mib = ENGINE_MIB;
	cfg.swap_mib = 4 * ENGINE_MIB + (long)(keys >> 8);
	cfg.prefault = 1;
	cfg.log = log_to_stderr;
	if (nlru_engine_create(&cfg, &eng))
		return 1;
	if (kv_create(eng, keys, &kv)) {
		fprintf(stderr, "kvcache: cannot create the cache\n");
		return 1;
	}
	out = run(&kv, threads, keys, ops);
	report(&kv, keys, threads, ops, out);
	if (kv_destroy(&kv) || nlru_engine_destroy(eng))
		out.errors++;
	return out.errors ? 1 : 0;
}
