// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_btf_read.c - libFuzzer target for the BTF reader.  The input is
 * parsed as base BTF and as split BTF on a small fixed base; whatever
 * parses is validated, dumped in both dialects, written back and parsed
 * again.  Besides sanitizer reports it aborts when a written image does
 * not parse, or writing it again gives different bytes.
 */
#include "btf.h"
#include "fuzz_base.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void quiet(void *ctx, const char *msg)
{
	/* Touch the message so a bad format shows up under ASan. */
	*(size_t *)ctx += strlen(msg);
}

static size_t log_bytes;
static const struct btf_log fuzz_log = { quiet, &log_bytes };

static void dump_all(const struct btf *btf, FILE *out)
{
	uint32_t id;

	for (id = btf__start_id(btf); id < btf__type_cnt(btf); id++) {
		btf__dump_type_style(btf, id, out, BTF_DUMP_BPFTOOL);
		btf__dump_type_style(btf, id, out, BTF_DUMP_SELFTEST);
	}
}

/* write(parse(write(btf))) must equal write(btf), in both byte orders. */
static void round_trip(const struct btf *btf, struct btf *base, bool swap, bool valid)
{
	void *raw, *raw2;
	size_t size, size2;
	struct btf *back;

	if (btf__write_raw(btf, swap, &raw, &size))
		return; /* ENOMEM */
	back = btf__parse_raw(raw, size, base, &fuzz_log);
	if (!back)
		abort();
	if (valid && btf__validate(back, &fuzz_log) != 0)
		abort();
	if (!btf__write_raw(back, swap, &raw2, &size2)) {
		if (size2 != size || memcmp(raw, raw2, size))
			abort();
		free(raw2);
	}
	btf__free(back);
	free(raw);
}

static void exercise(const struct btf *btf, struct btf *base, FILE *out)
{
	bool valid = btf__validate(btf, &fuzz_log) == 0;

	dump_all(btf, out);
	round_trip(btf, base, false, valid);
	round_trip(btf, base, true, valid);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct btf *base;
	static FILE *out;
	struct btf *btf;

	if (!base)
		base = fuzz_base_new();
	if (!out)
		out = fopen("/dev/null", "w");
	if (!base || !out)
		abort();

	btf = btf__parse_raw(data, size, NULL, &fuzz_log);
	if (btf) {
		exercise(btf, NULL, out);
		btf__free(btf);
	}
	btf = btf__parse_raw(data, size, base, &fuzz_log);
	if (btf) {
		exercise(btf, base, out);
		btf__free(btf);
	}
	return 0;
}
