/*
 * Formats a message and hands it to the embedder's callback; nothing else ever sees it.
 * nlru_engine_log() is the same door for libraries built on the engine (libnodelru-jemalloc).
 */
#include <stdarg.h>
#include <stdio.h>
#include <time.h>

#include "engine.h"
#include "log.h"

static void log_vformat(const struct nlru_log *log, enum nlru_log_level level, const char *fmt,
			va_list ap)
{
	char msg[512];

	if (!log || !log->fn)
		return;
	vsnprintf(msg, sizeof(msg), fmt, ap);
	log->fn(log->arg, level, msg);
}

void nlru_logf(const struct nlru_log *log, enum nlru_log_level level, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	log_vformat(log, level, fmt, ap);
	va_end(ap);
}

void nlru_logf_ratelimited(const struct nlru_log *log, struct ratelimit_state *rs,
			   enum nlru_log_level level, const char *fmt, ...)
{
	struct timespec ts;
	char msg[512];
	int dropped = 0;
	va_list ap;
	int n;

	if (!log || !log->fn)
		return;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	if (!ratelimit_ok(rs, (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec, &dropped))
		return;
	va_start(ap, fmt);
	n = vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (dropped && n >= 0 && (size_t)n < sizeof(msg))
		snprintf(msg + n, sizeof(msg) - (size_t)n,
			 " (%d more like it not logged: at most %d every %llu s)", dropped,
			 RATELIMIT_BURST, RATELIMIT_INTERVAL_NS / 1000000000ull);
	log->fn(log->arg, level, msg);
}

void nlru_engine_log(struct nlru_engine *eng, enum nlru_log_level level, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	log_vformat(eng ? &eng->log : NULL, level, fmt, ap);
	va_end(ap);
}
