/*
 * compare - rows, formulas and layout of mmtests' vmstat summary
 * (bin/lib/MMTests/MonitorMmtestsvmstat.pm; docs/benchmarks.md, "The mmtests method").
 *
 * Every row is a small expression over "quantities", each the change of a sum of kernel
 * counters between BEFORE and AFTER.  Summing every spelling (map.c) is what lets a 4.7 dump
 * sit next to a 4.8 or 6.x one, exactly as mmtests' own formulas do.  Unlike mmtests, a
 * quantity none of whose counters exists is "missing" and prints as "-", never as 0.
 */
#include "compare.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "map.h"
#include "names.h"
#include "wrap.h"

/* clang-format off */
enum q {
	Q_PGFAULT, Q_PGMAJFAULT, Q_PSWPIN, Q_PSWPOUT, Q_ALLOCSTALL,
	Q_STALL_DMA, Q_STALL_DMA32, Q_STALL_NORMAL, Q_STALL_MOVABLE,
	Q_ALLOC_DMA, Q_ALLOC_DMA32, Q_ALLOC_NORMAL, Q_ALLOC_MOVABLE,
	Q_DSCAN, Q_KSCAN, Q_KSTEAL, Q_DSTEAL, Q_ZNORMAL, Q_ZDMA32, Q_ZDMA,
	Q_VMSCAN_WRITE, Q_IMMEDIATE, Q_PGPGIN, Q_PGPGOUT, Q_PGRESCUED, Q_SLABS,
	Q_DINODE, Q_KINODE, Q_SKIPWAIT, Q_PGREFILL, Q_PGSKIP, Q_WS_REFAULT, Q_WS_ACTIVATE,
	Q_WS_RESTORE,
	Q_THP_FAULT, Q_THP_COLLAPSE, Q_THP_SPLIT, Q_THP_FALLBACK, Q_THP_COLLAPSE_FAIL,
	Q_COMPACT_STALL, Q_COMPACT_SUCCESS, Q_COMPACT_FAIL, Q_MIGRATE_OK, Q_MIGRATE_FAIL,
	Q_COMPACT_ISOLATED, Q_COMPACT_MSCAN, Q_COMPACT_FSCAN, Q_COMPACT_MOVED, Q_COMPACT_MOVEFAIL,
	Q_COMPACT_BLOCKS,
	Q_NUMA_HIT, Q_NUMA_MISS, Q_NUMA_INTERLEAVE, Q_NUMA_LOCAL, Q_NUMA_PTE, Q_NUMA_HUGE_PTE,
	Q_NUMA_HINT, Q_NUMA_HINT_LOCAL, Q_NUMA_MIGRATED, NR_Q
};

#define KEYS_(...) ((const char *const[]){__VA_ARGS__, NULL})

