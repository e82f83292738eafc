/*
 * Diagnostics through the embedder's log callback.  The library never writes to stdout or
 * stderr on its own; with no callback, messages are dropped.
 */
#ifndef NODELRU_LOG_H
#define NODELRU_LOG_H

#include <errno.h>

#include <nodelru/nodelru.h>

#include "ratelimit.h"

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

/*
 * A message that may repeat as fast as its cause (a failing disk, a refused call in a loop)
 * goes through a struct ratelimit_state (ratelimit.h), as printk_ratelimited() does in
 * Linux: at most RATELIMIT_BURST messages in each RATELIMIT_INTERVAL_NS of real time, so
 * that the embedder's callback, which must return promptly, is not called thousands of times
 * a second.  The first message let through after some were held back says how many.
 */
/* nlru_logf() unless @rs has let RATELIMIT_BURST through in this interval. */
__attribute__((format(printf, 4, 5))) void nlru_logf_ratelimited(const struct nlru_log *log,
								 struct ratelimit_state *rs,
								 enum nlru_log_level level,
								 const char *fmt, ...);

#define log_err_ratelimited(log, rs, ...)                                                          \
	nlru_logf_ratelimited(log, rs, NLRU_LOG_ERROR, __VA_ARGS__)
#define log_warn_ratelimited(log, rs, ...)                                                         \
	nlru_logf_ratelimited(log, rs, NLRU_LOG_WARN, __VA_ARGS__)

#endif /* NODELRU_LOG_H */
