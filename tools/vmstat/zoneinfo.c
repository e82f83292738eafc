/*
 * zoneinfo - parser of /proc/zoneinfo.  The file is a sequence of zone blocks; what a line
 * means depends on where in the block it is (the "high" watermark and a pageset's "high:" are
 * different things), so the parser is a small state machine: header, per-node stats, zone
 * fields, pagesets.  Indentation differs between 4.7 and 4.8 and is ignored.
 */
#include "zoneinfo.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "input.h"
#include "wrap.h"

enum zi_state { ZS_NONE, ZS_HEADER, ZS_NODE_STATS, ZS_ZONE, ZS_PAGESETS };

struct zi_parser {
	struct zoneinfo *zi;
	const struct vm_diag *diag;
	enum zi_state state;
	unsigned int line;
};

const char *const zoneinfo_lru_names[ZI_NR_LRU] = {
	"inactive_anon", "active_anon", "inactive_file", "active_file", "unevictable",
};

int zoneinfo_init(struct zoneinfo *zi, const char *path)
{
	memset(zi, 0, sizeof(*zi));
	if (path) {
		zi->path = strdup(path);
		if (!zi->path)
			return -ENOMEM;
	}
	return 0;
}

void zoneinfo_fini(struct zoneinfo *zi)
{
	for (size_t i = 0; i < zi->nr_zones; i++)
		dump_fini(&zi->zones[i].fields);
	for (size_t i = 0; i < zi->nr_nodes; i++)
		dump_fini(&zi->nodes[i].stats);
	free(zi->zones);
	free(zi->nodes);
	free(zi->path);
	memset(zi, 0, sizeof(*zi));
}

static struct zi_node *node_find(const struct zoneinfo *zi, int id)
{
	for (size_t i = 0; i < zi->nr_nodes; i++)
		if (zi->nodes[i].id == id)
			return &zi->nodes[i];
	return NULL;
}

static struct zi_node *node_get(struct zoneinfo *zi, int id)
{
	struct zi_node *nn = node_find(zi, id);

	if (nn)
		return nn;
	nn = realloc(zi->nodes, (zi->nr_nodes + 1) * sizeof(*nn));
	if (!nn)
		return NULL;
	zi->nodes = nn;
	nn = &zi->nodes[zi->nr_nodes];
	memset(nn, 0, sizeof(*nn));
	nn->id = id;
	if (dump_init(&nn->stats, zi->path))
		return NULL;
	zi->nr_nodes++;
	return nn;
}

static struct zi_zone *cur_zone(struct zi_parser *p)
{
	return &p->zi->zones[p->zi->nr_zones - 1];
}

static void malformed(struct zi_parser *p, const char *why)
{
	p->zi->nr_malformed++;
	diag_report(p->diag, p->zi->path, p->line, "%s; line skipped", why);
}

static int zone_new(struct zi_parser *p, int node, const char *name)
{
	struct zi_zone *z;

	if (!node_get(p->zi, node))
		return -ENOMEM;
	z = realloc(p->zi->zones, (p->zi->nr_zones + 1) * sizeof(*z));
	if (!z)
		return -ENOMEM;
	p->zi->zones = z;
	z = &z[p->zi->nr_zones];
	memset(z, 0, sizeof(*z));
	z->node = node;
	snprintf(z->name, sizeof(z->name), "%s", name);
	z->line = p->line;
	if (dump_init(&z->fields, p->zi->path))
		return -ENOMEM;
	p->zi->nr_zones++;
	p->state = ZS_HEADER;
	return 0;
}

/* "Node 0, zone   Normal": returns 1 if it was a header, 0 if not, or -ENOMEM. */
static int header(struct zi_parser *p, const char *s, size_t len)
{
	char text[128], name[ZI_NAME_MAX];
	int node, used = 0, err;

	if (len < 5 || memcmp(s, "Node ", 5) != 0)
		return 0;
	if (len >= sizeof(text)) {
		malformed(p, "zone header too long");
		return 1;
	}
	memcpy(text, s, len);
	text[len] = '\0';
	if (sscanf(text, "Node %6d, zone %15s%n", &node, name, &used) != 2 || node < 0 ||
	    text[used] != '\0') {
		malformed(p, "bad zone header (expected 'Node N, zone NAME')");
		p->state = ZS_NONE; /* its lines belong to no zone we know */
		return 1;
	}
	err = zone_new(p, node, name);
	return err ? err : 1;
}