/* Plain counters; the logical ones (scan, steal, stalls, refaults) come from map.c. */
static const char *const *const q_plain[NR_Q] = {
	[Q_PGFAULT] = KEYS_("pgfault"),
	[Q_PGMAJFAULT] = KEYS_("pgmajfault"),
	[Q_PSWPIN] = KEYS_("pswpin"),
	[Q_PSWPOUT] = KEYS_("pswpout"),
	[Q_STALL_DMA] = KEYS_("allocstall_dma"),
	[Q_STALL_DMA32] = KEYS_("allocstall_dma32"),
	[Q_STALL_NORMAL] = KEYS_("allocstall_normal"),
	[Q_STALL_MOVABLE] = KEYS_("allocstall_movable"),
	[Q_ALLOC_DMA] = KEYS_("pgalloc_dma"),
	[Q_ALLOC_DMA32] = KEYS_("pgalloc_dma32"),
	[Q_ALLOC_NORMAL] = KEYS_("pgalloc_normal"),
	[Q_ALLOC_MOVABLE] = KEYS_("pgalloc_movable"),
	/* mmtests credits the single 4.8 counters to "normal". */
	[Q_ZNORMAL] = KEYS_("pgscan_kswapd_normal", "pgscan_direct_normal", "pgscan_kswapd",
			    "pgscan_direct"),
	[Q_ZDMA32] = KEYS_("pgscan_kswapd_dma32", "pgscan_direct_dma32"),
	[Q_ZDMA] = KEYS_("pgscan_kswapd_dma", "pgscan_direct_dma"),
	[Q_VMSCAN_WRITE] = KEYS_("nr_vmscan_write"),
	[Q_IMMEDIATE] = KEYS_("nr_vmscan_immediate_reclaim"),
	[Q_PGPGIN] = KEYS_("pgpgin"),
	[Q_PGPGOUT] = KEYS_("pgpgout"),
	[Q_PGRESCUED] = KEYS_("pgrescued"),
	[Q_SLABS] = KEYS_("slabs_scanned"),
	[Q_DINODE] = KEYS_("pginodesteal"),
	[Q_KINODE] = KEYS_("kswapd_inodesteal"),
	[Q_SKIPWAIT] = KEYS_("kswapd_skip_congestion_wait"),
	/* Before 3.4, pgsteal_<zone> (all reclaimers; q_all takes kswapd_steal back out). */
	[Q_DSTEAL] = KEYS_("pgsteal_direct", "pgsteal_direct_dma", "pgsteal_direct_dma32",
			   "pgsteal_direct_normal", "pgsteal_direct_high", "pgsteal_direct_movable",
			   "pgsteal_dma", "pgsteal_dma32", "pgsteal_normal", "pgsteal_high",
			   "pgsteal_movable"),
	[Q_THP_FAULT] = KEYS_("thp_fault_alloc"),
	[Q_THP_COLLAPSE] = KEYS_("thp_collapse_alloc"),
	[Q_THP_SPLIT] = KEYS_("thp_split"),
	[Q_THP_FALLBACK] = KEYS_("thp_fault_fallback"),
	[Q_THP_COLLAPSE_FAIL] = KEYS_("thp_collapse_alloc_failed"),
	[Q_COMPACT_STALL] = KEYS_("compact_stall"),
	[Q_COMPACT_SUCCESS] = KEYS_("compact_success"),
	[Q_COMPACT_FAIL] = KEYS_("compact_fail"),
	[Q_MIGRATE_OK] = KEYS_("pgmigrate_success"),
	[Q_MIGRATE_FAIL] = KEYS_("pgmigrate_fail"),
	[Q_COMPACT_ISOLATED] = KEYS_("compact_isolated"),
	[Q_COMPACT_MSCAN] = KEYS_("compact_migrate_scanned"),
	[Q_COMPACT_FSCAN] = KEYS_("compact_free_scanned"),
	[Q_COMPACT_MOVED] = KEYS_("compact_pages_moved"),
	[Q_COMPACT_MOVEFAIL] = KEYS_("compact_pagemigrate_failed"),
	[Q_COMPACT_BLOCKS] = KEYS_("compact_blocks_moved"),
	[Q_NUMA_HIT] = KEYS_("numa_hit"),
	[Q_NUMA_MISS] = KEYS_("numa_miss"),
	[Q_NUMA_INTERLEAVE] = KEYS_("numa_interleave"),
	[Q_NUMA_LOCAL] = KEYS_("numa_local"),
	[Q_NUMA_PTE] = KEYS_("numa_pte_updates"),
	[Q_NUMA_HUGE_PTE] = KEYS_("numa_huge_pte_updates"),
	[Q_NUMA_HINT] = KEYS_("numa_hint_faults"),
	[Q_NUMA_HINT_LOCAL] = KEYS_("numa_hint_faults_local"),
	[Q_NUMA_MIGRATED] = KEYS_("numa_pages_migrated"),
};

