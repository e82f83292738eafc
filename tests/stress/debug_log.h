/*
 * The stress programs' log callback: the library's debug reports (messages starting with
 * "debug: ": a failed invariant or a lock taken out of order, in builds with
 * -Ddebug_checks=full) go to stderr and are counted, and a program whose run had any fails.
 * Other messages (an allocation refused under pressure, ...) are part of the stress.
 */
#ifndef NODELRU_STRESS_DEBUG_LOG_H
#define NODELRU_STRESS_DEBUG_LOG_H

#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

#include <nodelru/nodelru.h>

static atomic_long debug_reports;

static void debug_log(void *arg, enum nlru_log_level level, const char *msg)
{
	(void)arg;
	(void)level;
	if (strncmp(msg, "debug: ", 7))
		return;
	atomic_fetch_add(&debug_reports, 1);
	fprintf(stderr, "%s\n", msg);
}

/* Debug reports heard so far (0 in builds without the full checks). */
static inline long debug_log_reports(void)
{
	return atomic_load(&debug_reports);
}

#endif /* NODELRU_STRESS_DEBUG_LOG_H */
