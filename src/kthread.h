/*
 * The engine's own threads (Linux's kthreads): kswapd, the flusher, the block device's thread, the
 * fault threads of mapped regions.  Each starts with every signal blocked, so that no signal
 * handler of the program ever runs on one of them, where it could touch engine-managed memory
 * while the thread holds an engine lock, and each is marked PF_KTHREAD (current.h).
 */
#ifndef NODELRU_KTHREAD_H
#define NODELRU_KTHREAD_H

#include <pthread.h>

/*
 * kthread_run(): start @fn(@arg) in a new engine thread named @name (at most 15 characters).
 * 0 or pthread_create()'s errno.
 */
int kthread_run(pthread_t *thread, void *(*fn)(void *), void *arg, const char *name);

#endif /* NODELRU_KTHREAD_H */
