/* Formats a message and hands it to the embedder's callback; nothing else ever sees it. */
#include <stdarg.h>
#include <stdio.h>

#include "log.h"

void nlru_logf(const struct nlru_log *log, enum nlru_log_level level, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	if (!log || !log->fn)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	log->fn(log->arg, level, msg);
}
