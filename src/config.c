/*
 * config.c - defaults, environment, by-name setting and validation of struct nlru_config.
 *
 * The tunables are generated from the one table in tunables.h; nothing here lists them again.
 * The environment is read by nlru_config_init(), so it changes the defaults a program starts
 * from and never overrides what the program then sets explicitly (two engines in one process
 * can differ whatever the environment says).
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "engine.h"

#define ENV_PREFIX "NLRU_"

struct tunable {
	const char *name;
	size_t offset;
	long def, min, max;
	const char *help;
};

static const struct tunable tunables[] = {
#define X(name, def, min, max, help)                                                               \
	{#name, offsetof(struct nlru_config, name), def, min, max, help},
	NLRU_TUNABLES(X)
#undef X
};

static long *tunable_field(struct nlru_config *cfg, const struct tunable *t)
{
	return (long *)((char *)cfg + t->offset);
}

static const struct tunable *tunable_find(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(tunables); i++)
		if (strcmp(tunables[i].name, name) == 0)
			return &tunables[i];
	return NULL;
}

static void env_name(const char *name, char *buf, size_t len)
{
	size_t i = strlen(ENV_PREFIX);

	memcpy(buf, ENV_PREFIX, i);
	for (; *name && i + 1 < len; name++)
		buf[i++] = (char)toupper((unsigned char)*name);
	buf[i] = '\0';
}

/* Words some tunables accept in place of their numbers: NLRU_MODE=zone reads better than 1. */
static const struct {
	const char *tunable, *word;
	long value;
} tunable_words[] = {
	{"mode", "node", NLRU_MODE_NODE},
	{"mode", "zone", NLRU_MODE_ZONE},
	{"mode", "4.8", NLRU_MODE_NODE},
	{"mode", "4.7", NLRU_MODE_ZONE},
};

/*
 * A whole number and nothing else: an optional minus sign, then decimal digits, or hex digits
 * after 0x.  strtol alone would also take leading spaces and a plus sign but not trailing
 * ones, and with base 0 read "010" as octal 8.
 */
static int parse_number(const char *text, long *out)
{
	const char *digits = text + (*text == '-');
	bool hex = digits[0] == '0' && (digits[1] == 'x' || digits[1] == 'X');
	char *end;
	long v;

	if (!(hex ? isxdigit((unsigned char)digits[2]) : isdigit((unsigned char)digits[0])))
		return -EINVAL;
	errno = 0;
	v = strtol(text, &end, hex ? 16 : 10);
	if (errno || *end)
		return -EINVAL;
	*out = v;
	return 0;
}

/* A whole decimal (or 0x hex) number within [min, max], or one of @name's words. */
static int parse_value(const char *name, const char *text, long min, long max, long *out)
{
	long v;

	if (!text || !*text)
		return -EINVAL;
	for (size_t i = 0; i < ARRAY_SIZE(tunable_words); i++) {
		if (strcmp(tunable_words[i].tunable, name) == 0 &&
		    strcasecmp(tunable_words[i].word, text) == 0) {
			*out = tunable_words[i].value;
			return 0;
		}
	}
	if (parse_number(text, &v) || v < min || v > max)
		return -EINVAL;
	*out = v;
	return 0;
}

/*
 * A value within a tunable's range that it still does not take: why, or NULL.  The one rule
 * a [min, max] range cannot say; nlru_config_set() and engine creation both apply it.
 */
static const char *value_refused(const struct tunable *t, long v)
{
	if (strcmp(t->name, "percpu_pagelist_fraction") == 0 && v && v < 8)
		return "must be 0 or at least 8";
	return NULL;
}

long *config_tunable_field(struct nlru_config *cfg, const char *name)
{
	const struct tunable *t = name ? tunable_find(name) : NULL;

	return t ? tunable_field(cfg, t) : NULL;
}

