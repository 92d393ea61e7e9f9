// SPDX-License-Identifier: GPL-2.0
/*
 * demo.c - the built-in example: a few functions the compiler inlines,
 * so that `btfenc inlines` has sites to show.  Built with -O2 -g.
 */
#include <stdio.h>
#include <stdlib.h>

struct point {
	long x;
	long y;
};

static inline __attribute__((always_inline)) long scale(long v, int factor)
{
	return v * factor + (v >> 3);
}

static inline long dist2(struct point a, struct point b)
{
	long dx = a.x - b.x, dy = a.y - b.y;

	return scale(dx * dx + dy * dy, 3);
}

/* Inlined at one call site, called at the other (noinline wrapper). */
static inline int clamp(int v, int lo, int hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}

__attribute__((noinline)) int clamp_called(int v, int lo, int hi)
{
	return clamp(v, lo, hi) + 1;
}

static inline void fill(char *buf, unsigned int len, char c, unsigned int stride, int a5,
			int a6, int a7)
{
	for (unsigned int i = 0; i < len; i += stride)
		buf[i] = c + a5 + a6 + a7;
}

int main(int argc, char **argv)
{
	struct point p = { argc, argc * 2 }, q = { 3, strtol(argc > 1 ? argv[1] : "4", NULL, 0) };
	char buf[64];

	fill(buf, sizeof(buf), 'a', (unsigned int)argc, argc, 2, 3);
	printf("%ld %d %d %c\n", dist2(p, q), clamp(argc, 0, 10), clamp_called(argc, 1, 5),
	       buf[argc]);
	return 0;
}
