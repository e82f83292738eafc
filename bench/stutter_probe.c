/*
 * stutter_probe - the latency probe thread.  Its loop is mmap-latency.c's: sleep 5 ms, map,
 * write one word to every page, unmap, take the time; the time includes the sleep and its
 * overshoot, as mmtests' does, and is measured from the end of the previous iteration.
 */
#include "stutter_probe.h"

#include <errno.h>
#include <time.h>

#include "bench_util.h"

size_t stutter_probe_pages(size_t engine_pages)
{
	size_t pages = engine_pages / PROBE_ENGINE_SHARE;

	if (pages < PROBE_MIN_PAGES)
		return PROBE_MIN_PAGES;
	return pages > PROBE_FULL_SCALE_PAGES ? PROBE_FULL_SCALE_PAGES : pages;
}

/* One mmap, touch, munmap.  0, or -errno when the region could not be made. */
static int probe_once(struct stutter_probe *p, uint64_t stamp)
{
	struct nlru_region *r;
	int err = nlru_region_create(p->eng, p->pages, NLRU_NUMA_NO_NODE, &r);

	if (err)
		return err;
	for (size_t i = 0; i < p->pages; i++) {
		void *addr;

		if (nlru_region_pin(r, i, NLRU_PIN_WRITE, &addr)) {
			/* Linux would OOM-kill someone; the probe just counts it and goes on. */
			p->failed_touches++;
			break;
		}
		*(volatile uint64_t *)addr = stamp;
		nlru_region_unpin(r, i);
	}
	return nlru_region_destroy(r);
}

static void *probe_main(void *arg)
{
	struct stutter_probe *p = arg;
	struct timespec delay = {0, (long)LATENCY_DELAY_NS};
	uint64_t time0, time1 = now_ns();

	/* At least one sample, however late the thread gets a CPU on a busy machine. */
	do {
		nanosleep(&delay, NULL);
		p->err = probe_once(p, time1);
		if (p->err)
			break;
		time0 = time1;
		time1 = now_ns();
		latency_log_add(&p->log, time1 - time0);
		p->iterations++;
	} while (!atomic_load_explicit(&p->stop, memory_order_relaxed));
	return NULL;
}

int stutter_probe_start(struct stutter_probe *p, struct nlru_engine *eng, size_t pages, FILE *out,
			int flush_open_group)
{
	p->eng = eng;
	p->pages = pages;
	p->out = out;
	p->iterations = p->failed_touches = 0;
	p->err = 0;
	p->flush_open_group = flush_open_group;
	atomic_init(&p->stop, 0);
	latency_log_init(&p->log, out);
	return -pthread_create(&p->thread, NULL, probe_main, p);
}

int stutter_probe_stop(struct stutter_probe *p)
{
	atomic_store(&p->stop, 1);
	pthread_join(p->thread, NULL);
	latency_log_finish(&p->log, p->flush_open_group);
	return p->err;
}
