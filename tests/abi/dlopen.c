/*
 * Load the shared library at run time, as a plugin host would, and drive an engine through
 * symbols found with dlsym.  Usage: dlopen PATH-TO-libnodelru.so
 */
#include <dlfcn.h>
#include <stdio.h>

#include <nodelru/nodelru.h>

int main(int argc, char **argv)
{
	int (*version)(void), (*config_init)(struct nlru_config *);
	int (*create)(const struct nlru_config *, struct nlru_engine **);
	int (*destroy)(struct nlru_engine *);
	struct nlru_engine *eng;
	struct nlru_config cfg;
	void *lib;

	if (argc < 2 || !(lib = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL))) {
		fprintf(stderr, "dlopen: %s\n", argc < 2 ? "no path" : dlerror());
		return 1;
	}
	*(void **)&version = dlsym(lib, "nlru_version");
	*(void **)&config_init = dlsym(lib, "nlru_config_init");
	*(void **)&create = dlsym(lib, "nlru_engine_create");
	*(void **)&destroy = dlsym(lib, "nlru_engine_destroy");
	/* Internal functions are not exported: the version script keeps them local. */
	if (!version || !config_init || !create || !destroy || dlsym(lib, "alloc_pages_node")) {
		fprintf(stderr, "dlopen: wrong symbol set\n");
		return 2;
	}
	config_init(&cfg);
	cfg.node_mib = 8;
	if (version() != NLRU_VERSION_NUM || create(&cfg, &eng) || destroy(eng))
		return 3;
	dlclose(lib);
	puts("dlopen: ok");
	return 0;
}
