/*
 * userfaultfd(2), as mapped regions use it: open a descriptor with the features they need,
 * register ranges, and the ioctls that fill, protect and wake pages.  Every call
 * returns 0 or -errno and never blocks on a fault of its own: an ioctl on a range with no
 * page where it needs one fails (-ENOENT, -EEXIST) instead of waiting.  Nothing here knows
 * the engine; anon_map.c decides what to do with the answers.
 */
#ifndef NODELRU_UFFD_H
#define NODELRU_UFFD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct nlru_log;

/* Feature bits of UFFDIO_API (linux/userfaultfd.h); the newer ones are missing from older
 * headers, so they are spelled out here with the kernel that added them. */
#define UFFD_F_WP (1ull << 0)      /* UFFD_FEATURE_PAGEFAULT_FLAG_WP, Linux 5.7 for anon */
#define UFFD_F_POISON (1ull << 14) /* UFFD_FEATURE_POISON, UFFDIO_POISON, Linux 6.6 */
#define UFFD_F_MOVE (1ull << 16)   /* UFFD_FEATURE_MOVE, UFFDIO_MOVE, Linux 6.8 */

/* What a fault message says (struct uffd_msg, reduced). */
struct uffd_fault {
	uint64_t address; /* the faulting address, page-aligned here */
	bool write;       /* a write access */
	bool wp;          /* a write to a write-protected page */
};

/*
 * A userfaultfd descriptor (close-on-exec, non-blocking) with every feature of @need, and of
 * @want those the kernel has; the features granted in *@features.  The syscall first, then
 * /dev/userfaultfd, which grants it where vm.unprivileged_userfaultfd is 0 if the device's
 * permissions let the process open it.  -EPERM (no permission, or a seccomp filter),
 * -ENOSYS (no userfaultfd in this kernel), -EOPNOTSUPP (a feature of @need missing), each
 * logged with the reason and what to do.
 */
int uffd_open(const struct nlru_log *log, uint64_t need, uint64_t want, int *fd,
	      uint64_t *features);

/* UFFDIO_REGISTER of [@addr, @addr + @len) for missing faults and/or write-protect faults. */
int uffd_register(int fd, void *addr, size_t len, bool missing, bool wp);
/* UFFDIO_UNREGISTER; threads waiting on faults in the range are woken. */
int uffd_unregister(int fd, void *addr, size_t len);

/*
 * UFFDIO_MOVE of the page at @src to the empty @dst: no copy, the page itself changes address
 * (and loses its write protection).  Wakes the threads waiting on @dst.  -EEXIST: something
 * is at @dst; -ENOENT: nothing at @src; -EBUSY: the page is pinned or shared.
 */
int uffd_move(int fd, void *dst, void *src);
/* UFFDIO_ZEROPAGE: the zero page, read-only until written, at the empty @dst; wakes. */
int uffd_zeropage(int fd, void *dst);
/* UFFDIO_COPY of one page from @src (which must be present) into the empty @dst, write
 * protected if @wp; wakes the waiters. */
int uffd_copy(int fd, void *dst, const void *src, bool wp);
/* UFFDIO_WRITEPROTECT of one page: on (@wp) or off, which also wakes its waiters. */
int uffd_writeprotect(int fd, void *addr, bool wp);
/* UFFDIO_WAKE of one page's waiters. */
int uffd_wake(int fd, void *addr);
/* UFFDIO_POISON of one empty page: its next touch raises SIGBUS; wakes the waiters. */
int uffd_poison(int fd, void *addr);

/* One page fault message, if one is waiting: 1, 0 when none is, -errno. */
int uffd_read_fault(int fd, struct uffd_fault *fault);

#endif /* NODELRU_UFFD_H */
