// SPDX-License-Identifier: GPL-2.0
/*
 * btf_lib_fixture.c - input of tests/dump_vs_bpftool.sh (gcc -g -O1 -c, then
 * pahole -J --btf_gen_floats): each kind gcc and pahole 1.24 emit, bitfields,
 * signed and 64-bit enums, anonymous members, a varargs prototype.
 */
#include <stdbool.h>

enum color { RED, GREEN = 5, BLUE = 0x7fffffff };
enum sign { NEG = -3, POS = 3 };
enum wide { W_SMALL = 1, W_BIG = 0x123456789abcdefULL };

struct bits {
	unsigned int a : 3;
	int b : 5;
	unsigned long long c : 40;
	char name[7];
	bool flag;
};

union either {
	int i;
	float f;
	double d;
	struct bits *bp;
};

struct fwd_only;
typedef struct bits bits_t;
typedef int (*callback_t)(const volatile int *restrict p, struct fwd_only *f, ...);

struct holder {
	bits_t b;
	union either e[2][3];
	enum color c;
	enum sign s;
	enum wide w;
	callback_t cb;
	const char *const msg;
	long double ld;
	struct {
		short x;
		union {
			long y;
			void *z;
		};
	} anon;
};

int counter;
static struct holder the_holder;

int use_holder(struct holder *h, int n)
{
	the_holder.c = h->c;
	return h->b.b + n + counter;
}

static int helper(int (*fn)(const volatile int *restrict, struct fwd_only *, ...), long x)
{
	return fn ? fn(0, 0) + (int)x : 0;
}

int call_helper(callback_t cb)
{
	return helper(cb, 7);
}
