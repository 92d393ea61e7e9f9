/* SPDX-License-Identifier: GPL-2.0 */
/*
 * check.h - the unit tests' one assertion: CHECK(cond, fmt, ...) prints
 * file:line and the message when @cond is false and counts the failure;
 * check_result() reports the count and gives main()'s exit status.
 */
#ifndef BTFENC_TESTS_CHECK_H
#define BTFENC_TESTS_CHECK_H

#include <stdio.h>

static int failures;

#define CHECK(cond, ...)                                                                           \
	do {                                                                                       \
		if (!(cond)) {                                                                     \
			fprintf(stderr, "%s:%d: ", __FILE__, __LINE__);                            \
			fprintf(stderr, __VA_ARGS__);                                              \
			fputc('\n', stderr);                                                       \
			failures++;                                                                \
		}                                                                                  \
	} while (0)

static inline int check_result(void)
{
	if (failures)
		fprintf(stderr, "%d check(s) failed\n", failures);
	return failures ? 1 : 0;
}

#endif
