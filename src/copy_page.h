/*
 * copy_page_nt(): fill a page that will not be read again soon (a page cache page being
 * written whole, read next by writeback, if at all, once it has left the CPU caches).
 * Non-temporal stores skip the read-for-ownership of each destination line, which costs as
 * much as the copy itself when the page is cold, as a page fresh from reclaim is.
 */
#ifndef NODELRU_COPY_PAGE_H
#define NODELRU_COPY_PAGE_H

#include <string.h>

#include "mmzone.h"

#if defined(__x86_64__)
#include <emmintrin.h>

static inline void copy_page_nt(void *dst, const void *src)
{
	__m128i *d = dst;
	const __m128i *s = src;

	for (size_t i = 0; i < PAGE_SIZE / sizeof(__m128i); i += 4) {
		__m128i a = _mm_loadu_si128(s + i), b = _mm_loadu_si128(s + i + 1);
		__m128i c = _mm_loadu_si128(s + i + 2), e = _mm_loadu_si128(s + i + 3);

		_mm_stream_si128(d + i, a);
		_mm_stream_si128(d + i + 1, b);
		_mm_stream_si128(d + i + 2, c);
		_mm_stream_si128(d + i + 3, e);
	}
	/* Streaming stores are weakly ordered: make them visible before the page is published. */
	_mm_sfence();
}
#else
static inline void copy_page_nt(void *dst, const void *src)
{
	memcpy(dst, src, PAGE_SIZE);
}
#endif

#endif /* NODELRU_COPY_PAGE_H */
