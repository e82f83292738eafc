/*
 * preload.c - libnodelru-preload.so: an unmodified program's malloc served from an engine's
 * memory, under the engine's budget, by LD_PRELOAD.
 *
 *	NLRU_NODE_MIB=64 LD_PRELOAD=libnodelru-preload.so program ...
 *
 * At load, it makes an engine from the environment (every NLRU_* tunable, as
 * nlru_config_init() reads them) and a heap on it (preload_heap.c); from then on malloc,
 * calloc, realloc, free and the aligned forms of the program's threads are jemalloc's,
 * on an arena whose memory is a mapped region of the engine: the program keeps at most the
 * engine's memory resident in its heap, and the engine swaps the rest.
 *
 * Who is served from where:
 *  - the program's threads: the heap, through jemalloc (its thread caches included);
 *  - the engine's own threads (nlru_in_engine_thread()), allocations made while this library
 *    sets the engine up or writes its report, allocations made before that (by ld.so's and
 *    other libraries' constructors), and everything in a child made by fork(): glibc's
 *    malloc (__libc_malloc).  An engine thread must never touch the heap: a touch may need
 *    a fault thread, and the fault thread may be waiting for it;
 *  - free() and realloc() look at the address: the heap's go to jemalloc, others to glibc;
 *  - what pthread_create() allocates for the new thread: glibc (see there).
 *
 * Environment, besides the engine's NLRU_* tunables (of which NLRU_SWAP_MIB defaults to four
 * times a node's memory here, not twice the engine's: a program under a budget is meant to
 * outgrow it):
 *  NLRU_PRELOAD_HEAP_MIB  address space of the heap, MiB (default 4096): the most the
 *                         program can have allocated at once; the engine's memory bounds
 *                         how much of it is resident
 *  NLRU_PRELOAD_FAULT_THREADS  the heap's fault threads (default 2)
 *  NLRU_PRELOAD_DECAY_MS  how long freed heap pages stay before they go back to the engine
 *                         (jemalloc's dirty_decay_ms, default 1000)
 *  NLRU_PRELOAD_VMSTAT    a file to write the engine's /proc/vmstat to at exit ("-": stderr)
 *  NLRU_PRELOAD_LOG       the engine's messages up to this level go to stderr: error, warn
 *                         (default), info, debug
 *
 * When the engine or the heap cannot be made (userfaultfd refused, a bad setting), the reason
 * goes to stderr once and the program runs on glibc's malloc, unmanaged.  Nothing is printed
 * to stdout, ever.
 *
 * fork(): the heap is not copied into a child (a mapped region is MADV_DONTFORK), so a child
 * allocates from glibc, and its free() or realloc() of a heap address leaks it instead of
 * touching memory the child does not have.  A child that execs, as most do, loses nothing.
 */
#include <dlfcn.h>
#include <errno.h>
#include <jemalloc/jemalloc.h>
#include <malloc.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <nodelru/vmstat.h>

#include "preload.h"

#define PUBLIC __attribute__((visibility("default")))

/* glibc's own allocator, under the names it exports for code that replaces malloc. */
extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t n, size_t size);
extern void *__libc_realloc(void *p, size_t size);
extern void *__libc_memalign(size_t alignment, size_t size);
extern void __libc_free(void *p);

static struct preload_heap heap;
static struct nlru_engine *engine;
static atomic_bool heap_ready; /* the heap serves the program's threads */
static bool forked_child;      /* this process is a child of fork(): glibc only */
static int log_level = NLRU_LOG_WARN;

/* Per thread: 0 not yet known, 1 served from the heap, 2 from glibc. */
static __thread int thread_source;
/* Nonzero while this library itself calls the engine or jemalloc's mallctl. */
static __thread int inside_preload;

static bool use_heap(void)
{
	if (!atomic_load_explicit(&heap_ready, memory_order_acquire) || inside_preload)
		return false;
	if (__builtin_expect(!thread_source, 0))
		thread_source = nlru_in_engine_thread() ? 2 : 1;
	return thread_source == 1 && !forked_child;
}

static int heap_flags(void)
{
	return (int)MALLOCX_ARENA(heap.arena);
}

