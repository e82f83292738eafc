/*
 * reclaim_mode.c - the two mode tables.  Each entry names the function that does the job the
 * Linux way of that version; reclaim_mode.h says what every entry is for.
 */
#include "reclaim_mode.h"
#include "kswapd.h"
#include "vmscan.h"
#include "vmstat_dump.h"

const struct reclaim_mode reclaim_mode_48 = {
	.lru_per_zone = false,
	.fair_zone_policy = false,
	.shrink_zones = shrink_zones_48,
	.wake_all_kswapds = wake_all_kswapds_48,
	.kswapd_loop = kswapd_loop_48,
	.kswapd_run_once = kswapd_run_once_48,
	.prepare_kswapd_sleep = prepare_kswapd_sleep_48,
	.kswapd_woken_early = kswapd_woken_early_48,
	.kswapd_classzone_reset = kswapd_classzone_reset_48,
	.dump_vmstat_items = dump_vmstat_items_48,
	.dump_vmstat_events = dump_vmstat_events_48,
	.dump_zoneinfo = dump_zoneinfo_48,
};

const struct reclaim_mode reclaim_mode_47 = {
	.lru_per_zone = true,
	.fair_zone_policy = true,
	.shrink_zones = shrink_zones_47,
	.wake_all_kswapds = wake_all_kswapds_47,
	.kswapd_loop = kswapd_loop_47,
	.kswapd_run_once = kswapd_run_once_47,
	.prepare_kswapd_sleep = prepare_kswapd_sleep_47,
	.kswapd_woken_early = kswapd_woken_early_47,
	.kswapd_classzone_reset = kswapd_classzone_reset_47,
	.dump_vmstat_items = dump_vmstat_items_47,
	.dump_vmstat_events = dump_vmstat_events_47,
	.dump_zoneinfo = dump_zoneinfo_47,
};
