/*
 * A program that knows nothing of nodelru, for tests/jemalloc/preload.sh to run with and
 * without libnodelru-preload.so: four threads allocate blocks of every size class up to
 * 6 MiB (malloc, calloc, realloc, the aligned forms), stamp each, check them all after the
 * others' work has pushed them out of a small budget, then a child made by fork() allocates
 * and frees.  Everything it finds goes to stdout, so the two runs' outputs must be equal.
 *
 *	preload_target [MiB allocated at once, default 96]
 */
#include <errno.h>
#include <malloc.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define THREADS 4

struct block {
	unsigned char *p;
	size_t size;
	unsigned int seed;
};

struct worker {
	int id;
	size_t budget; /* bytes this thread keeps allocated */
	struct block *blocks;
	size_t nr;
	unsigned long errors, checksum;
};

static unsigned int next_rand(unsigned int *state)
{
	*state = *state * 1103515245u + 12345u;
	return *state >> 8;
}

static void stamp(const struct block *b)
{
	for (size_t i = 0; i < b->size; i += 512)
		b->p[i] = (unsigned char)(b->seed + i / 512);
	b->p[b->size - 1] = (unsigned char)(b->seed + (b->size - 1) / 512);
}

static unsigned long check(const struct block *b, unsigned long *errors)
{
	unsigned long sum = 0;

	for (size_t i = 0; i < b->size; i += 512) {
		if (b->p[i] != (unsigned char)(b->seed + i / 512))
			(*errors)++;
		sum += b->p[i];
	}
	if (b->p[b->size - 1] != (unsigned char)(b->seed + (b->size - 1) / 512))
		(*errors)++;
	return sum;
}

/* A size: mostly small, some of every class up to 6 MiB (above jemalloc's 4 MiB extents). */
static size_t pick_size(unsigned int *state)
{
	unsigned int r = next_rand(state) % 1000;

	if (r < 700)
		return 1 + next_rand(state) % 2048;
	if (r < 950)
		return 2048 + next_rand(state) % (256 << 10);
	if (r < 995)
		return (256 << 10) + next_rand(state) % (2 << 20);
	return (4 << 20) + next_rand(state) % (2 << 20);
}

static void *allocate(struct worker *w, size_t size, unsigned int kind)
{
	void *p = NULL;

	switch (kind % 5) {
	case 0:
		return malloc(size);
	case 1:
		p = calloc(1, size);
		for (size_t i = 0; p && i < size; i += 256)
			if (((unsigned char *)p)[i])
				w->errors++;
		return p;
	case 2:
		if (posix_memalign(&p, 64 << (kind % 7), size))
			return NULL;
		if ((uintptr_t)p & ((64u << (kind % 7)) - 1))
			w->errors++;
		return p;
	case 3:
		p = aligned_alloc(4096, (size + 4095) & ~(size_t)4095);
		if ((uintptr_t)p & 4095)
			w->errors++;
		return p;
	default:
		/* Grown by realloc in steps, as a string builder grows. */
		p = realloc(NULL, size / 4 + 1);
		return p ? realloc(p, size) : NULL;
	}
}

static void *work(void *arg)
{
	struct worker *w = arg;
	unsigned int state = 7919u * (unsigned int)(w->id + 1);
	size_t held = 0, cap = 1024;

	w->blocks = malloc(cap * sizeof(*w->blocks));
	while (held < w->budget) {
		struct block b = {.size = pick_size(&state), .seed = next_rand(&state)};

		b.p = allocate(w, b.size, next_rand(&state));
		if (!b.p) {
			w->errors++;
			break;
		}
		if (malloc_usable_size(b.p) < b.size)
			w->errors++;
		stamp(&b);
		if (w->nr == cap)
			w->blocks = realloc(w->blocks, (cap *= 2) * sizeof(*w->blocks));
		w->blocks[w->nr++] = b;
		held += b.size;
		/* Now and then free one, so that freed memory is reused under pressure. */
		if (w->nr > 8 && next_rand(&state) % 4 == 0) {
			struct block *victim = &w->blocks[next_rand(&state) % w->nr];

			w->checksum += check(victim, &w->errors);
			held -= victim->size;
			free(victim->p);
			*victim = w->blocks[--w->nr];
		}
	}
	return NULL;
}

/* A child of fork() allocates and frees, and frees one of its parent's blocks too. */
static int fork_child(void *parents)
{
	pid_t pid = fork();
	int status;

	if (pid < 0)
		return -1;
	if (pid == 0) {
		char *p = malloc(100000);

		if (!p)
			_exit(2);
		memset(p, 1, 100000);
		p = realloc(p, 200000);
		free(p);
		free(parents);
		_exit(0);
	}
	if (waitpid(pid, &status, 0) != pid)
		return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

int main(int argc, char **argv)
{
	long mib = argc > 1 ? strtol(argv[1], NULL, 10) : 96;
	struct worker w[THREADS];
	pthread_t tid[THREADS];
	unsigned long errors = 0, sum = 0;
	size_t blocks = 0;

	for (int i = 0; i < THREADS; i++) {
		w[i] = (struct worker){.id = i, .budget = ((size_t)mib << 20) / THREADS};
		pthread_create(&tid[i], NULL, work, &w[i]);
	}
	for (int i = 0; i < THREADS; i++)
		pthread_join(tid[i], NULL);
	/* Every survivor checked once more, after all the threads' allocations. */
	for (int i = 0; i < THREADS; i++) {
		for (size_t k = 0; k < w[i].nr; k++)
			w[i].checksum += check(&w[i].blocks[k], &w[i].errors);
		errors += w[i].errors;
		sum += w[i].checksum;
		blocks += w[i].nr;
	}
	printf("blocks %zu checksum %lu errors %lu\n", blocks, sum, errors);
	printf("fork child exit %d\n", fork_child(w[0].blocks[0].p));
	for (int i = 0; i < THREADS; i++) {
		for (size_t k = 0; k < w[i].nr; k++)
			free(w[i].blocks[k].p);
		free(w[i].blocks);
	}
	return errors ? 1 : 0;
}
