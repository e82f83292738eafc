/*
 * Load libnodelru-jemalloc at run time, as a plugin host would, and put an object in an
 * arena on engine pages through symbols found with dlsym.  Debian's libjemalloc uses
 * initial-exec TLS, so this dlopen fails unless the static TLS surplus is raised
 * (GLIBC_TUNABLES=glibc.rtld.optional_static_tls=16384) or jemalloc is already loaded:
 * docs/api-jemalloc.md.
 *
 * Usage: dlopen_jemalloc PATH-TO-libnodelru-jemalloc.so ok|static-tls-error
 * Exit 0 when the outcome is the one expected.
 */
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#include <nodelru/jemalloc.h>

#define SYM(lib, fn, name) (*(void **)&(fn) = dlsym(lib, name))

static int use_arena(void *lib)
{
	int (*config_init)(struct nlru_config *);
	int (*create)(const struct nlru_config *, struct nlru_engine **);
	int (*destroy)(struct nlru_engine *);
	int (*je_create)(struct nlru_engine *, const struct nlru_jemalloc_config *,
			 struct nlru_jemalloc **);
	int (*je_arena)(const struct nlru_jemalloc *, unsigned int *);
	int (*je_destroy)(struct nlru_jemalloc *);
	void *(*mallocx)(size_t, int);
	void (*dallocx)(void *, int);
	struct nlru_engine *eng;
	struct nlru_jemalloc *je;
	struct nlru_config cfg;
	unsigned int arena;
	void *p;

	if (!SYM(lib, config_init, "nlru_config_init") || !SYM(lib, create, "nlru_engine_create") ||
	    !SYM(lib, destroy, "nlru_engine_destroy") ||
	    !SYM(lib, je_create, "nlru_jemalloc_create") ||
	    !SYM(lib, je_arena, "nlru_jemalloc_arena") ||
	    !SYM(lib, je_destroy, "nlru_jemalloc_destroy") || !SYM(lib, mallocx, "mallocx") ||
	    !SYM(lib, dallocx, "dallocx") || dlsym(lib, "extent_hooks_init"))
		return 2;
	config_init(&cfg);
	cfg.node_mib = 8;
	if (create(&cfg, &eng) || je_create(eng, NULL, &je) || je_arena(je, &arena))
		return 3;
	/* MALLOCX_ARENA(arena) | MALLOCX_TCACHE_NONE, spelled out: no jemalloc.h here. */
	p = mallocx(100, (int)((arena + 1) << 20) | (1 << 8));
	if (!p)
		return 4;
	dallocx(p, 1 << 8);
	return je_destroy(je) || destroy(eng) ? 5 : 0;
}

int main(int argc, char **argv)
{
	void *lib;
	int r;

	if (argc < 3)
		return 1;
	lib = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
	if (!lib) {
		const char *err = dlerror();

		printf("dlopen_jemalloc: %s\n", err);
		return strcmp(argv[2], "static-tls-error") == 0 && strstr(err, "static TLS") ? 0
											     : 1;
	}
	r = use_arena(lib);
	printf("dlopen_jemalloc: loaded, arena %s\n", r ? "failed" : "ok");
	/* Loaded where the failure was expected: this jemalloc or glibc has room for its TLS
	 * (built without initial-exec TLS, preloaded, a larger surplus): nothing to check. */
	if (strcmp(argv[2], "static-tls-error") == 0)
		return r == 0 ? 77 : 1;
	return strcmp(argv[2], "ok") == 0 && r == 0 ? 0 : 1;
}
