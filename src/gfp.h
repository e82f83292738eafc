/*
 * gfp flags to zones and allocator flags, as Linux 4.8 include/linux/gfp.h and mm/internal.h.
 */
#ifndef NODELRU_GFP_H
#define NODELRU_GFP_H

#include <stdbool.h>

#include <nodelru/nodelru.h>

#include "mmzone.h"

#define GFP_ZONEMASK (NLRU_GFP_DMA | NLRU_GFP_HIGHMEM | NLRU_GFP_DMA32 | NLRU_GFP_MOVABLE)
#define GFP_KNOWN                                                                                  \
	(GFP_ZONEMASK | NLRU_GFP_HIGH | NLRU_GFP_IO | NLRU_GFP_FS | NLRU__GFP_ATOMIC |             \
	 NLRU_GFP_RECLAIM | NLRU_GFP_NORETRY | NLRU_GFP_NOWARN | NLRU_GFP_THISNODE |               \
	 NLRU_GFP_HARDWALL | NLRU_GFP_ZERO | NLRU_GFP_SLAB_RECLAIMABLE |                           \
	 NLRU_GFP_SLAB_UNRECLAIMABLE | NLRU_GFP_WRITE)

#define GFP_SLAB (NLRU_GFP_SLAB_RECLAIMABLE | NLRU_GFP_SLAB_UNRECLAIMABLE)
/* The flags that choose a migrate type (Linux's __GFP_MOVABLE | __GFP_RECLAIMABLE). */
#define GFP_MOVABLE_MASK (NLRU_GFP_MOVABLE | NLRU_GFP_SLAB_RECLAIMABLE)

/* mm/internal.h alloc_flags.  ALLOC_FAIR exists only in zone (4.7) mode. */
#define ALLOC_WMARK_MIN WMARK_MIN
#define ALLOC_WMARK_LOW WMARK_LOW
#define ALLOC_WMARK_HIGH WMARK_HIGH
#define ALLOC_NO_WATERMARKS 0x04
#define ALLOC_WMARK_MASK (ALLOC_NO_WATERMARKS - 1)
#define ALLOC_HARDER 0x10
#define ALLOC_HIGH 0x20
#define ALLOC_CPUSET 0x40
#define ALLOC_CMA 0x80
#define ALLOC_FAIR 0x100

#define PAGE_ALLOC_COSTLY_ORDER 3

/*
 * gfp_zone() through x86_64's GFP_ZONE_TABLE (no HIGHMEM, so __GFP_HIGHMEM alone means
 * Normal).  Returns the highest usable zone, or -1 for a contradictory combination, which
 * Linux treats as a BUG and the engine refuses with -EINVAL.
 */
static inline int gfp_zone(unsigned int gfp)
{
	static const signed char table[16] = {
		[0] = ZONE_NORMAL,
		[NLRU_GFP_DMA] = ZONE_DMA,
		[NLRU_GFP_HIGHMEM] = ZONE_NORMAL,
		[NLRU_GFP_DMA32] = ZONE_DMA32,
		[NLRU_GFP_MOVABLE] = ZONE_NORMAL,
		[NLRU_GFP_MOVABLE | NLRU_GFP_DMA] = ZONE_DMA,
		[NLRU_GFP_MOVABLE | NLRU_GFP_HIGHMEM] = ZONE_MOVABLE,
		[NLRU_GFP_MOVABLE | NLRU_GFP_DMA32] = ZONE_DMA32,
		[NLRU_GFP_DMA | NLRU_GFP_HIGHMEM] = -1,
		[NLRU_GFP_DMA | NLRU_GFP_DMA32] = -1,
		[NLRU_GFP_DMA32 | NLRU_GFP_HIGHMEM] = -1,
		[NLRU_GFP_DMA | NLRU_GFP_DMA32 | NLRU_GFP_HIGHMEM] = -1,
		[NLRU_GFP_MOVABLE | NLRU_GFP_DMA | NLRU_GFP_HIGHMEM] = -1,
		[NLRU_GFP_MOVABLE | NLRU_GFP_DMA | NLRU_GFP_DMA32] = -1,
		[NLRU_GFP_MOVABLE | NLRU_GFP_DMA32 | NLRU_GFP_HIGHMEM] = -1,
		[GFP_ZONEMASK] = -1,
	};

	return table[gfp & GFP_ZONEMASK];
}

/*
 * gfpflags_to_migratetype(): NLRU_GFP_MOVABLE is MIGRATE_MOVABLE, NLRU_GFP_SLAB_RECLAIMABLE
 * (Linux's __GFP_RECLAIMABLE) MIGRATE_RECLAIMABLE, anything else MIGRATE_UNMOVABLE.  @mask is
 * the engine's migratetype_mask: 0 when it is too small to group by mobility (everything is
 * then unmovable).  Both flags together are refused before this is asked (Linux warns), so
 * the two bits can simply be put side by side, with no branch on the allocation path.
 */
static inline int gfpflags_to_migratetype(unsigned int gfp, unsigned int mask)
{
	STATIC_ASSERT(NLRU_GFP_MOVABLE == 1u << 3 && NLRU_GFP_SLAB_RECLAIMABLE == 1u << 22 &&
			      MIGRATE_MOVABLE == 1 && MIGRATE_RECLAIMABLE == 2,
		      "the shifts below");
	return (int)((((gfp >> 3) & 1u) | ((gfp >> 21) & 2u)) & mask);
}

static inline bool gfpflags_allow_blocking(unsigned int gfp)
{
	return gfp & NLRU_GFP_DIRECT_RECLAIM;
}

#endif /* NODELRU_GFP_H */