static const enum map_id q_mapped[NR_Q] = {
	[Q_ALLOCSTALL] = MAP_ALLOCSTALL,     [Q_DSCAN] = MAP_PGSCAN_DIRECT,
	[Q_KSCAN] = MAP_PGSCAN_KSWAPD,       [Q_KSTEAL] = MAP_PGSTEAL_KSWAPD,
	[Q_PGREFILL] = MAP_PGREFILL,
	[Q_PGSKIP] = MAP_PGSKIP,             [Q_WS_REFAULT] = MAP_WORKINGSET_REFAULT,
	[Q_WS_ACTIVATE] = MAP_WORKINGSET_ACTIVATE, [Q_WS_RESTORE] = MAP_WORKINGSET_RESTORE,
};

enum op {
	OP_DELTA, OP_MINUS, OP_EFF, OP_VEL, OP_PCT_DIRECT,
	OP_COMPACT_COST, OP_PTE_RANGE, OP_HINT_PCT, OP_NUMA_COST
};

/*
 * Which tables a row is in: every one, only with --extended, or only with the compaction
 * counters mmtests finds in the baseline: pgmigrate_success and the scanners (Linux 3.8 and
 * later) or compact_pages_moved and compact_pagemigrate_failed (before).
 */
enum when { ALWAYS, EXTENDED, NEW_COMPACTION, OLD_COMPACTION };

struct row_def {
	struct cmp_row row;
	enum op op;
	enum q a, b;
	enum when when;
	/* mmtests' missing counter counts as 0 (the THP, compaction and NUMA rows) */
	int zero_missing;
};

#define INT_(l, op, a, b) {{l, CMP_INT, 0, 0}, op, a, b, ALWAYS, 0}
#define EXT_(l, a) {{l, CMP_INT, 1, 0}, OP_DELTA, a, a, EXTENDED, 0}
/* The rows after mmtests' reclaim rows: a missing counter is 0 there, as in mmtests. */
#define ZERO_(l, a, w) {{l, CMP_INT, 0, 0}, OP_DELTA, a, a, w, 1}
#define TEXT_AS_(f) ((int)(f) + 1)

/*
 * mmtests' order.  "Stall zone" rows are our addition (allocstall_<zone>, new in 4.8).
 * "Page writes by reclaim" is a page count printed with %12.3f in the text table: mmtests
 * takes each row's format from the row before it from "Zone normal velocity" on, and only
 * this row shows the shift.  JSON and CSV give it as the count it is.
 */
