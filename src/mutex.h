/*
 * The engine's pthread locks with a lock class (witness.h): the owner table's and the
 * shrinker list's rwlocks, kswapd's and the flusher's mutexes.  In full debug builds each
 * lock and unlock checks the lock order; otherwise these are the pthread calls themselves.
 * A condition variable waits on the pthread lock inside (&lock->mutex): the witness counts
 * the lock as held throughout the wait, as the waiter holds it before and after.
 */
#ifndef NODELRU_MUTEX_H
#define NODELRU_MUTEX_H

#include <pthread.h>

#include "witness.h"

struct rwlock {
	pthread_rwlock_t rwlock;
#if NLRU_DEBUG >= 2
	struct lock_witness witness;
#endif
};

struct mutex {
	pthread_mutex_t mutex;
#if NLRU_DEBUG >= 2
	struct lock_witness witness;
#endif
};

#if NLRU_DEBUG >= 2
#define LOCK_WITNESS_SET(lock, cls, log) ((lock)->witness = (struct lock_witness){cls, log})
#define LOCK_WITNESS_CLASS(lock) ((lock)->witness.cls)
#define LOCK_WITNESS_LOG(lock) ((lock)->witness.log)
#else
#define LOCK_WITNESS_SET(lock, cls, log) ((void)(cls), (void)(log))
#define LOCK_WITNESS_CLASS(lock) LOCK_NONE
#define LOCK_WITNESS_LOG(lock) ((const struct nlru_log *)NULL)
#endif

/* pthread_rwlock_init() with @attr (may be NULL), for a lock of class @cls.  0 or an errno. */
static inline int rwlock_init(struct rwlock *lock, const pthread_rwlockattr_t *attr,
			      enum lock_class cls, const struct nlru_log *log)
{
	LOCK_WITNESS_SET(lock, cls, log);
	return pthread_rwlock_init(&lock->rwlock, attr);
}

static inline void rwlock_destroy(struct rwlock *lock)
{
	pthread_rwlock_destroy(&lock->rwlock);
}

#define rwlock_rdlock(lock) rwlock_rdlock_at(lock, __FILE__, __LINE__)
#define rwlock_wrlock(lock) rwlock_wrlock_at(lock, __FILE__, __LINE__)
#define rwlock_tryrdlock(lock) rwlock_tryrdlock_at(lock, __FILE__, __LINE__)
#define rwlock_unlock(lock) rwlock_unlock_at(lock, __FILE__, __LINE__)

static inline void rwlock_rdlock_at(struct rwlock *lock, const char *file, int line)
{
	witness_lock_(LOCK_WITNESS_CLASS(lock), LOCK_WITNESS_LOG(lock), file, line);
	pthread_rwlock_rdlock(&lock->rwlock);
}

static inline void rwlock_wrlock_at(struct rwlock *lock, const char *file, int line)
{
	witness_lock_(LOCK_WITNESS_CLASS(lock), LOCK_WITNESS_LOG(lock), file, line);
	pthread_rwlock_wrlock(&lock->rwlock);
}

/* 0 if taken, or pthread_rwlock_tryrdlock()'s errno. */
static inline int rwlock_tryrdlock_at(struct rwlock *lock, const char *file, int line)
{
	int r = pthread_rwlock_tryrdlock(&lock->rwlock);

	if (!r)
		witness_trylocked_(LOCK_WITNESS_CLASS(lock), LOCK_WITNESS_LOG(lock), file, line);
	return r;
}

static inline void rwlock_unlock_at(struct rwlock *lock, const char *file, int line)
{
	pthread_rwlock_unlock(&lock->rwlock);
	witness_unlock_(LOCK_WITNESS_CLASS(lock), LOCK_WITNESS_LOG(lock), file, line);
}

static inline void mutex_init(struct mutex *lock, enum lock_class cls, const struct nlru_log *log)
{
	LOCK_WITNESS_SET(lock, cls, log);
	pthread_mutex_init(&lock->mutex, NULL);
}

static inline void mutex_destroy(struct mutex *lock)
{
	pthread_mutex_destroy(&lock->mutex);
}

#define mutex_lock(lock) mutex_lock_at(lock, __FILE__, __LINE__)
#define mutex_unlock(lock) mutex_unlock_at(lock, __FILE__, __LINE__)

static inline void mutex_lock_at(struct mutex *lock, const char *file, int line)
{
	witness_lock_(LOCK_WITNESS_CLASS(lock), LOCK_WITNESS_LOG(lock), file, line);
	pthread_mutex_lock(&lock->mutex);
}

static inline void mutex_unlock_at(struct mutex *lock, const char *file, int line)
{
	pthread_mutex_unlock(&lock->mutex);
	witness_unlock_(LOCK_WITNESS_CLASS(lock), LOCK_WITNESS_LOG(lock), file, line);
}

#endif /* NODELRU_MUTEX_H */
