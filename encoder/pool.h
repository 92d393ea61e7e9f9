/* SPDX-License-Identifier: GPL-2.0 */
/* pool.h - decode CUs on worker threads, consume them in CU order. */
#ifndef BTFENC_POOL_H
#define BTFENC_POOL_H

#include "../dwarf/dw.h"

/* Called on the calling thread for CU @idx, in increasing @idx order. */
typedef int (*enc_consume_fn)(void *ctx, uint32_t idx, struct dw_cu *cu);

struct enc_pool_opts {
	const char *path;
	unsigned int jobs;
	const struct dw_opts *dw;
	bool progress; /* "CUs done / total" on stderr after 2 s */
	/*
	 * Receives, when the pool ends, the .debug_str base the CUs' BTFs
	 * are split on (dw_opts.str_base, NULL if none), for the caller to
	 * free: the consumer may keep names split on it.  NULL: freed.
	 */
	struct btf **str_base_out;
};

/*
 * Opens @o->path once per worker, decodes every CU and hands each result
 * to @consume in CU order; the result is released after @consume returns.
 * At most 8 x jobs decoded CUs wait in memory (pool.c's window; 32 x
 * jobs for a file of 1024 CUs or more).
 * Returns 0, the first negative errno of a worker, or @consume's first
 * non-zero return.
 */
int enc_pool_run(const struct enc_pool_opts *o, enc_consume_fn consume, void *ctx,
		 const struct btf_log *log);

#endif /* BTFENC_POOL_H */