/* glibc's malloc_usable_size(), which this library's replaces: looked up at first use. */
static size_t (*libc_usable_size_fn)(void *p);

static size_t libc_usable_size(void *p)
{
	if (!libc_usable_size_fn) {
		/* dlopen() may allocate: the heap is not ready, so glibc serves it. */
		void *libc = dlopen("libc.so.6", RTLD_LAZY | RTLD_NOLOAD);
		void *sym = libc ? dlvsym(libc, "malloc_usable_size", "GLIBC_2.2.5") : NULL;

		/* POSIX's way from dlsym() to a function: copy the pointer's bytes. */
		memcpy(&libc_usable_size_fn, &sym, sizeof(sym));
		if (!libc_usable_size_fn)
			return 0; /* not glibc: no block of it was ever handed out */
	}
	return libc_usable_size_fn(p);
}

PUBLIC void *malloc(size_t size)
{
	if (!use_heap())
		return __libc_malloc(size);
	return mallocx(size ? size : 1, heap_flags());
}

PUBLIC void *calloc(size_t n, size_t size)
{
	size_t bytes;

	if (!use_heap())
		return __libc_calloc(n, size);
	if (__builtin_mul_overflow(n, size, &bytes)) {
		errno = ENOMEM;
		return NULL;
	}
	return mallocx(bytes ? bytes : 1, heap_flags() | MALLOCX_ZERO);
}

PUBLIC void free(void *p)
{
	if (!p)
		return;
	if (preload_heap_owns(&heap, p)) {
		if (!forked_child)
			dallocx(p, 0);
		return;
	}
	__libc_free(p);
}

PUBLIC void *realloc(void *p, size_t size)
{
	void *q;
	size_t old;

	if (!p)
		return malloc(size);
	if (!size) {
		free(p);
		return NULL;
	}
	if (preload_heap_owns(&heap, p)) {
		if (forked_child) {
			errno = ENOMEM; /* the child does not have the old contents */
			return NULL;
		}
		if (use_heap())
			return rallocx(p, size, heap_flags());
		old = sallocx(p, 0);
	} else {
		if (!use_heap())
			return __libc_realloc(p, size);
		old = libc_usable_size(p);
	}
	/* From one allocator to the other: copy, then free the old block where it lives. */
	q = malloc(size);
	if (q) {
		memcpy(q, p, old < size ? old : size);
		free(p);
	}
	return q;
}

static void *aligned(size_t alignment, size_t size)
{
	if (!use_heap())
		return __libc_memalign(alignment, size);
	return mallocx(size ? size : 1, heap_flags() | MALLOCX_ALIGN(alignment));
}

PUBLIC int posix_memalign(void **out, size_t alignment, size_t size)
{
	void *p;

	if (alignment < sizeof(void *) || (alignment & (alignment - 1)))
		return EINVAL;
	p = aligned(alignment, size);
	if (!p)
		return ENOMEM;
	*out = p;
	return 0;
}

PUBLIC void *aligned_alloc(size_t alignment, size_t size)
{
	if (!alignment || (alignment & (alignment - 1))) {
		errno = EINVAL;
		return NULL;
	}
	return aligned(alignment, size);
}

PUBLIC void *memalign(size_t alignment, size_t size)
{
	return aligned_alloc(alignment < sizeof(void *) ? sizeof(void *) : alignment, size);
}

PUBLIC void *valloc(size_t size)
{
	return aligned((size_t)NLRU_PAGE_SIZE, size);
}

PUBLIC void *pvalloc(size_t size)
{
	return aligned((size_t)NLRU_PAGE_SIZE,
		       (size + NLRU_PAGE_SIZE - 1) & ~(size_t)(NLRU_PAGE_SIZE - 1));
}

PUBLIC size_t malloc_usable_size(void *p)
{
	if (!p)
		return 0;
	if (preload_heap_owns(&heap, p))
		return forked_child ? 0 : sallocx(p, 0);
	return libc_usable_size(p);
}

/*
 * Threads are made with the heap out of the way: pthread_create() allocates the new thread's
 * table of thread-local storage blocks (ld.so's DTV), which every access to a shared
 * library's thread-local variables reads.  On the heap, a swapped-out DTV would make the
 * engine's own code fault while it holds an engine lock (in a purge hook, say), with the
 * fault thread waiting for that lock.
 */
