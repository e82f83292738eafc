/*
 * kthread.c - starting the engine's threads: signals blocked before the thread exists (the
 * new thread inherits the mask, so there is no window in which a signal could land on it),
 * PF_KTHREAD set before its function runs.  The start record is malloc'ed and freed by the
 * thread: pthread_create() may return before the thread reads it.
 */
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include <nodelru/nodelru.h>

#include "current.h"
#include "kthread.h"

struct kthread_start {
	void *(*fn)(void *);
	void *arg;
};

static void *kthread_main(void *p)
{
	struct kthread_start start = *(struct kthread_start *)p;

	/* Marked before any call, so that an allocator asking nlru_in_engine_thread() knows. */
	current_flags |= PF_KTHREAD;
	free(p);
	return start.fn(start.arg);
}

int nlru_in_engine_thread(void)
{
	return !!(current_flags & PF_KTHREAD);
}

int kthread_run(pthread_t *thread, void *(*fn)(void *), void *arg, const char *namefmt, ...)
{
	struct kthread_start *start = malloc(sizeof(*start));
	char name[16]; /* what pthread_setname_np() takes, the NUL included */
	sigset_t all, saved;
	va_list ap;
	int r;

	if (!start)
		return ENOMEM;
	*start = (struct kthread_start){fn, arg};
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &saved);
	r = pthread_create(thread, NULL, kthread_main, start);
	pthread_sigmask(SIG_SETMASK, &saved, NULL);
	if (r) {
		free(start);
		return r;
	}
	va_start(ap, namefmt);
	vsnprintf(name, sizeof(name), namefmt, ap);
	va_end(ap);
	pthread_setname_np(*thread, name);
	return 0;
}
