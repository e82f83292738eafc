/*
 * The node-lru series' time scale for stutter: the tunables that make an engine of a few
 * hundred MiB turn its memory over against its watermark bands as the series' test machine
 * did.  The rule and where its numbers come from are in docs/benchmarks.md ("The scale rule").
 */
#ifndef NODELRU_BENCH_SERIES_SCALE_H
#define NODELRU_BENCH_SERIES_SCALE_H

/*
 * The series' machine as the rule takes it: DMA32's high - low gap (a 3 GiB DMA32 at the
 * default watermark_scale_factor), and a disk of its day.  DMA32 keeps the engine's default
 * share of node 0 (docs/benchmarks.md says why not the series' own).
 */
#define SERIES_DMA32_GAP_PAGES 786
#define SERIES_DMA32_PCT 25
#define SERIES_DISK_MBS 150

#define SERIES_SCALE_SETS 3

/* watermark_scale_factor that gives an engine of @node_mib the series' DMA32 gap (1..1000). */
long series_watermark_scale_factor(long node_mib);

/*
 * The "name=value" tunables of the rule for an engine of @node_mib, written into @buf and
 * listed, NULL-ended, in @sets: what harness_engine() applies before the user's --set.
 */
void series_scale_tunables(long node_mib, char buf[SERIES_SCALE_SETS][48],
			   const char *sets[SERIES_SCALE_SETS + 1]);

#endif /* NODELRU_BENCH_SERIES_SCALE_H */
