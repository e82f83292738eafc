/* show - one dump, grouped, with the meaning of each counter the tool knows. */
#ifndef NODELRU_TOOLS_VMSTAT_SHOW_H
#define NODELRU_TOOLS_VMSTAT_SHOW_H

#include <stdio.h>

#include "dump.h"
#include "out.h"

/*
 * show_print - print @d to @f.  Every counter is printed once, unknown ones under "other".
 * Returns 0, or -ENOMEM (nothing printed).
 */
int show_print(const struct vm_dump *d, enum out_fmt fmt, FILE *f);

#endif /* NODELRU_TOOLS_VMSTAT_SHOW_H */
