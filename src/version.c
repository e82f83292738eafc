/* The version of the library that is actually loaded, for programs built against another. */
#include <nodelru/nodelru.h>

int nlru_version(void)
{
	return NLRU_VERSION_NUM;
}