const char *config_value_refused(const char *name, long value)
{
	static __thread char why[64];
	const struct tunable *t = tunable_find(name);

	if (!t)
		return "no such tunable";
	if (value < t->min || value > t->max) {
		snprintf(why, sizeof(why), "not in [%ld, %ld]", t->min, t->max);
		return why;
	}
	return value_refused(t, value);
}

int nlru_tunable_info(unsigned int index, struct nlru_tunable_info *info)
{
	const struct tunable *t;

	if (!info)
		return -EINVAL;
	if (index >= ARRAY_SIZE(tunables))
		return -ENOENT;
	t = &tunables[index];
	*info = (struct nlru_tunable_info){
		.name = t->name, .def = t->def, .min = t->min, .max = t->max, .help = t->help};
	env_name(t->name, info->env, sizeof(info->env));
	return 0;
}

int nlru_config_init(struct nlru_config *cfg)
{
	const char *topology, *swap_path;

	if (!cfg)
		return -EINVAL;
	memset(cfg, 0, sizeof(*cfg));
	cfg->size = sizeof(*cfg);
	cfg->version = NLRU_CONFIG_VERSION;
	for (size_t i = 0; i < ARRAY_SIZE(tunables); i++) {
		const struct tunable *t = &tunables[i];
		char env[64];
		long v;

		*tunable_field(cfg, t) = t->def;
		env_name(t->name, env, sizeof(env));
		if (parse_value(t->name, getenv(env), t->min, t->max, &v) == 0)
			*tunable_field(cfg, t) = v;
	}
	topology = getenv(ENV_PREFIX "TOPOLOGY");
	if (topology && *topology)
		cfg->topology = topology;
	swap_path = getenv(ENV_PREFIX "SWAP_PATH");
	if (swap_path && *swap_path)
		cfg->swap_path = swap_path;
	return 0;
}

int nlru_config_set(struct nlru_config *cfg, const char *name, const char *value)
{
	struct nlru_log log;
	const struct tunable *t;
	long v;

	if (!cfg)
		return -EINVAL;
	log = (struct nlru_log){cfg->log, cfg->log_arg};
	if (!name)
		return log_einval(&log, "config: set needs a tunable name (name is NULL)");
	if (strcmp(name, "topology") == 0) {
		cfg->topology = value;
		return 0;
	}
	if (strcmp(name, "swap_path") == 0) {
		cfg->swap_path = value;
		return 0;
	}
	t = tunable_find(name);
	if (!t) {
		log_err(&log, "config: no tunable is called \"%s\"", name);
		return -ENOENT;
	}
	if (parse_value(name, value, t->min, t->max, &v)) {
		log_err(&log, "config: %s=\"%s\" is not a number in [%ld, %ld]", name,
			value ? value : "", t->min, t->max);
		return -EINVAL;
	}
	if (value_refused(t, v)) {
		log_err(&log, "config: %s=\"%s\": %s", name, value, value_refused(t, v));
		return -EINVAL;
	}
	*tunable_field(cfg, t) = v;
	return 0;
}

static int check_ranges(const struct nlru_config *cfg, const struct nlru_log *log)
{
	for (size_t i = 0; i < ARRAY_SIZE(tunables); i++) {
		const struct tunable *t = &tunables[i];
		long v = *tunable_field((struct nlru_config *)cfg, t);

		if (v < t->min || v > t->max) {
			log_err(log, "config: %s = %ld is outside [%ld, %ld]", t->name, v, t->min,
				t->max);
			return -EINVAL;
		}
		if (value_refused(t, v)) {
			log_err(log, "config: %s = %ld: %s", t->name, v, value_refused(t, v));
			return -EINVAL;
		}
	}
	return 0;
}

/*
 * nlru_config_init() has no log to say that it ignored an NLRU_* variable it could not take;
 * the engine's creation says it, so that a mistyped or out-of-range value does not pass
 * unnoticed (the engine is made with what the program set, the default unless it set more).
 */
