/*
 * mmtests - read the vmstat dumps and the elapsed time of one benchmark out of an mmtests
 * tests-timestamp-<kernel> file (written by mmtests' run-mmtests.sh), so `compare` takes
 * mmtests results as they are.
 */
#ifndef NODELRU_TOOLS_VMSTAT_MMTESTS_H
#define NODELRU_TOOLS_VMSTAT_MMTESTS_H

#include <stddef.h>

#include "diag.h"
#include "dump.h"

/*
 * mmtests_extract - fill the initialised dumps @before and @after with the lines that follow
 * "file start :: /proc/vmstat" and "file end :: /proc/vmstat", and *@elapsed with the %e
 * field of the "time ::" line (NAN when there is none or it is unreadable; a 0.00 is kept as
 * 0 and reported, since no rate follows from it).  With @bench NULL the first benchmark of
 * the file is read; otherwise the one of that name (its "test begin :: @bench" line to its
 * "test end", and its "time :: @bench" line).  Bad lines are reported with their line number
 * in the whole file.  Returns 0, -ENOMEM, -ENOENT when @bench is not in the file, or
 * -EBADMSG when either dump is missing or empty.
 */
int mmtests_extract(const char *buf, size_t len, const char *path, const char *bench,
		    struct vm_dump *before, struct vm_dump *after, double *elapsed,
		    const struct vm_diag *diag);

/*
 * mmtests_looks_like - is @buf a tests-timestamp file: its first line "start :: " (what
 * run-mmtests.sh writes first), or a "test begin :: " line anywhere?
 */
int mmtests_looks_like(const char *buf, size_t len);

#endif /* NODELRU_TOOLS_VMSTAT_MMTESTS_H */
