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
 * kthread_run(): start @fn(@arg) in a new engine thread named by the printf format @namefmt, as
 * Linux's kthread_run() is; the name is cut to the 15 characters a thread name holds.  0 or
 * pthread_create()'s errno.
 */
__attribute__((format(printf, 4, 5))) int kthread_run(pthread_t *thread, void *(*fn)(void *),
						      void *arg, const char *namefmt, ...);

#endif /* NODELRU_KTHREAD_H */