static int add_field(struct zi_parser *p, struct vm_dump *d, const char *name, size_t nlen,
		     int64_t v)
{
	int err = dump_add(d, name, nlen, v, p->line);

	if (err == -EEXIST) {
		malformed(p, "field repeated within one block");
		return 0;
	}
	return err;
}

static int is_trailer(const char *key, size_t klen)
{
	static const char *const keys[] = {"node_unreclaimable", "all_unreclaimable", "start_pfn",
					   "inactive_ratio", "node_inactive_ratio"};

	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		if (strlen(keys[i]) == klen && memcmp(keys[i], key, klen) == 0)
			return 1;
	return 0;
}

/* "key: value" lines: pagesets, stat thresholds, protection, and the zone's trailer. */
static int colon_line(struct zi_parser *p, const char *s, size_t len, const char *colon)
{
	size_t klen = (size_t)(colon - s), vlen = len - klen - 1;
	const char *why = NULL;
	int64_t v;

	if (klen == 0) {
		malformed(p, "bad 'key: value' line");
		return 0;
	}
	if (klen == 10 && memcmp(s, "protection", 10) == 0)
		return 0; /* lowmem_reserve: not summarised */
	if (dump_parse_value(colon + 1, vlen, &v, &why)) {
		malformed(p, why);
		return 0;
	}
	/*
	 * Per-CPU pagesets and "vm stats threshold:" carry nothing the summary shows; the zone's
	 * trailer (start_pfn:, node_unreclaimable:, ...) follows the pagesets and is kept.
	 */
	if (memchr(s, ' ', klen) || p->state == ZS_NODE_STATS ||
	    (p->state == ZS_PAGESETS && !is_trailer(s, klen)))
		return 0;
	return add_field(p, &cur_zone(p)->fields, s, klen, v);
}

static int name_value(struct zi_parser *p, const char *s, size_t len)
{
	const char *name = NULL, *why = NULL;
	size_t nlen = 0;
	int64_t v = 0;
	struct zi_node *n;

	if (dump_parse_line(s, len, &name, &nlen, &v, &why) != 1) {
		malformed(p, why ? why : "expected 'name value'");
		return 0;
	}
	if (p->state == ZS_NODE_STATS) {
		n = node_find(p->zi, cur_zone(p)->node);
		return add_field(p, &n->stats, name, nlen, v);
	}
	return add_field(p, &cur_zone(p)->fields, name, nlen, v);
}

static int is_text(const char *s, size_t len, const char *word)
{
	return strlen(word) == len && memcmp(s, word, len) == 0;
}

/*
 * 2.6 kernels before 2.6.28: "scanned N (a: A i: I)", the pages scanned since the last free
 * and the active and inactive scan counts.  Returns 1 if @s was that line.
 */
static int scanned_26(struct zi_parser *p, const char *s, size_t len, int *err)
{
	char text[128];
	long long n, a, i;
	int used = 0;

	if (len >= sizeof(text) || len < 8 || memcmp(s, "scanned ", 8) != 0 || !memchr(s, '(', len))
		return 0;
	memcpy(text, s, len);
	text[len] = '\0';
	if (sscanf(text, "scanned %lld (a: %lld i: %lld)%n", &n, &a, &i, &used) != 3 ||
	    text[used] != '\0') {
		malformed(p, "bad 'scanned N (a: A i: I)' line");
		return 1;
	}
	*err = add_field(p, &cur_zone(p)->fields, "scanned", 7, n);
	if (!*err)
		*err = add_field(p, &cur_zone(p)->fields, "nr_scan_active", 14, a);
	if (!*err)
		*err = add_field(p, &cur_zone(p)->fields, "nr_scan_inactive", 16, i);
	return 1;
}

/* One line of a zone block, @s without indentation or trailing blanks. */
static int zone_line(struct zi_parser *p, const char *s, size_t len)
{
	const char *colon = memchr(s, ':', len);
	int err = 0;

	if (is_text(s, len, "per-node stats")) {
		if (p->state != ZS_HEADER) {
			malformed(p, "'per-node stats' not right after a zone header");
			return 0;
		}
		node_find(p->zi, cur_zone(p)->node)->has_stats = 1;
		p->state = ZS_NODE_STATS;
		return 0;
	}
	if (len > 10 && memcmp(s, "pages free", 10) == 0 && (s[10] == ' ' || s[10] == '\t')) {
		p->state = ZS_ZONE;
		return name_value(p, s + 6, len - 6); /* "free N" */
	}
	if (p->state == ZS_HEADER) {
		malformed(p, "expected 'per-node stats' or 'pages free' after a zone header");
		return 0;
	}
	if (is_text(s, len, "pagesets")) {
		p->state = ZS_PAGESETS;
		return 0;
	}
	/* A pageset's head: "cpu: N" (2.6.2x: "cpu: N pcp: M", one per hot and cold list). */
	if (p->state == ZS_PAGESETS && colon == s + 3 && memcmp(s, "cpu", 3) == 0)
		return 0;
	if (scanned_26(p, s, len, &err))
		return err;
	if (colon)
		return colon_line(p, s, len, colon);
	if (p->state == ZS_PAGESETS) {
		malformed(p, "expected 'key: value' in pagesets");
		return 0;
	}
	return name_value(p, s, len);
}

