/*
 * pagealloc_log - writer and reader of pagealloc.log.  The reader works in two passes: it
 * keeps the lines the warm-up rule keeps, then builds the operations in mmtests' row order,
 * which depends on every line (the orders present and each order's batches).
 */
#include "pagealloc_log.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "bench_util.h"
#include "input.h"

#define PA_MAX_ORDERS 16
#define PA_MAX_BATCHES 64

static const char *const kinds[] = {"alloc", "free", "total"};

void pa_log_write(FILE *f, const struct pa_line *l)
{
	fprintf(f, "order %2u batch %6lu alloc %" PRIu64 " free %" PRIu64 "\n", l->order, l->batch,
		l->alloc, l->free);
}

/* Fields 1, 3, 5 and 7 (from 0) of a whitespace-split line, as ExtractPagealloc reads them. */
static int parse_line(const char *s, size_t len, struct pa_line *l)
{
	char text[256], w[4][32];
	unsigned long long a, f;
	unsigned int order;
	unsigned long batch;

	if (len >= sizeof(text))
		return -EINVAL;
	memcpy(text, s, len);
	text[len] = '\0';
	if (sscanf(text, "%31s %u %31s %lu %31s %llu %31s %llu", w[0], &order, w[1], &batch, w[2],
		   &a, w[3], &f) != 8 ||
	    order >= PA_MAX_ORDERS)
		return -EINVAL;
	*l = (struct pa_line){order, batch, a, f};
	return 0;
}

struct pa_shape {
	int present[PA_MAX_ORDERS];
	unsigned long batches[PA_MAX_ORDERS][PA_MAX_BATCHES]; /* first-seen order */
	size_t nr_batches[PA_MAX_ORDERS];
};

static void shape_add(struct pa_shape *sh, const struct pa_line *l)
{
	size_t *n = &sh->nr_batches[l->order];

	sh->present[l->order] = 1;
	for (size_t i = 0; i < *n; i++)
		if (sh->batches[l->order][i] == l->batch)
			return;
	if (*n < PA_MAX_BATCHES)
		sh->batches[l->order][(*n)++] = l->batch;
}

static struct pa_op *ops_new(struct pa_ops *ops, const char *kind, unsigned int order,
			     unsigned long batch)
{
	if (ops->nr == ops->cap) {
		size_t ncap = ops->cap ? ops->cap * 2 : 64;
		struct pa_op *n = realloc(ops->op, ncap * sizeof(*n));

		if (!n)
			return NULL;
		ops->op = n;
		ops->cap = ncap;
	}
	ops->op[ops->nr] = (struct pa_op){.n = 0};
	snprintf(ops->op[ops->nr].name, MM_OP_MAX, "%s-odr%u-%lu", kind, order, batch);
	return &ops->op[ops->nr++];
}

static double pick(const struct pa_line *l, int kind)
{
	return kind == 0   ? (double)l->alloc
	       : kind == 1 ? (double)l->free
			   : (double)l->alloc + (double)l->free;
}

/* One operation: every kept line of (@order, @batch), in log order. */
static int build_op(struct pa_ops *ops, const struct pa_line *kept, size_t nr, int kind,
		    unsigned int order, unsigned long batch)
{
	struct pa_op *op = ops_new(ops, kinds[kind], order, batch);

	if (!op)
		return -ENOMEM;
	for (size_t i = 0; i < nr; i++)
		if (kept[i].order == order && kept[i].batch == batch &&
		    samples_push(&op->x, &op->n, &op->cap, pick(&kept[i], kind)))
			return -ENOMEM;
	return 0;
}

static int build_ops(struct pa_ops *ops, const struct pa_line *kept, size_t nr,
		     const struct pa_shape *sh)
{
	for (int kind = 0; kind < 3; kind++)
		for (unsigned int o = 0; o < PA_MAX_ORDERS; o++)
			for (size_t b = 0; sh->present[o] && b < sh->nr_batches[o]; b++)
				if (build_op(ops, kept, nr, kind, o, sh->batches[o][b]))
					return -ENOMEM;
	return 0;
}

/* The per-batch counters of the warm-up rule: (batch, lines seen) pairs. */
struct pa_seen {
	unsigned long batch[PA_MAX_BATCHES];
	unsigned int count[PA_MAX_BATCHES];
	size_t nr;
};

static unsigned int seen_inc(struct pa_seen *s, unsigned long batch)
{
	for (size_t i = 0; i < s->nr; i++)
		if (s->batch[i] == batch)
			return ++s->count[i];
	if (s->nr == PA_MAX_BATCHES)
		return PA_WARMUP_KEEP_FROM;
	s->batch[s->nr] = batch;
	s->count[s->nr] = 1;
	return s->count[s->nr++];
}

/* Lines in @buf, a bound on the lines it can yield (a last line may lack its newline). */
static size_t count_lines(const char *buf, size_t len)
{
	size_t lines = 0;

	for (const char *p = buf; (p = memchr(p, '\n', len - (size_t)(p - buf))); p++)
		lines++;
	return lines;
}

int pa_extract(const char *buf, size_t len, struct pa_ops *ops)
{
	struct pa_shape *sh = calloc(1, sizeof(*sh));
	struct pa_seen seen = {.nr = 0};
	struct pa_line *kept = malloc((count_lines(buf, len) + 1) * sizeof(*kept));
	size_t pos = 0, n, nr = 0;
	const char *s;
	int err = -ENOMEM;

	memset(ops, 0, sizeof(*ops));
	if (!sh || !kept)
		goto out;
	while ((s = input_next_line(buf, len, &pos, &n))) {
		if (parse_line(s, n, &kept[nr])) {
			ops->nr_malformed += n > 0;
			continue;
		}
		if (seen_inc(&seen, kept[nr].batch) < PA_WARMUP_KEEP_FROM) {
			ops->nr_dropped++;
			continue;
		}
		shape_add(sh, &kept[nr++]);
	}
	err = build_ops(ops, kept, nr, sh);
	if (err)
		pa_ops_fini(ops);
out:
	free(kept);
	free(sh);
	return err;
}

void pa_ops_fini(struct pa_ops *ops)
{
	for (size_t i = 0; i < ops->nr; i++)
		free(ops->op[i].x);
	free(ops->op);
	memset(ops, 0, sizeof(*ops));
}

const struct pa_op *pa_ops_find(const struct pa_ops *ops, const char *name)
{
	for (size_t i = 0; i < ops->nr; i++)
		if (strcmp(ops->op[i].name, name) == 0)
			return &ops->op[i];
	return NULL;
}
