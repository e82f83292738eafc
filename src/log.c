/*
 * Formats a message and hands it to the embedder's callback; nothing else ever sees it.
 * nlru_engine_log() is the same door for libraries built on the engine (libnodelru-jemalloc).
 */
#include <stdarg.h>
#include <stdio.h>

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

void nlru_engine_log(struct nlru_engine *eng, enum nlru_log_level level, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	log_vformat(eng ? &eng->log : NULL, level, fmt, ap);
	va_end(ap);
}
