/* latency_log - mmap-latency.c's main loop body after the timing, statement for statement. */
#include "latency_log.h"

#include <inttypes.h>

void latency_log_init(struct latency_log *l, FILE *out)
{
	*l = (struct latency_log){.out = out};
}

static void emit(struct latency_log *l, uint64_t count, uint64_t ns)
{
	fprintf(l->out, "%" PRIu64 " %" PRIu64 "\n", count, ns);
	l->lines++;
}

void latency_log_add(struct latency_log *l, uint64_t loop_ns)
{
	uint64_t latency = loop_ns < LATENCY_DELAY_NS ? 0 : loop_ns - LATENCY_DELAY_NS;

	/* mmtests adds before it knows which branch it takes: the quirk of the cut group. */
	l->sum += latency;
	if (latency < LATENCY_DELAY_NS) {
		if (++l->count == LATENCY_GROUP) {
			emit(l, l->count, l->sum / l->count);
			l->count = l->sum = 0;
		}
		return;
	}
	if (l->count)
		emit(l, l->count, l->sum / l->count);
	emit(l, 1, latency);
	l->slow++;
	l->count = l->sum = 0;
}

void latency_log_finish(struct latency_log *l, int flush)
{
	if (flush && l->count)
		emit(l, l->count, l->sum / l->count);
	l->count = l->sum = 0;
}