static const struct row_def rows[] = {
	INT_("Minor Faults", OP_MINUS, Q_PGFAULT, Q_PGMAJFAULT),
	INT_("Major Faults", OP_DELTA, Q_PGMAJFAULT, 0),
	INT_("Swap Ins", OP_DELTA, Q_PSWPIN, 0),
	INT_("Swap Outs", OP_DELTA, Q_PSWPOUT, 0),
	INT_("Allocation stalls", OP_DELTA, Q_ALLOCSTALL, 0),
	INT_("Stall zone DMA", OP_DELTA, Q_STALL_DMA, 0),
	INT_("Stall zone DMA32", OP_DELTA, Q_STALL_DMA32, 0),
	INT_("Stall zone Normal", OP_DELTA, Q_STALL_NORMAL, 0),
	INT_("Stall zone Movable", OP_DELTA, Q_STALL_MOVABLE, 0),
	INT_("DMA allocs", OP_DELTA, Q_ALLOC_DMA, 0),
	INT_("DMA32 allocs", OP_DELTA, Q_ALLOC_DMA32, 0),
	INT_("Normal allocs", OP_DELTA, Q_ALLOC_NORMAL, 0),
	INT_("Movable allocs", OP_DELTA, Q_ALLOC_MOVABLE, 0),
	INT_("Direct pages scanned", OP_DELTA, Q_DSCAN, 0),
	INT_("Kswapd pages scanned", OP_DELTA, Q_KSCAN, 0),
	INT_("Kswapd pages reclaimed", OP_DELTA, Q_KSTEAL, 0),
	INT_("Direct pages reclaimed", OP_DELTA, Q_DSTEAL, 0),
	{{"Kswapd efficiency", CMP_PCT, 0, 0}, OP_EFF, Q_KSTEAL, Q_KSCAN, ALWAYS, 0},
	{{"Kswapd velocity", CMP_VEL, 0, 0}, OP_VEL, Q_KSCAN, 0, ALWAYS, 0},
	{{"Direct efficiency", CMP_PCT, 0, 0}, OP_EFF, Q_DSTEAL, Q_DSCAN, ALWAYS, 0},
	{{"Direct velocity", CMP_VEL, 0, 0}, OP_VEL, Q_DSCAN, 0, ALWAYS, 0},
	{{"Percentage direct scans", CMP_PCT, 0, 0}, OP_PCT_DIRECT, Q_DSCAN, Q_KSCAN, ALWAYS, 0},
	{{"Zone normal velocity", CMP_VEL, 0, 0}, OP_VEL, Q_ZNORMAL, 0, ALWAYS, 0},
	{{"Zone dma32 velocity", CMP_VEL, 0, 0}, OP_VEL, Q_ZDMA32, 0, ALWAYS, 0},
	{{"Zone dma velocity", CMP_VEL, 0, 0}, OP_VEL, Q_ZDMA, 0, ALWAYS, 0},
	{{"Page writes by reclaim", CMP_INT, 0, TEXT_AS_(CMP_VEL)}, OP_DELTA, Q_VMSCAN_WRITE, 0,
	 ALWAYS, 0},
	INT_("Page writes file", OP_MINUS, Q_VMSCAN_WRITE, Q_PSWPOUT),
	INT_("Page writes anon", OP_DELTA, Q_PSWPOUT, 0),
	INT_("Page reclaim immediate", OP_DELTA, Q_IMMEDIATE, 0),
	INT_("Sector Reads", OP_DELTA, Q_PGPGIN, 0),
	INT_("Sector Writes", OP_DELTA, Q_PGPGOUT, 0),
	INT_("Page rescued immediate", OP_DELTA, Q_PGRESCUED, 0),
	INT_("Slabs scanned", OP_DELTA, Q_SLABS, 0),
	INT_("Direct inode steals", OP_DELTA, Q_DINODE, 0),
	INT_("Kswapd inode steals", OP_DELTA, Q_KINODE, 0),
	INT_("Kswapd skipped wait", OP_DELTA, Q_SKIPWAIT, 0),
	ZERO_("THP fault alloc", Q_THP_FAULT, ALWAYS),
	ZERO_("THP collapse alloc", Q_THP_COLLAPSE, ALWAYS),
	ZERO_("THP splits", Q_THP_SPLIT, ALWAYS),
	ZERO_("THP fault fallback", Q_THP_FALLBACK, ALWAYS),
	ZERO_("THP collapse fail", Q_THP_COLLAPSE_FAIL, ALWAYS),
	ZERO_("Compaction stalls", Q_COMPACT_STALL, ALWAYS),
	ZERO_("Compaction success", Q_COMPACT_SUCCESS, ALWAYS),
	ZERO_("Compaction failures", Q_COMPACT_FAIL, ALWAYS),
	ZERO_("Page migrate success", Q_MIGRATE_OK, NEW_COMPACTION),
	ZERO_("Page migrate failure", Q_MIGRATE_FAIL, NEW_COMPACTION),
	ZERO_("Compaction pages moved", Q_COMPACT_MOVED, OLD_COMPACTION),
	ZERO_("Compaction move failure", Q_COMPACT_MOVEFAIL, OLD_COMPACTION),
	ZERO_("Compaction pages isolated", Q_COMPACT_ISOLATED, NEW_COMPACTION),
	ZERO_("Compaction migrate scanned", Q_COMPACT_MSCAN, NEW_COMPACTION),
	ZERO_("Compaction free scanned", Q_COMPACT_FSCAN, NEW_COMPACTION),
	{{"Compaction cost", CMP_COST, 0, 0}, OP_COMPACT_COST, 0, 0, ALWAYS, 1},
	ZERO_("NUMA alloc hit", Q_NUMA_HIT, ALWAYS),
	ZERO_("NUMA alloc miss", Q_NUMA_MISS, ALWAYS),
	ZERO_("NUMA interleave hit", Q_NUMA_INTERLEAVE, ALWAYS),
	ZERO_("NUMA alloc local", Q_NUMA_LOCAL, ALWAYS),
	ZERO_("NUMA base PTE updates", Q_NUMA_PTE, ALWAYS),
	ZERO_("NUMA huge PMD updates", Q_NUMA_HUGE_PTE, ALWAYS),
	{{"NUMA page range updates", CMP_INT, 0, 0}, OP_PTE_RANGE, Q_NUMA_PTE, Q_NUMA_HUGE_PTE,
	 ALWAYS, 1},
	ZERO_("NUMA hint faults", Q_NUMA_HINT, ALWAYS),
	ZERO_("NUMA hint local faults", Q_NUMA_HINT_LOCAL, ALWAYS),
	{{"NUMA hint local percent", CMP_PCT, 0, TEXT_AS_(CMP_INT)}, OP_HINT_PCT,
	 Q_NUMA_HINT_LOCAL, Q_NUMA_HINT, ALWAYS, 1},
	ZERO_("NUMA pages migrated", Q_NUMA_MIGRATED, ALWAYS),
	{{"AutoNUMA cost", CMP_COST, 0, 0}, OP_NUMA_COST, 0, 0, OLD_COMPACTION, 1},
	{{"AutoNUMA cost", CMP_COST, 0, TEXT_AS_(CMP_PCT)}, OP_NUMA_COST, 0, 0, NEW_COMPACTION, 1},
	EXT_("Active pages scanned", Q_PGREFILL),
	EXT_("Pages skipped", Q_PGSKIP),
	EXT_("Workingset refaults", Q_WS_REFAULT),
	EXT_("Workingset activations", Q_WS_ACTIVATE),
	EXT_("Workingset restores", Q_WS_RESTORE),
};

