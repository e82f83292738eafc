/*
 * harness - engine setup, results files and progress output of the benchmark programs.
 * Messages go to stderr; stdout belongs to the tables.
 */
#include "harness.h"

#include <errno.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <nodelru/vmstat.h>

const char harness_usage[] =
	"  --mib N            memory per node of each engine, MiB\n"
	"  --topology T       hwloc synthetic topology (\"pack:2 numa:1 core:1 pu:1\"); default: "
	"the machine's\n"
	"  --set NAME=VALUE   any engine tunable (see nlru-tunables), for every engine\n"
	"  --modes LIST       reclaim modes, comma-separated, the first is the baseline "
	"(default zone,node)\n"
	"  --results DIR      where the logs, dumps and tables go (default: a new folder in $TMPDIR)\n"
	"  --mmtests-root DIR where mmtests' results layout goes: tests-timestamp-<column> and\n"
	"                     <bench>-<column>/noprofile (default: the --results folder)\n"
	"  --cpu C            CPU the measuring thread is bound to (-1: none; default: the first allowed)\n"
	"  --quiet            no progress line\n";

void harness_opts_init(struct harness_opts *o, long node_mib)
{
	memset(o, 0, sizeof(*o));
	o->node_mib = node_mib;
	o->modes[0] = NLRU_MODE_ZONE;
	o->modes[1] = NLRU_MODE_NODE;
	o->nr_modes = 2;
	o->cpu = HARNESS_CPU_FIRST;
}

static int parse_modes(struct harness_opts *o, const char *s)
{
	char buf[64], *save = NULL;

	if (strlen(s) >= sizeof(buf))
		return -EINVAL;
	strcpy(buf, s);
	o->nr_modes = 0;
	for (char *w = strtok_r(buf, ",", &save); w; w = strtok_r(NULL, ",", &save)) {
		enum nlru_mode m;

		if (strcmp(w, "zone") == 0 || strcmp(w, "4.7") == 0)
			m = NLRU_MODE_ZONE;
		else if (strcmp(w, "node") == 0 || strcmp(w, "4.8") == 0)
			m = NLRU_MODE_NODE;
		else
			return -EINVAL;
		if (o->nr_modes == HARNESS_MAX_MODES || (o->nr_modes == 1 && o->modes[0] == m))
			return -EINVAL;
		o->modes[o->nr_modes++] = m;
	}
	return o->nr_modes ? 0 : -EINVAL;
}

static int take_value(struct harness_opts *o, const char *opt, const char *val)
{
	char *end;

	if (strcmp(opt, "--mib") == 0) {
		o->node_mib = strtol(val, &end, 10);
		return *end || o->node_mib <= 0 ? -EINVAL : 0;
	}
	if (strcmp(opt, "--cpu") == 0) {
		o->cpu = (int)strtol(val, &end, 10);
		return *end || o->cpu < -1 ? -EINVAL : 0;
	}
	if (strcmp(opt, "--topology") == 0)
		return o->topology = val, 0;
	if (strcmp(opt, "--results") == 0)
		return o->results = val, 0;
	if (strcmp(opt, "--mmtests-root") == 0)
		return o->mmtests_root = val, 0;
	if (strcmp(opt, "--modes") == 0)
		return parse_modes(o, val);
	if (o->nr_sets == HARNESS_MAX_SETS || !strchr(val, '='))
		return -EINVAL;
	o->sets[o->nr_sets++] = val;
	return 0;
}

int harness_parse_opt(struct harness_opts *o, int argc, char **argv, int *i)
{
	static const char *const with_value[] = {"--mib",     "--topology",     "--set", "--modes",
						 "--results", "--mmtests-root", "--cpu"};
	const char *opt = argv[*i];

	if (strcmp(opt, "--quiet") == 0) {
		o->quiet = 1;
		return 1;
	}
	for (size_t k = 0; k < sizeof(with_value) / sizeof(with_value[0]); k++) {
		if (strcmp(opt, with_value[k]) != 0)
			continue;
		if (*i + 1 >= argc || take_value(o, opt, argv[*i + 1])) {
			fprintf(stderr, "%s: missing or bad value\n", opt);
			return -EINVAL;
		}
		*i += 1;
		return 1;
	}
	return 0;
}

