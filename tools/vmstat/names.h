/*
 * names - what the tool knows about a counter name: whether it is an event (cumulative, only
 * its change over time means something) or a state level, which group `show` files it under,
 * a one-line meaning and the Linux versions that print it.  Covers every name /proc/vmstat has
 * had from 2.6 to 6.x, and the engine's own.
 */
#ifndef NODELRU_TOOLS_VMSTAT_NAMES_H
#define NODELRU_TOOLS_VMSTAT_NAMES_H

enum vm_kind {
	VM_EVENT, /* cumulative since boot (or engine start): diff shows the delta */
	VM_STATE, /* a level (pages on a list, free pages): diff shows before and after */
};

/* Groups of `show`, in print order. */
enum vm_group {
	G_ALLOC,      /* allocation: free pages, allocations, faults, stalls */
	G_RECLAIM,    /* scanning, stealing, kswapd, writeback by reclaim */
	G_SWAP,       /* swap in and out */
	G_WORKINGSET, /* refault detection */
	G_STATE,      /* LRU sizes, page cache, other levels */
	G_ZONE,       /* per-zone copies and per-zone events (_dma, _normal, nr_zone_*) */
	G_NUMA,       /* NUMA placement, balancing and migration */
	G_ENGINE,     /* nodelru's own nlru_* counters */
	G_OTHER,      /* THP, compaction, hugetlb, unevictable, and names nobody knows */
	NR_VM_GROUPS
};

struct name_info {
	enum vm_kind kind;
	enum vm_group group;
	const char *help; /* NULL for a name the tool does not know */
	const char *era;  /* the Linux versions that print it ("3.12-4.7", "4.8 on"), or NULL */
};

/* names_lookup - classify @name.  Unknown names get a kind and group by their prefix. */
void names_lookup(const char *name, struct name_info *out);

/* Title of a group as `show` prints it ("reclaim", "per-zone"). */
const char *names_group_title(enum vm_group g);

/* The kind as a word: "event" or "state". */
const char *names_kind_word(enum vm_kind k);

/*
 * names_zone_suffix - if @name ends in a zone suffix (_dma, _dma32, _normal, _high, _movable,
 * _device), the length of the part before it; otherwise 0.
 */
unsigned int names_zone_suffix(const char *name);

#endif /* NODELRU_TOOLS_VMSTAT_NAMES_H */
