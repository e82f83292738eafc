/*
 * sysctl.c - the engine's /proc/sys/vm: tunables read back, and changed on a live engine with
 * the effects writing their sysctl has in Linux 4.8 (mm/page_alloc.c
 * min_free_kbytes_sysctl_handler(), watermark_scale_factor_sysctl_handler(),
 * lowmem_reserve_ratio_sysctl_handler(), percpu_pagelist_fraction_sysctl_handler(); the
 * others are read where they are used).
 *
 * The tunables that shape the engine (its size and zones, topology, prefaulting, mode,
 * threads, swap, device model, the mapped regions' access sampling, compaction, and its own
 * scale of the inactive ratio) are fixed at creation, as a kernel's are at boot.
 */
#include <errno.h>
#include <string.h>

#include "engine.h"
#include "mmzone.h"
#include "page_alloc.h"
#include "watermark.h"

/* What changing a tunable must recompute, beyond storing it. */
enum sysctl_effect {
	SYSCTL_READ_WHERE_USED, /* read each time it is used: storing it is enough */
	SYSCTL_WATERMARKS,      /* setup_per_zone_wmarks() */
	SYSCTL_LOWMEM_RESERVE,  /* setup_per_zone_lowmem_reserve() */
	SYSCTL_PCP_SIZES,       /* every per-CPU list's high and batch */
};

static const struct {
	const char *name;
	enum sysctl_effect effect;
} live_tunables[] = {
	{"swappiness", SYSCTL_READ_WHERE_USED},
	{"dirty_ratio", SYSCTL_READ_WHERE_USED},
	{"dirty_background_ratio", SYSCTL_READ_WHERE_USED},
	{"dirty_writeback_centisecs", SYSCTL_READ_WHERE_USED},
	{"dirty_expire_centisecs", SYSCTL_READ_WHERE_USED},
	{"kswapd_nap_ms", SYSCTL_READ_WHERE_USED},
	{"extfrag_threshold", SYSCTL_READ_WHERE_USED},
	{"min_free_kbytes", SYSCTL_WATERMARKS},
	{"watermark_scale_factor", SYSCTL_WATERMARKS},
	{"lowmem_reserve_ratio_dma", SYSCTL_LOWMEM_RESERVE},
	{"lowmem_reserve_ratio_dma32", SYSCTL_LOWMEM_RESERVE},
	{"lowmem_reserve_ratio_normal", SYSCTL_LOWMEM_RESERVE},
	{"percpu_pagelist_fraction", SYSCTL_PCP_SIZES},
};

static int live_tunable(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(live_tunables); i++)
		if (strcmp(live_tunables[i].name, name) == 0)
			return (int)i;
	return -1;
}

/* Every zone's per-CPU lists resized; -ENOMEM if one could not be. */
static int update_pcp_sizes(struct nlru_engine *eng)
{
	struct pglist_data *pgdat;
	struct zone *zone;
	int nid, err = 0;

	for_each_online_pgdat(pgdat, eng, nid)
		for_each_zone_in_node(zone, pgdat)
			if (managed_zone(zone) && !err)
				err = zone_pcp_update(eng, zone);
	return err;
}

int nlru_tunable_get(const struct nlru_engine *eng, const char *name, long *value)
{
	const long *field;

	if (!eng)
		return -EINVAL;
	if (!name || !value)
		return log_einval(&eng->log, "tunable_get: %s is NULL", !name ? "name" : "value");
	field = config_tunable_field((struct nlru_config *)&eng->cfg, name);
	if (!field) {
		log_err(&eng->log, "tunable_get: no tunable is called \"%s\"", name);
		return -ENOENT;
	}
	*value = __atomic_load_n(field, __ATOMIC_RELAXED);
	return 0;
}

int nlru_tunable_set(struct nlru_engine *eng, const char *name, long value)
{
	long *field, old;
	const char *why;
	int live, err = 0;

	if (!eng)
		return -EINVAL;
	if (!name)
		return log_einval(&eng->log, "tunable_set: name is NULL");
	field = config_tunable_field(&eng->cfg, name);
	if (!field) {
		log_err(&eng->log, "tunable_set: no tunable is called \"%s\"", name);
		return -ENOENT;
	}
	why = config_value_refused(name, value);
	if (why)
		return log_einval(&eng->log, "tunable_set: %s=%ld: %s", name, value, why);
	live = live_tunable(name);
	if (live < 0) {
		log_err(&eng->log,
			"tunable_set: %s is fixed when the engine is created; on a live engine "
			"only swappiness, the dirty_* tunables, kswapd_nap_ms, min_free_kbytes, "
			"watermark_scale_factor, the lowmem_reserve_ratio_* tunables, "
			"extfrag_threshold and percpu_pagelist_fraction change",
			name);
		return -EPERM;
	}
	mutex_lock(&eng->sysctl_lock);
	old = __atomic_exchange_n(field, value, __ATOMIC_RELAXED);
	if (old != value) {
		if (live_tunables[live].effect == SYSCTL_WATERMARKS)
			setup_per_zone_wmarks_live(eng);
		else if (live_tunables[live].effect == SYSCTL_LOWMEM_RESERVE)
			setup_per_zone_lowmem_reserve_live(eng);
		else if (live_tunables[live].effect == SYSCTL_PCP_SIZES)
			err = update_pcp_sizes(eng);
	}
	mutex_unlock(&eng->sysctl_lock);
	if (err)
		log_err(&eng->log,
			"tunable_set: %s=%ld: some per-CPU lists keep their old size: %s", name,
			value, strerror(-err));
	return err;
}