int harness_parse_args(struct harness_opts *o, int argc, char **argv, harness_own_opt_fn own,
		       void *arg)
{
	for (int i = 1; i < argc; i++) {
		int r;

		if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0)
			return 1;
		r = harness_parse_opt(o, argc, argv, &i);
		if (r < 0)
			return r;
		if (r)
			continue;
		r = own(arg, argv[i], i + 1 < argc ? argv[i + 1] : NULL);
		if (r < 0) {
			fprintf(stderr, "%s: bad option or value '%s'\n", argv[0], argv[i]);
			return r;
		}
		i += r;
	}
	return 0;
}

static void log_stderr(void *arg, enum nlru_log_level level, const char *msg)
{
	if (level <= NLRU_LOG_WARN)
		fprintf(stderr, "nodelru: %s\n", msg);
}

static int set_pair(struct nlru_config *cfg, const char *pair)
{
	char name[64];
	const char *eq = strchr(pair, '=');
	int r;

	if (!eq || (size_t)(eq - pair) >= sizeof(name))
		return -EINVAL;
	memcpy(name, pair, (size_t)(eq - pair));
	name[eq - pair] = '\0';
	r = nlru_config_set(cfg, name, eq + 1);
	if (r)
		fprintf(stderr, "--set %s: %s\n", pair, strerror(-r));
	return r;
}

int harness_engine(const struct harness_opts *o, enum nlru_mode mode, const char *const *extra,
		   struct nlru_engine **out)
{
	struct nlru_config cfg;
	int r;

	nlru_config_init(&cfg);
	cfg.log = log_stderr;
	cfg.node_mib = o->node_mib;
	cfg.prefault = 1;
	cfg.mode = mode;
	if (o->topology && *o->topology)
		cfg.topology = o->topology;
	for (; extra && *extra; extra++)
		if ((r = set_pair(&cfg, *extra)))
			return r;
	for (int k = 0; k < o->nr_sets; k++)
		if ((r = set_pair(&cfg, o->sets[k])))
			return r;
	/* The mode is what the column says, whatever --set or NLRU_MODE asked for. */
	cfg.mode = mode;
	r = nlru_engine_create(&cfg, out);
	if (r)
		fprintf(stderr, "engine (%s): %s\n", harness_mode_column(mode), strerror(-r));
	return r;
}

void harness_print_user_sets(const struct harness_opts *h)
{
	if (h->nr_sets)
		printf(", then --set");
	for (int i = 0; i < h->nr_sets; i++)
		printf(" %s", h->sets[i]);
}

const char *harness_mode_column(enum nlru_mode mode)
{
	return mode == NLRU_MODE_ZONE ? "4.7-zone" : "4.8-node";
}

void harness_bind_cpu(const struct harness_opts *o)
{
	cpu_set_t set;

	int cpu = o->cpu;

	if (cpu == HARNESS_CPU_FIRST) {
		/* The first CPU this process may run on: a cpuset need not include CPU 0. */
		if (sched_getaffinity(0, sizeof(set), &set))
			return;
		for (cpu = 0; cpu < CPU_SETSIZE && !CPU_ISSET(cpu, &set); cpu++)
			;
	}
	if (cpu < 0 || cpu >= CPU_SETSIZE)
		return;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		fprintf(stderr, "cannot bind to CPU %d: %s\n", cpu, strerror(errno));
}

int harness_mkdir(const char *path)
{
	char buf[HARNESS_PATH_MAX];
	size_t len = strlen(path);

	if (len == 0 || len >= sizeof(buf))
		return -ENAMETOOLONG;
	memcpy(buf, path, len + 1);
	for (char *p = buf + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(buf, 0755) && errno != EEXIST)
			return -errno;
		*p = '/';
	}
	if (mkdir(buf, 0755) && errno != EEXIST)
		return -errno;
	return 0;
}

