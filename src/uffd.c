/*
 * uffd.c - the userfaultfd(2) calls mapped regions make, with the constants older headers
 * lack (Debian 12's linux-libc-dev is 6.1: no UFFDIO_MOVE, no UFFDIO_POISON).
 *
 * Opening asks the kernel twice: once on a throwaway descriptor with no features, which
 * answers with every feature the kernel has, then on the real one with the features wanted
 * (UFFDIO_API may be called once per descriptor).  No state, no lock: each call is one
 * system call on the caller's descriptor.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <linux/userfaultfd.h>

#include "log.h"
#include "uffd.h"

#ifndef UFFDIO_MOVE
struct uffdio_move {
	__u64 dst;
	__u64 src;
	__u64 len;
	__u64 mode;
	__s64 move;
};
#define UFFDIO_MOVE _IOWR(UFFDIO, 0x05, struct uffdio_move)
#endif

#ifndef UFFDIO_POISON
struct uffdio_poison {
	struct uffdio_range range;
	__u64 mode;
	__s64 updated;
};
#define UFFDIO_POISON _IOWR(UFFDIO, 0x08, struct uffdio_poison)
#endif

#ifndef USERFAULTFD_IOC_NEW
#define USERFAULTFD_IOC_NEW _IO(0xAA, 0x00)
#endif

#define UFFD_PAGE 4096ull

static int uffd_sys(int flags)
{
	int fd = (int)syscall(SYS_userfaultfd, flags);

	return fd < 0 ? -errno : fd;
}

/* /dev/userfaultfd (Linux 6.1): the same descriptor, granted by the device's permissions. */
static int uffd_dev(int flags)
{
	int dev = open("/dev/userfaultfd", O_RDWR | O_CLOEXEC), fd, err;

	if (dev < 0)
		return -errno;
	fd = ioctl(dev, USERFAULTFD_IOC_NEW, flags);
	err = errno;
	close(dev);
	return fd < 0 ? -err : fd;
}

static int uffd_new(void)
{
	int fd = uffd_sys(O_CLOEXEC | O_NONBLOCK);

	if (fd == -EPERM) {
		int dev = uffd_dev(O_CLOEXEC | O_NONBLOCK);

		if (dev >= 0)
			return dev;
	}
	return fd;
}

/* The UFFDIO_API handshake on @fd for @features: the features the kernel has, or -errno. */
static int uffd_api(int fd, uint64_t features, uint64_t *have)
{
	struct uffdio_api api = {.api = UFFD_API, .features = features};

	if (ioctl(fd, UFFDIO_API, &api) < 0)
		return -errno;
	*have = api.features;
	return 0;
}

static void log_refusal(const struct nlru_log *log, int err)
{
	char sysctl[8] = "?";
	FILE *f = fopen("/proc/sys/vm/unprivileged_userfaultfd", "re");

	if (f) {
		if (!fgets(sysctl, sizeof(sysctl), f))
			snprintf(sysctl, sizeof(sysctl), "?");
		sysctl[strcspn(sysctl, "\n")] = 0;
		fclose(f);
	}
	if (err == -EPERM)
		log_err(log,
			"userfaultfd: not permitted (EPERM): a process needs CAP_SYS_PTRACE, "
			"vm.unprivileged_userfaultfd = 1 (it is %s) or read and write access to "
			"/dev/userfaultfd, and no seccomp filter forbidding userfaultfd(2)",
			sysctl);
	else if (err == -ENOSYS)
		log_err(log, "userfaultfd: this kernel has none (CONFIG_USERFAULTFD), or a seccomp "
			     "filter hides the system call");
	else
		log_err(log, "userfaultfd: cannot open one: %s", strerror(-err));
}

static const char *missing_feature(uint64_t missing)
{
	if (missing & UFFD_F_WP)
		return "write-protect faults on anonymous memory (Linux 5.7, and an architecture "
		       "that has them)";
	return "a feature";
}