#define NR_ROWS (sizeof(rows) / sizeof(rows[0]))
/* clang-format on */

struct quant {
	int ok;
	int64_t v;
};

static const char *const *q_keys(enum q q)
{
	return q_plain[q] ? q_plain[q] : map_get(q_mapped[q])->parts;
}

/* Δ of the sum over the keys present in both dumps; a key in one dump only is ignored here
 * (check_one_sided has reported it). */
static struct quant q_delta(const struct cmp_run *r, enum q q)
{
	struct quant out = {0, 0};

	for (const char *const *k = q_keys(q); *k; k++) {
		int64_t b, a;

		if (dump_get(r->before, *k, &b) || dump_get(r->after, *k, &a))
			continue;
		out.ok = 1;
		out.v = wrap_add(out.v, wrap_sub(a, b));
	}
	return out;
}

static void q_all(const struct cmp_run *r, struct quant *q)
{
	for (int i = 0; i < NR_Q; i++)
		q[i] = q_delta(r, (enum q)i);
	/* Before 3.4 pgsteal_<zone> counted kswapd too; mmtests takes kswapd_steal back out. */
	if (dump_find(r->before, "kswapd_steal") && dump_find(r->after, "kswapd_steal") &&
	    q[Q_KSTEAL].ok)
		q[Q_DSTEAL].v = wrap_sub(q[Q_DSTEAL].v, q[Q_KSTEAL].v);
}

/* C's conversion truncates toward zero, as Perl's %d; out-of-range values saturate. */
static int64_t trunc_i64(double f)
{
	if (f != f)
		return 0;
	if (f >= 9223372036854775807.0)
		return INT64_MAX;
	if (f <= -9223372036854775808.0)
		return INT64_MIN;
	return (int64_t)f;
}

static void set_pct(struct cmp_cell *c, double f)
{
	c->ok = 1;
	c->f = f;
	c->i = trunc_i64(f);
}

/*
 * mmtests' cost models (MonitorMmtestsvmstat.pm), in millions of its x86-64 cost units: a
 * list operation and lock, a page copy, a PTE update and a NUMA hinting fault.  The first
 * compaction model charges "compact_migrate_free", a counter no kernel has, so nothing.
 */
