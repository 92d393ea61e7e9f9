// SPDX-License-Identifier: GPL-2.0
/*
 * dw_decode_bench FILE [--inlines] - decodes every CU of FILE on one
 * thread with dwarf/ and prints CUs, types, functions, variables, sites,
 * wall time and peak RSS.  A measuring tool, not a test.
 */
#include "../../dwarf/dw.h"

#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

static void log_line(void *ctx, const char *msg)
{
	fprintf(stderr, "%s\n", msg);
}

int main(int argc, char **argv)
{
	struct dw_opts opts = { .encode_enum64 = true, .decl_tag = true, .type_tag = true,
				.encode_float = true };
	struct btf_log log = { .fn = log_line };
	unsigned long long types = 0, funcs = 0, vars = 0, sites = 0;
	struct timespec t0, t1;
	struct rusage ru;
	struct dw_file *f;
	struct dw_cu cu;
	uint32_t i, n;
	int errors = 0;

	if (argc < 2) {
		fprintf(stderr, "usage: %s FILE [--inlines]\n", argv[0]);
		return 2;
	}
	opts.collect_inlines = argc > 2 && !strcmp(argv[2], "--inlines");
	clock_gettime(CLOCK_MONOTONIC, &t0);
	f = dw_file_open(argv[1], &log);
	if (!f)
		return 1;
	n = dw_file_cu_count(f);
	for (i = 0; i < n; i++) {
		memset(&cu, 0, sizeof(cu));
		if (dw_cu_decode(f, i, &opts, &cu, &log)) {
			errors++;
		} else if (cu.btf) {
			types += btf__type_cnt(cu.btf) - 1;
			funcs += cu.nr_funcs;
			vars += cu.nr_vars;
			sites += cu.nr_sites;
		}
		dw_cu_release(&cu);
	}
	dw_file_close(f);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	getrusage(RUSAGE_SELF, &ru);
	printf("%u CUs (%d errors), %llu types, %llu funcs, %llu vars, %llu sites\n", n, errors,
	       types, funcs, vars, sites);
	printf("wall %.2f s, peak RSS %ld MB\n",
	       (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9, ru.ru_maxrss / 1024);
	return errors ? 1 : 0;
}
