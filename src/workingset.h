/*
 * Workingset detection (Linux 4.8 mm/workingset.c, per node): an eviction leaves a shadow
 * entry holding the node's eviction clock; a refault measures how many evictions and
 * activations happened since, and activates the page at once if that distance fits in the
 * active file list.
 */
#ifndef NODELRU_WORKINGSET_H
#define NODELRU_WORKINGSET_H

#include <stdbool.h>
#include <stdint.h>

#include "engine.h"

/* Index slots: a resident page or a shadow entry, both naming the node. */
#define SLOT_TAG_MASK 3ull
#define SLOT_PAGE 1ull
#define SLOT_SHADOW 2ull

static inline uint64_t shadow_slot(int nid, uint64_t eviction)
{
	return (eviction << 8) | ((uint64_t)nid << 2) | SLOT_SHADOW;
}

static inline int slot_nid(uint64_t v)
{
	return (int)((v >> 2) & 0x3f);
}

/* workingset_eviction(): tick the node's clock; the shadow entry to leave behind. */
uint64_t workingset_eviction(struct pglist_data *pgdat);
/* workingset_refault(): count the refault; true if the page should start active. */
bool workingset_refault(struct nlru_engine *eng, uint64_t shadow);
/* workingset_activation(): a file page was activated, which ages the clock too. */
void workingset_activation(struct pglist_data *pgdat);
/* A shadow entry went away (refault, overwrite, trim, file closed). */
void workingset_shadow_gone(struct nlru_engine *eng, uint64_t shadow);

/* The shadow shrinker, registered at engine creation. */
int workingset_init(struct nlru_engine *eng);

#endif /* NODELRU_WORKINGSET_H */
