/*
 * Workingset detection (mm/workingset.c; per node in 4.8, per zone in 4.7): an eviction leaves
 * a shadow entry holding its lruvec's eviction clock; a refault measures how many evictions
 * and activations happened since, and activates the page at once if that distance fits in
 * that lruvec's active file list.
 */
#ifndef NODELRU_WORKINGSET_H
#define NODELRU_WORKINGSET_H

#include <stdbool.h>
#include <stdint.h>

struct lruvec;
struct nlru_engine;
struct page;

/* Index slots: a resident page or a shadow entry, both naming the node. */
#define SLOT_TAG_MASK 3ull
#define SLOT_PAGE 1ull
#define SLOT_SHADOW 2ull

/* A shadow entry: bits 0-1 tag, 2-7 node, 8-9 zone, 10-63 the eviction clock. */
static inline uint64_t shadow_slot(int nid, int zid, uint64_t eviction)
{
	return (eviction << 10) | ((uint64_t)zid << 8) | ((uint64_t)nid << 2) | SLOT_SHADOW;
}

static inline int slot_nid(uint64_t v)
{
	return (int)((v >> 2) & 0x3f);
}

static inline int shadow_zid(uint64_t v)
{
	return (int)((v >> 8) & 0x3);
}

static inline uint64_t shadow_eviction(uint64_t v)
{
	return v >> 10;
}

/* workingset_eviction(): tick @page's lruvec clock; the shadow entry to leave behind. */
uint64_t workingset_eviction(struct lruvec *lruvec, const struct page *page);
/* workingset_refault(): count the refault; true if the page should start active. */
bool workingset_refault(struct nlru_engine *eng, uint64_t shadow);
/* workingset_activation(): a file page was activated, which ages its lruvec's clock too. */
void workingset_activation(struct lruvec *lruvec);
/* A shadow entry went away (refault, overwrite, trim, file closed). */
void workingset_shadow_gone(struct nlru_engine *eng, uint64_t shadow);

/* The shadow shrinker, registered at engine creation. */
int workingset_init(struct nlru_engine *eng);

#endif /* NODELRU_WORKINGSET_H */
