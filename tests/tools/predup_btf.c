// SPDX-License-Identifier: GPL-2.0
/*
 * predup_btf.c - writes the BTF btfenc's encoder has merged from every CU
 * of FILE, before any dedup: the input on which btfenc's and libbpf's
 * dedup are compared (tests/dedup_diff.sh "encoder" mode, and
 * bench/dedup_bench.sh).
 *
 *   predup_btf FILE OUT [JOBS [exact]]
 *
 * With "exact", the merge leaves out exact copies of an earlier CU's
 * types as the encoder does (btf/exact.c): a CU's types then refer back
 * to earlier CUs'.
 */
#include "../../encoder/enc_internal.h"
#include "../../encoder/pool.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void log_fn(void *ctx, const char *msg)
{
	fprintf(stderr, "predup_btf: %s\n", msg);
}

int main(int argc, char **argv)
{
	const struct btf_log log = { log_fn, NULL };
	struct enc_opts o = { .features = ENC_F_DEFAULT, .jobs = 1 };
	struct enc_state s = { .o = &o, .log = &log };
	struct dw_opts dw = { .encode_float = true, .encode_enum64 = true, .decl_tag = true,
			      .type_tag = true };
	struct enc_pool_opts po = { .dw = &dw };
	size_t size;
	void *data;
	uint64_t types, copies;
	bool exact;
	FILE *f;
	int err;

	if (argc < 3) {
		fprintf(stderr, "usage: predup_btf FILE OUT [JOBS [exact]]\n");
		return 2;
	}
	/* exact: the copies of an earlier CU's types left out, as the encoder does. */
	exact = argc > 4 && !strcmp(argv[4], "exact");
	o.path = po.path = argv[1];
	o.jobs = po.jobs = argc > 3 ? atoi(argv[3]) : 1;
	err = enc_elf_info_load(o.path, &s.elf, &log);
	s.all = btf__new_empty();
	s.names = btf__new_empty();
	if (!err && (!s.all || !s.names))
		err = -ENOMEM;
	if (!err && exact)
		err = btf_merge_exact_start(s.all);
	if (!err)
		err = enc_pool_run(&po, enc_merge_cu, &s, &log);
	if (exact && s.all)
		btf_merge_exact_end(s.all, &types, &copies);
	if (!err)
		err = btf__write_raw(s.all, false, &data, &size);
	if (!err) {
		f = fopen(argv[2], "wb");
		if (!f || fwrite(data, 1, size, f) != size || fclose(f))
			err = -EIO;
		free(data);
	}
	enc_state_free(&s);
	if (err)
		fprintf(stderr, "predup_btf: %s: error %d\n", argv[1], err);
	return err ? 1 : 0;
}