int harness_results_dir(struct harness_opts *o, const char *bench, char *buf)
{
	const char *tmp = getenv("TMPDIR");
	int r;

	if (o->results) {
		r = harness_mkdir(o->results);
		if (r)
			fprintf(stderr, "%s: %s\n", o->results, strerror(-r));
		return r;
	}
	snprintf(buf, HARNESS_PATH_MAX, "%s/nlru-%s-XXXXXX", tmp && *tmp ? tmp : "/tmp", bench);
	if (!mkdtemp(buf)) {
		r = -errno;
		fprintf(stderr, "%s: %s\n", buf, strerror(errno));
		return r;
	}
	o->results = buf;
	fprintf(stderr, "%s: results in %s\n", bench, buf);
	return 0;
}

int harness_path(char *buf, const char *dir, const char *name)
{
	int n = snprintf(buf, HARNESS_PATH_MAX, "%s/%s", dir, name);

	return n < 0 || n >= HARNESS_PATH_MAX ? -ENAMETOOLONG : 0;
}

FILE *harness_fopen(const char *dir, const char *name, const char *mode)
{
	char path[HARNESS_PATH_MAX];
	FILE *f = NULL;

	if (harness_path(path, dir, name) == 0)
		f = fopen(path, mode);
	if (!f)
		fprintf(stderr, "%s/%s: %s\n", dir, name, strerror(errno));
	return f;
}

static int close_checked(FILE *f)
{
	int bad = ferror(f);

	return fclose(f) || bad ? -EIO : 0;
}

int harness_dump(struct nlru_engine *eng, const char *dir, const char *when)
{
	/* diskstats is empty for an engine without the block device. */
	static const struct {
		const char *name;
		int (*dump)(struct nlru_engine *, FILE *);
	} dumps[] = {
		{"vmstat", nlru_vmstat_dump},
		{"zoneinfo", nlru_zoneinfo_dump},
		{"diskstats", nlru_diskstats_dump},
		{"buddyinfo", nlru_buddyinfo_dump},
		{"pagetypeinfo", nlru_pagetypeinfo_dump},
	};
	char name[64];

	for (size_t k = 0; k < sizeof(dumps) / sizeof(dumps[0]); k++) {
		FILE *f;
		int r;

		snprintf(name, sizeof(name), "%s-%s", dumps[k].name, when);
		if (!(f = harness_fopen(dir, name, "w")))
			return -EIO;
		r = dumps[k].dump(eng, f);
		if (close_checked(f) || r)
			return -EIO;
	}
	return 0;
}

int harness_write_table(const struct mm_table *t, const char *dir, const char *base)
{
	static void (*const print[])(const struct mm_table *, FILE *) = {
		mm_table_print, mm_table_print_csv, mm_table_print_json};
	static const char *const ext[] = {"txt", "csv", "json"};
	char name[256];

	for (int k = 0; k < 3; k++) {
		FILE *f;

		snprintf(name, sizeof(name), "%s.%s", base, ext[k]);
		if (!(f = harness_fopen(dir, name, "w")))
			return -EIO;
		print[k](t, f);
		if (close_checked(f))
			return -EIO;
	}
	return 0;
}

int harness_emit_table(struct mm_table *t, const char *dir, const char *base, const char *title)
{
	int r = harness_write_table(t, dir, base);

	if (!r) {
		printf("%s\n", title);
		mm_table_print(t, stdout);
		printf("\n");
	}
	mm_table_fini(t);
	return r;
}

void harness_progress(const struct harness_opts *o, const char *fmt, ...)
{
	va_list ap;

	if (o->quiet || !isatty(STDERR_FILENO))
		return;
	fputs("\r\033[K", stderr);
	if (fmt) {
		va_start(ap, fmt);
		vfprintf(stderr, fmt, ap);
		va_end(ap);
	}
	fflush(stderr);
}
