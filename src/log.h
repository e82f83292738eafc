/*
 * Diagnostics through the embedder's log callback.  The library never writes to stdout or
 * stderr on its own; with no callback, messages are dropped.
 */
#ifndef NODELRU_LOG_H
#define NODELRU_LOG_H

#include <errno.h>

#include <nodelru/nodelru.h>

struct nlru_log {
	nlru_log_fn fn;
	void *arg;
};

__attribute__((format(printf, 3, 4))) void
nlru_logf(const struct nlru_log *log, enum nlru_log_level level, const char *fmt, ...);

#define log_err(log, ...) nlru_logf(log, NLRU_LOG_ERROR, __VA_ARGS__)
#define log_warn(log, ...) nlru_logf(log, NLRU_LOG_WARN, __VA_ARGS__)
#define log_info(log, ...) nlru_logf(log, NLRU_LOG_INFO, __VA_ARGS__)
/* Say why an argument is refused, and give the -EINVAL to return. */
#define log_einval(log, ...) (nlru_logf(log, NLRU_LOG_ERROR, __VA_ARGS__), -EINVAL)

#endif /* NODELRU_LOG_H */