static int one_line(struct zi_parser *p, const char *s, size_t len)
{
	int r;

	while (len && (*s == ' ' || *s == '\t')) {
		s++;
		len--;
	}
	while (len && (s[len - 1] == ' ' || s[len - 1] == '\t' || s[len - 1] == '\r'))
		len--;
	if (len == 0)
		return 0;
	r = header(p, s, len);
	if (r)
		return r < 0 ? r : 0;
	if (p->state == ZS_NONE) {
		malformed(p, "line outside any zone block");
		return 0;
	}
	return zone_line(p, s, len);
}

int zoneinfo_parse(struct zoneinfo *zi, const char *buf, size_t len, const struct vm_diag *diag)
{
	struct zi_parser p = {zi, diag, ZS_NONE, 0};
	size_t pos = 0, n;
	const char *s;

	while ((s = input_next_line(buf, len, &pos, &n))) {
		int err;

		p.line++;
		err = one_line(&p, s, n);
		if (err)
			return err;
	}
	return 0;
}

int zoneinfo_load(struct zoneinfo *zi, const char *path, const struct vm_diag *diag)
{
	char *buf;
	size_t len;
	int err = input_read(path, &buf, &len);

	if (err)
		return err;
	/* Refused up front, as dump_load refuses a zoneinfo: a line-by-line parse of a vmstat
	 * dump would warn about every one of its lines before finding no zone. */
	if (!input_is_zoneinfo(buf, len)) {
		free(buf);
		return -EMEDIUMTYPE;
	}
	err = zoneinfo_parse(zi, buf, len, diag);
	free(buf);
	if (!err && zi->nr_zones == 0)
		err = -EBADMSG;
	return err;
}

int zoneinfo_zone_lru(const struct zi_zone *z, int lru, int64_t *v)
{
	char name[40];

	if (lru < 0 || lru >= ZI_NR_LRU)
		return -ENOENT;
	snprintf(name, sizeof(name), "nr_zone_%s", zoneinfo_lru_names[lru]);
	if (dump_get(&z->fields, name, v) == 0)
		return 0;
	snprintf(name, sizeof(name), "nr_%s", zoneinfo_lru_names[lru]); /* 4.7 zone item */
	return dump_get(&z->fields, name, v);
}

int zoneinfo_node_unsplit(const struct zoneinfo *zi, const struct zi_node *n, int64_t *active,
			  int64_t *inactive)
{
	int found = 0;

	*active = *inactive = 0;
	for (size_t i = 0; i < zi->nr_zones; i++) {
		const struct zi_zone *z = &zi->zones[i];
		int64_t a, in;

		if (z->node != n->id)
			continue;
		/* 2.6.16 prints "active"/"inactive"; 2.6.21 to 2.6.27 the nr_ items. */
		if ((dump_get(&z->fields, "active", &a) && dump_get(&z->fields, "nr_active", &a)) ||
		    (dump_get(&z->fields, "inactive", &in) &&
		     dump_get(&z->fields, "nr_inactive", &in)))
			continue;
		*active = wrap_add(*active, a);
		*inactive = wrap_add(*inactive, in);
		found = 1;
	}
	return found ? 0 : -ENOENT;
}

int zoneinfo_node_lru(const struct zoneinfo *zi, const struct zi_node *n, int lru, int64_t *v)
{
	char name[40];
	int found = 0;

	if (lru < 0 || lru >= ZI_NR_LRU)
		return -ENOENT;
	snprintf(name, sizeof(name), "nr_%s", zoneinfo_lru_names[lru]);
	if (n->has_stats)
		return dump_get(&n->stats, name, v);
	*v = 0;
	for (size_t i = 0; i < zi->nr_zones; i++) {
		int64_t zv;

		if (zi->zones[i].node != n->id || zoneinfo_zone_lru(&zi->zones[i], lru, &zv))
			continue;
		*v = wrap_add(*v, zv);
		found = 1;
	}
	return found ? 0 : -ENOENT;
}
