/*
 * What a failed allocation says: Linux's warn_alloc() and show_free_areas()
 * (mm/page_alloc.c), through the engine's log callback.
 */
#ifndef NODELRU_SHOW_MEM_H
#define NODELRU_SHOW_MEM_H

#include <stdbool.h>
#include <stddef.h>

struct nlru_engine;
struct zoneref;

/* What the slow path did before it gave up, for the report. */
struct alloc_report {
	int rounds;                  /* slow-path rounds */
	int reclaims;                /* direct reclaim passes */
	unsigned long reclaimed;     /* pages they freed */
	int oom_reclaims;            /* last-resort passes, the OOM killer's stand-in */
	unsigned long oom_reclaimed; /* pages those freed */
	const char *gave_up;         /* why the slow path stopped */
};

/*
 * warn_alloc(): an allocation of 2^@order pages with @gfp, starting at @preferred and going
 * no higher than zone @high_zoneidx, failed.  Logs, at WARN and at most 10 times in 5 s per
 * engine (as Linux's nopage_rs), the request with its flags decoded, what the slow path did
 * (@rep, or NULL when it did not run), and the state of every node and zone it could use.
 */
void warn_alloc(struct nlru_engine *eng, unsigned int gfp, unsigned int order,
		const struct zoneref *preferred, int high_zoneidx, const struct alloc_report *rep);

/*
 * A request that can never be served by this engine (no zone it may use has memory, or none
 * is large enough for its order): logged at ERROR, whatever NLRU_GFP_NOWARN says, rate
 * limited as warn_alloc().  @nid is the node asked for (NLRU_NUMA_NO_NODE: the caller's).
 */
void warn_alloc_impossible(struct nlru_engine *eng, unsigned int gfp, unsigned int order, int nid,
			   int high_zoneidx);

/*
 * Linux's %pGg: @gfp as flag names, the GFP_* combinations first ("GFP_KERNEL|__GFP_ZERO"),
 * into @buf of @len bytes.  Returns @buf.
 */
char *gfp_names(unsigned int gfp, char *buf, size_t len);

#endif /* NODELRU_SHOW_MEM_H */