PUBLIC int pthread_create(pthread_t *thread, const pthread_attr_t *attr, void *(*start)(void *),
			  void *arg)
{
	static int (*real)(pthread_t *, const pthread_attr_t *, void *(*)(void *), void *);
	int r;

	inside_preload++;
	if (!real) {
		void *sym = dlsym(RTLD_NEXT, "pthread_create");

		memcpy(&real, &sym, sizeof(sym));
	}
	r = real ? real(thread, attr, start, arg) : EAGAIN;
	inside_preload--;
	return r;
}

static const char *const level_names[] = {"error", "warn", "info", "debug"};

/*
 * With write(2), not stdio: a fault thread may log while the program's thread it serves holds
 * stderr's lock (a fprintf() of a string that had been swapped out).
 */
static void log_to_stderr(void *arg, enum nlru_log_level level, const char *msg)
{
	char line[600];
	int n;

	if ((int)level > log_level)
		return;
	n = snprintf(line, sizeof(line), "nodelru-preload: %s: %s\n", level_names[level], msg);
	if (n > 0 &&
	    write(STDERR_FILENO, line, (size_t)n < sizeof(line) ? (size_t)n : sizeof(line) - 1) < 0)
		return; /* nowhere else to say it */
}

/* A number from the environment, or @def; a bad one is said and ignored. */
static long env_long(const char *name, long def, long min, long max)
{
	const char *text = getenv(name);
	char *end;
	long v;

	if (!text || !*text)
		return def;
	errno = 0;
	v = strtol(text, &end, 0);
	if (errno || *end || v < min || v > max) {
		fprintf(stderr,
			"nodelru-preload: %s=%s is not a number from %ld to %ld; using %ld\n", name,
			text, min, max, def);
		return def;
	}
	return v;
}

static void mark_child(void)
{
	forked_child = true;
}

__attribute__((constructor)) static void preload_init(void)
{
	const char *level = getenv("NLRU_PRELOAD_LOG");
	struct nlru_config cfg;
	int r;

	inside_preload++;
	for (int i = 0; level && i < 4; i++)
		if (!strcmp(level, level_names[i]))
			log_level = i;
	nlru_config_init(&cfg);
	cfg.log = log_to_stderr;
	/* A program under a budget is meant to outgrow it: more swap than the engine's default. */
	if (!getenv("NLRU_SWAP_MIB"))
		cfg.swap_mib = 4 * cfg.node_mib;
	r = nlru_engine_create(&cfg, &engine);
	if (!r)
		r = preload_heap_create(
			&heap, engine,
			(size_t)env_long("NLRU_PRELOAD_HEAP_MIB", 4096, 1, 1L << 24) << 20,
			(unsigned int)env_long("NLRU_PRELOAD_FAULT_THREADS", 2, 1, 64),
			env_long("NLRU_PRELOAD_DECAY_MS", 1000, -1, 1L << 40));
	if (r) {
		fprintf(stderr,
			"nodelru-preload: %s; the program runs on glibc's malloc, "
			"unmanaged\n",
			strerror(-r));
		if (engine)
			nlru_engine_destroy(engine);
		engine = NULL;
	} else {
		pthread_atfork(NULL, NULL, mark_child);
		atomic_store_explicit(&heap_ready, true, memory_order_release);
	}
	inside_preload--;
}

/*
 * At exit the engine stays: other destructors and atexit handlers may still use the heap.  The
 * process's end takes the engine's threads, its memory and its swap file (unlinked at open).
 */
__attribute__((destructor)) static void preload_report(void)
{
	const char *path = getenv("NLRU_PRELOAD_VMSTAT");
	FILE *out;

	if (!engine || forked_child || !path || !*path)
		return;
	inside_preload++;
	out = strcmp(path, "-") ? fopen(path, "w") : stderr;
	if (!out) {
		fprintf(stderr, "nodelru-preload: cannot write the vmstat to %s: %s\n", path,
			strerror(errno));
	} else {
		nlru_vmstat_dump(engine, out);
		if (out != stderr)
			fclose(out);
	}
	inside_preload--;
}
