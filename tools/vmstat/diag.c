/* diag - formatting of parser reports; the callback decides where they go. */
#include "diag.h"

#include <stdarg.h>
#include <stdio.h>

void diag_report(const struct vm_diag *diag, const char *path, unsigned int line, const char *fmt,
		 ...)
{
	char msg[256];
	va_list ap;

	if (!diag || !diag->fn)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	diag->fn(diag->arg, path, line, msg);
}