int uffd_open(const struct nlru_log *log, uint64_t need, uint64_t want, int *fd, uint64_t *features)
{
	uint64_t have = 0, granted;
	int probe = uffd_new(), r;

	if (probe < 0) {
		log_refusal(log, probe);
		return probe;
	}
	r = uffd_api(probe, 0, &have);
	close(probe);
	if (r) {
		log_err(log, "userfaultfd: the UFFDIO_API handshake failed: %s", strerror(-r));
		return r;
	}
	if ((have & need) != need) {
		log_err(log, "userfaultfd: this kernel lacks %s, which mapped regions need",
			missing_feature(need & ~have));
		return -EOPNOTSUPP;
	}
	*fd = uffd_new();
	if (*fd < 0) {
		log_refusal(log, *fd);
		return *fd;
	}
	r = uffd_api(*fd, need | (want & have), &granted);
	if (r) {
		log_err(log, "userfaultfd: the UFFDIO_API handshake failed: %s", strerror(-r));
		close(*fd);
		return r;
	}
	*features = need | (want & have);
	return 0;
}

static int uffd_ioctl(int fd, unsigned long cmd, void *arg)
{
	return ioctl(fd, cmd, arg) < 0 ? -errno : 0;
}

int uffd_register(int fd, void *addr, size_t len, bool missing, bool wp)
{
	struct uffdio_register reg = {
		.range = {(uintptr_t)addr, len},
		.mode = (missing ? UFFDIO_REGISTER_MODE_MISSING : 0) |
			(wp ? UFFDIO_REGISTER_MODE_WP : 0),
	};

	return uffd_ioctl(fd, UFFDIO_REGISTER, &reg);
}

int uffd_unregister(int fd, void *addr, size_t len)
{
	struct uffdio_range range = {(uintptr_t)addr, len};

	return uffd_ioctl(fd, UFFDIO_UNREGISTER, &range);
}

int uffd_move(int fd, void *dst, void *src)
{
	struct uffdio_move move = {.dst = (uintptr_t)dst, .src = (uintptr_t)src, .len = UFFD_PAGE};

	return uffd_ioctl(fd, UFFDIO_MOVE, &move);
}

int uffd_zeropage(int fd, void *dst)
{
	struct uffdio_zeropage zero = {.range = {(uintptr_t)dst, UFFD_PAGE}};

	return uffd_ioctl(fd, UFFDIO_ZEROPAGE, &zero);
}

int uffd_copy(int fd, void *dst, const void *src, bool wp)
{
	struct uffdio_copy copy = {
		.dst = (uintptr_t)dst,
		.src = (uintptr_t)src,
		.len = UFFD_PAGE,
		.mode = wp ? UFFDIO_COPY_MODE_WP : 0,
	};

	return uffd_ioctl(fd, UFFDIO_COPY, &copy);
}

int uffd_writeprotect(int fd, void *addr, bool wp)
{
	struct uffdio_writeprotect prot = {
		.range = {(uintptr_t)addr, UFFD_PAGE},
		.mode = wp ? UFFDIO_WRITEPROTECT_MODE_WP : 0,
	};

	return uffd_ioctl(fd, UFFDIO_WRITEPROTECT, &prot);
}

int uffd_wake(int fd, void *addr)
{
	struct uffdio_range range = {(uintptr_t)addr, UFFD_PAGE};

	return uffd_ioctl(fd, UFFDIO_WAKE, &range);
}

int uffd_poison(int fd, void *addr)
{
	struct uffdio_poison poison = {.range = {(uintptr_t)addr, UFFD_PAGE}};

	return uffd_ioctl(fd, UFFDIO_POISON, &poison);
}

int uffd_read_fault(int fd, struct uffd_fault *fault)
{
	struct uffd_msg msg;
	ssize_t n = read(fd, &msg, sizeof(msg));

	if (n < 0)
		return errno == EAGAIN ? 0 : -errno;
	if (n != sizeof(msg) || msg.event != UFFD_EVENT_PAGEFAULT)
		return 0;
	fault->address = msg.arg.pagefault.address & ~(UFFD_PAGE - 1);
	fault->write = msg.arg.pagefault.flags & UFFD_PAGEFAULT_FLAG_WRITE;
	fault->wp = msg.arg.pagefault.flags & UFFD_PAGEFAULT_FLAG_WP;
	return 1;
}