#define MMT_CA (56.0 / 8)
#define MMT_CPAGERW (MMT_CA + 4096.0 / 8)
#define MMT_CI (MMT_CA + 12)

static double compact_cost(const struct quant *q)
{
	double cost = 0;

	if (q[Q_COMPACT_MSCAN].ok)
		cost = MMT_CA * (double)q[Q_COMPACT_MSCAN].v +
		       MMT_CI * (double)q[Q_COMPACT_ISOLATED].v +
		       2 * MMT_CPAGERW * (double)q[Q_MIGRATE_OK].v +
		       2 * MMT_CA * (double)q[Q_MIGRATE_FAIL].v;
	if (q[Q_COMPACT_BLOCKS].ok)
		cost = MMT_CA * (double)q[Q_COMPACT_BLOCKS].v * 16384 +
		       2 * MMT_CPAGERW * (double)q[Q_COMPACT_MOVED].v +
		       2 * MMT_CA * (double)q[Q_COMPACT_MOVEFAIL].v;
	return cost / 1000000;
}

static double numa_cost(const struct quant *q)
{
	return (MMT_CA * (double)q[Q_NUMA_PTE].v + 5000.0 * (double)q[Q_NUMA_HINT].v +
		MMT_CI * (double)q[Q_NUMA_MIGRATED].v) /
	       1000000;
}

static struct cmp_cell eval_row(const struct row_def *d, const struct quant *q, double elapsed)
{
	struct quant a = q[d->a], b = q[d->b];
	struct cmp_cell c = {0, 0, 0.0};

	if (d->zero_missing) {
		a.ok = b.ok = 1;
		if (!q[d->a].ok)
			a.v = 0;
		if (!q[d->b].ok)
			b.v = 0;
	}
	switch (d->op) {
	case OP_DELTA:
		c = (struct cmp_cell){a.ok, a.v, (double)a.v};
		break;
	case OP_MINUS:
		if (a.ok && b.ok)
			c = (struct cmp_cell){1, wrap_sub(a.v, b.v), (double)wrap_sub(a.v, b.v)};
		break;
	case OP_EFF:
		if (a.ok && b.ok)
			set_pct(&c, b.v == 0 ? 100.0 : (double)a.v * 100.0 / (double)b.v);
		break;
	case OP_VEL:
		if (a.ok && isfinite(elapsed) && elapsed > 0)
			c = (struct cmp_cell){1, 0, (double)a.v / elapsed};
		break;
	case OP_PCT_DIRECT:
		if (a.ok && b.ok)
			set_pct(&c, (double)a.v + (double)b.v == 0.0
					    ? 0.0
					    : (double)a.v * 100.0 / ((double)a.v + (double)b.v));
		break;
	case OP_COMPACT_COST:
	case OP_NUMA_COST:
		c.ok = 1;
		c.f = d->op == OP_COMPACT_COST ? compact_cost(q) : numa_cost(q);
		c.i = trunc_i64(c.f);
		break;
	case OP_PTE_RANGE:
		/* A huge PMD update covers 512 base pages. */
		c = (struct cmp_cell){1, wrap_add(a.v, (int64_t)((uint64_t)b.v * 512u)), 0};
		c.f = (double)c.i;
		break;
	case OP_HINT_PCT:
		set_pct(&c, b.v == 0 ? 100.0 : (double)a.v * 100.0 / (double)b.v);
		break;
	}
	return c;
}

static void check_one_sided(const struct vm_dump *x, const struct vm_dump *y, const char *xname,
			    const char *yname, const struct vm_diag *diag)
{
	for (size_t i = 0; i < x->nr; i++)
		if (!dump_find(y, x->v[i].name))
			diag_report(diag, x->path, x->v[i].line,
				    "counter '%s' is in %s but not in %s; left out of the deltas",
				    x->v[i].name, xname, yname);
}

