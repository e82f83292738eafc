/*
 * debug.c - reporting the debug checks of debug.h: a failed check is logged through the
 * engine's log callback with where it is and what it says, and counted for tests, and the
 * engine carries on.
 */
#include <stdatomic.h>
#include <string.h>

#include "debug.h"
#include "log.h"
#include "witness.h"

static _Atomic unsigned long check_failures;

/* The path from the source tree's root: "src/buddy.c" rather than the build's "../src/buddy.c". */
const char *debug_source_path(const char *file)
{
	while (!strncmp(file, "../", 3))
		file += 3;
	return file;
}

void debug_check_failed(const struct nlru_log *log, const char *file, int line, const char *expr)
{
	atomic_fetch_add_explicit(&check_failures, 1, memory_order_relaxed);
	log_err(log, "debug: check `%s' failed at %s:%d", expr, debug_source_path(file), line);
}

unsigned long debug_check_failures(void)
{
	return atomic_load_explicit(&check_failures, memory_order_relaxed);
}

void debug_reset_counters(void)
{
	atomic_store_explicit(&check_failures, 0, memory_order_relaxed);
	witness_reset_counters();
}