static void warn_ignored_environment(const struct nlru_log *log)
{
	for (size_t i = 0; i < ARRAY_SIZE(tunables); i++) {
		const struct tunable *t = &tunables[i];
		const char *text;
		char env[64];
		long v;

		env_name(t->name, env, sizeof(env));
		text = getenv(env);
		if (!text || parse_value(t->name, text, t->min, t->max, &v) == 0)
			continue;
		log_warn(log,
			 "config: %s=\"%s\" in the environment is not a number in [%ld, %ld]; "
			 "nlru_config_init() ignored it",
			 env, text, t->min, t->max);
	}
}

static int check_consistency(const struct nlru_config *cfg, const struct nlru_log *log)
{
	if (cfg->dma_pct + cfg->dma32_pct + cfg->movable_pct > 100) {
		log_err(log,
			"config: zone layout does not add up: DMA %ld%% + DMA32 %ld%% + Movable "
			"%ld%% of node 0 is more than 100%%",
			cfg->dma_pct, cfg->dma32_pct, cfg->movable_pct);
		return -EINVAL;
	}
	return 0;
}

#define MEMBER_SIZE(m) sizeof(((struct nlru_config *)0)->m)
#define MEMBER_END(m) (offsetof(struct nlru_config, m) + MEMBER_SIZE(m))

/*
 * The sizes a caller's struct may have: the header, or the end of any later member.  Any
 * other size cuts a member in two, and copying it would make a torn pointer or number.
 */
static const size_t config_sizes[] = {offsetof(struct nlru_config, topology),
				      MEMBER_END(topology),
				      MEMBER_END(log),
				      MEMBER_END(log_arg),
				      MEMBER_END(clock),
				      MEMBER_END(clock_arg),
				      MEMBER_END(swap_path),
#define X(name, def, min, max, help) MEMBER_END(name),
				      NLRU_TUNABLES(X)
#undef X
};
/* The list above misses no member: with one left out, the sizes would not add up. */
#define X(name, def, min, max, help) +MEMBER_SIZE(name)
STATIC_ASSERT(offsetof(struct nlru_config, topology) + MEMBER_SIZE(topology) + MEMBER_SIZE(log) +
			      MEMBER_SIZE(log_arg) + MEMBER_SIZE(clock) + MEMBER_SIZE(clock_arg) +
			      MEMBER_SIZE(swap_path) NLRU_TUNABLES(X) ==
		      sizeof(struct nlru_config),
	      "config_sizes lists every member of struct nlru_config");
#undef X

static bool config_size_known(size_t size)
{
	for (size_t i = 0; i < ARRAY_SIZE(config_sizes); i++)
		if (config_sizes[i] == size)
			return true;
	return false;
}

int config_copy(struct nlru_config *dst, const struct nlru_config *src, const struct nlru_log *log)
{
	size_t header = offsetof(struct nlru_config, topology);
	int r;

	if (src->size < header) {
		log_err(log, "config: size %zu is too small; call nlru_config_init() first",
			src->size);
		return -EINVAL;
	}
	if (src->size <= sizeof(*dst) && !config_size_known(src->size)) {
		log_err(log,
			"config: size %zu ends inside a member of struct nlru_config; set it "
			"with nlru_config_init() or to sizeof(struct nlru_config)",
			src->size);
		return -EINVAL;
	}
	/* A bigger struct or a later version has fields this library would silently ignore. */
	if (src->size > sizeof(*dst) || src->version == 0 || src->version > NLRU_CONFIG_VERSION) {
		log_err(log,
			"config: size %zu, version %u is not a struct nlru_config this library "
			"knows (size at most %zu, version 1 to %d); was the program built against a "
			"newer nodelru, or without nlru_config_init()?",
			src->size, src->version, sizeof(*dst), NLRU_CONFIG_VERSION);
		return -EINVAL;
	}
	/* Fields past the caller's struct (an older, shorter one) keep their defaults. */
	nlru_config_init(dst);
	memcpy(dst, src, MIN(src->size, sizeof(*dst)));
	dst->size = sizeof(*dst);
	warn_ignored_environment(log);
	r = check_ranges(dst, log);
	if (!r)
		r = check_consistency(dst, log);
	return r;
}