size_t delta_check_down(const struct vm_dump *before, const struct vm_dump *after,
			const struct vm_diag *diag, const char **names, size_t max)
{
	size_t n = 0;

	for (size_t i = 0; i < after->nr; i++) {
		const struct vm_counter *a = &after->v[i], *b = dump_find(before, a->name);
		struct name_info ni;

		if (!b || !wrap_went_down(b->value, a->value))
			continue;
		names_lookup(a->name, &ni);
		if (ni.kind != VM_EVENT)
			continue;
		diag_report(
			diag, after->path, a->line,
			"counter '%s' went down from %" PRIu64 " to %" PRIu64
			" (a reboot or restart between the dumps, or BEFORE and AFTER swapped?)",
			a->name, (uint64_t)b->value, (uint64_t)a->value);
		if (names && n < max)
			names[n] = a->name;
		n++;
	}
	return n;
}

int compare_build(const struct cmp_run *runs, size_t n, int extended, const struct vm_diag *diag,
		  struct cmp_table *t)
{
	struct quant q[NR_Q];
	size_t nr = 0;
	int newcomp;

	memset(t, 0, sizeof(*t));
	if (n == 0)
		return -EINVAL;
	t->rows = calloc(NR_ROWS, sizeof(*t->rows));
	t->cells = calloc(NR_ROWS * n, sizeof(*t->cells));
	t->nr_down = calloc(n, sizeof(*t->nr_down));
	if (!t->rows || !t->cells || !t->nr_down) {
		compare_free(t);
		return -ENOMEM;
	}
	/* mmtests picks the compaction rows by the counters of its first kernel's dumps. */
	newcomp = dump_find(runs[0].before, "pgmigrate_success") ||
		  dump_find(runs[0].after, "pgmigrate_success");
	for (size_t r = 0; r < NR_ROWS; r++)
		if ((rows[r].when == ALWAYS) || (rows[r].when == EXTENDED && extended) ||
		    (rows[r].when == NEW_COMPACTION && newcomp) ||
		    (rows[r].when == OLD_COMPACTION && !newcomp))
			t->rows[nr++] = &rows[r].row;
	t->nr_rows = nr;
	t->nr_runs = n;
	for (size_t k = 0; k < n; k++) {
		check_one_sided(runs[k].before, runs[k].after, "BEFORE", "AFTER", diag);
		check_one_sided(runs[k].after, runs[k].before, "AFTER", "BEFORE", diag);
		t->nr_down[k] = delta_check_down(runs[k].before, runs[k].after, diag, NULL, 0);
		q_all(&runs[k], q);
		for (size_t r = 0; r < nr; r++) {
			/* t->rows[] point at the first member of rows[] entries. */
			const struct row_def *d = (const struct row_def *)t->rows[r];

			t->cells[r * n + k] = eval_row(d, q, runs[k].elapsed);
		}
	}
	return 0;
}

void compare_free(struct cmp_table *t)
{
	free(t->rows);
	free(t->cells);
	free(t->nr_down);
	memset(t, 0, sizeof(*t));
}

const struct cmp_cell *compare_cell(const struct cmp_table *t, const char *label, size_t run)
{
	if (run >= t->nr_runs)
		return NULL;
	for (size_t r = 0; r < t->nr_rows; r++)
		if (strcmp(t->rows[r]->label, label) == 0)
			return &t->cells[r * t->nr_runs + run];
	return NULL;
}

void compare_split_name(const char *name, char *l1, char *l2, size_t sz)
{
	const char *dash = strchr(name, '-');
	size_t len = strlen(name), cut;

	if (!dash) {
		snprintf(l1, sz, "%s", name);
		snprintf(l2, sz, "%s", "");
		return;
	}
	cut = (size_t)(dash - name);
	if (strncmp(dash, "-rc", 3) == 0 && dash[3] >= '0' && dash[3] <= '9')
		cut += 4;
	if (cut > len)
		cut = len;
	snprintf(l1, sz, "%.*s", (int)cut, name);
	snprintf(l2, sz, "%s", cut < len ? name + cut + 1 : "");
}
