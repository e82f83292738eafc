/*
 * diag - how the parsers report a problem with one line of input without printing anything
 * themselves: the caller passes a callback, the command prints "file:line: message".
 */
#ifndef NODELRU_TOOLS_VMSTAT_DIAG_H
#define NODELRU_TOOLS_VMSTAT_DIAG_H

/* @line is 1-based; 0 means the message is about the whole file. */
typedef void (*vm_diag_fn)(void *arg, const char *path, unsigned int line, const char *msg);

struct vm_diag {
	vm_diag_fn fn; /* NULL: problems are only counted */
	void *arg;
};

void diag_report(const struct vm_diag *diag, const char *path, unsigned int line, const char *fmt,
		 ...) __attribute__((format(printf, 4, 5)));

#endif /* NODELRU_TOOLS_VMSTAT_DIAG_H */
