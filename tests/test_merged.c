// SPDX-License-Identifier: GPL-2.0
/*
 * test_merged.c - the merged location layout (bpf-next) in the BTF
 * library: a hand-built BTF dumps exactly as the merged bpftool selftest
 * (prog_tests/bpftool_btf_dump.c, test_loc_dump) expects, round-trips
 * byte for byte in both byte orders, is recognised from its header,
 * validates, and the validator rejects flags that disagree with vlen.
 */
#include "btf_internal.h"
#include "check.h"

#include <byteswap.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The merged selftest's expected bpftool dump, one string per type. */
static const char *const golden[] = {
	"[1] INT 'int' size=4 bits_offset=0 nr_bits=32 encoding=SIGNED",
	"[2] FUNC_PROTO '(anon)' ret_type_id=1 vlen=5\n"
	"\t'arg1' type_id=1\n"
	"\t'arg2' type_id=1\n"
	"\t'arg3' type_id=1\n"
	"\t'arg4' type_id=1\n"
	"\t'arg5' type_id=1",
	"[3] FUNC 'foo' type_id=2 linkage=static",
	"[4] LOC_PARAM '(anon)' size=4 flags=0x8 vlen=1 values='reg1'",
	"[5] LOC_PARAM '(anon)' size=8 flags=0x38 vlen=2 values='*(reg2 + 0x10)'",
	"[6] LOC_PARAM '(anon)' size=8 flags=0x29 vlen=2 values='fbreg - 0x10'",
	"[7] LOC_PARAM '(anon)' size=8 flags=0x6 vlen=2 values='0x123456789abcdef0 (addr)'",
	"[8] LOC_PARAM '(anon)' size=8 flags=0x2 vlen=2 values='0xdeadbeeffeedface'",
	"[9] LOC_PARAM '(anon)' size=8 flags=0x39 vlen=2 values='*(fbreg - 0x20)'",
	"[10] LOC_PROTO '(anon)' vlen=6\n"
	"\ttype_id=4 value='reg1'\n"
	"\ttype_id=5 value='*(reg2 + 0x10)'\n"
	"\ttype_id=6 value='fbreg - 0x10'\n"
	"\ttype_id=7 value='0x123456789abcdef0 (addr)'\n"
	"\ttype_id=8 value='0xdeadbeeffeedface'\n"
	"\ttype_id=9 value='*(fbreg - 0x20)'",
	"[11] LOCSEC 'inline.text' vlen=1\n"
	"\tname='foo' func_type_id=3 loc_proto_type_id=10 offset=64",
};

#define V(...) (const uint32_t[]){ __VA_ARGS__ }, sizeof((const uint32_t[]){ __VA_ARGS__ }) / 4

/* mk_loc_btf() of the merged selftest, with btfenc's builders. */
static struct btf *mk_loc_btf(void)
{
	struct btf *btf = btf__new_empty_layout(BTF_LAYOUT_MERGED);
	int i, err = 0;

	if (!btf)
		return NULL;
	btf__add_int(btf, "int", 4, BTF_INT_SIGNED);
	btf__add_func_proto(btf, 1);
	for (i = 1; i <= 5; i++) {
		char name[8];

		snprintf(name, sizeof(name), "arg%d", i);
		err |= btf__add_func_param(btf, name, 1);
	}
	btf__add_func(btf, "foo", BTF_FUNC_STATIC, 2);
	err |= btf__add_loc_param_merged(btf, 4, BTF_LOC_PARAM_REG, V(1)) != 4;
	err |= btf__add_loc_param_merged(btf, 8,
					 BTF_LOC_PARAM_REG | BTF_LOC_PARAM_DEREF |
						 BTF_LOC_PARAM_OFFSET,
					 V(2, 0x10)) != 5;
	err |= btf__add_loc_param_merged(btf, 8,
					 BTF_LOC_PARAM_REG | BTF_LOC_PARAM_OFFSET |
						 BTF_LOC_PARAM_SIGNED,
					 V(BTF_LOC_PARAM_FBREG, (uint32_t)-0x10)) != 6;
	err |= btf__add_loc_param_merged(btf, 8, BTF_LOC_PARAM_ADDR | BTF_LOC_PARAM_CONST,
					 V(0x9abcdef0, 0x12345678)) != 7;
	err |= btf__add_loc_param_merged(btf, 8, BTF_LOC_PARAM_CONST, V(0xfeedface, 0xdeadbeef)) != 8;
	err |= btf__add_loc_param_merged(btf, 8,
					 BTF_LOC_PARAM_REG | BTF_LOC_PARAM_DEREF |
						 BTF_LOC_PARAM_OFFSET | BTF_LOC_PARAM_SIGNED,
					 V(BTF_LOC_PARAM_FBREG, (uint32_t)-0x20)) != 9;
	err |= btf__add_loc_proto(btf) != 10;
	for (i = 4; i <= 9; i++)
		err |= btf__add_loc_proto_param(btf, i);
	err |= btf__add_locsec(btf, "inline.text") != 11;
	err |= btf__add_locsec_loc_merged(btf, 3, 10, 64);
	CHECK(!err, "building the selftest's BTF failed");
	return btf;
}

static void check_dump(const struct btf *btf, const char *what)
{
	uint32_t id;

	CHECK(btf__type_cnt(btf) == 12, "%s: %u types", what, btf__type_cnt(btf));
	for (id = 1; id < btf__type_cnt(btf) && id <= 11; id++) {
		char *s = btf__dump_type_str(btf, id, BTF_DUMP_BPFTOOL);

		CHECK(s && !strcmp(s, golden[id - 1]), "%s: [%u]\n got: %s\nwant: %s", what, id,
		      s ? s : "(null)", golden[id - 1]);
		free(s);
	}
}

static void log_to_buf(void *ctx, const char *msg)
{
	snprintf(ctx, 512, "%s", msg);
}

/* Writes, re-reads and re-writes: same bytes, same dump, still merged. */
static void check_roundtrip(const struct btf *btf, bool swap)
{
	void *a = NULL, *b = NULL;
	size_t alen, blen;
	struct btf *back;
	const struct btf_header_layout *hl;
	char msg[512] = "";
	struct btf_log log = { log_to_buf, msg };

	CHECK(!btf__write_raw(btf, swap, &a, &alen), "write");
	hl = a;
	if (!swap) {
		CHECK(hl->hdr.hdr_len == 32, "hdr_len %u", hl->hdr.hdr_len);
		CHECK(hl->layout_off == hl->hdr.type_len && hl->layout_len == 4 * NR_BTF_KINDS &&
			      hl->hdr.str_off == hl->layout_off + hl->layout_len,
		      "layout section at %u +%u, strings at %u", hl->layout_off, hl->layout_len,
		      hl->hdr.str_off);
	}
	back = btf__parse_raw(a, alen, NULL, &log);
	CHECK(back, "parse (swap %d): %s", swap, msg);
	if (!back)
		goto out;
	CHECK(btf__layout(back) == BTF_LAYOUT_MERGED, "layout not detected from the header");
	CHECK(btf__is_swapped(back) == swap, "byte order");
	CHECK(!btf__validate(back, &log), "validate: %s", msg);
	check_dump(back, swap ? "swapped" : "native");
	CHECK(!btf__write_raw(back, swap, &b, &blen), "rewrite");
	CHECK(alen == blen && !memcmp(a, b, alen), "round trip (swap %d) not byte-identical", swap);
	btf__free(back);
out:
	free(a);
	free(b);
}

/* The kernel's rule: LOC_PARAM flags and vlen agree. */
static void check_flags_vlen_rule(const struct btf *btf)
{
	char msg[512] = "";
	struct btf_log log = { log_to_buf, msg };
	struct btf_type *t;
	struct btf *copy;
	void *raw;
	size_t len;

	/* Builder side: REG|OFFSET with one value, CONST with three. */
	copy = btf__new_empty_layout(BTF_LAYOUT_MERGED);
	CHECK(btf__add_loc_param_merged(copy, 8, BTF_LOC_PARAM_REG | BTF_LOC_PARAM_OFFSET, V(1)) ==
		      -EINVAL,
	      "builder took REG|OFFSET vlen 1");
	CHECK(btf__add_loc_param_merged(copy, 8, BTF_LOC_PARAM_CONST, V(1, 2, 3)) == -EINVAL,
	      "builder took CONST vlen 3");
	CHECK(btf__add_loc_param(copy, 8, true, 1, 0, 0, 0) == -EINVAL,
	      "seed builder worked on a merged BTF");
	btf__free(copy);

	/* Validator side: [5] is REG|DEREF|OFFSET vlen 2; clear OFFSET. */
	CHECK(!btf__write_raw(btf, false, &raw, &len), "write");
	copy = btf__parse_raw(raw, len, NULL, NULL);
	free(raw);
	if (!copy)
		return;
	t = btf__type_by_id_mut(copy, 5);
	((struct btf_loc_param_merged *)btf_type_body(t))->flags &= ~BTF_LOC_PARAM_OFFSET;
	CHECK(btf__validate(copy, &log) == -EINVAL, "flags/vlen disagreement validated");
	CHECK(strstr(msg, "[5] LOC_PARAM") && strstr(msg, "REG|DEREF needs vlen 1"),
	      "message: %s", msg);
	btf__free(copy);
}

/* A merged split on a seed base, and the selftest dialect of the kinds. */
static void check_split(void)
{
	struct btf *base = btf__new_empty(), *split, *back;
	char msg[512] = "";
	struct btf_log log = { log_to_buf, msg };
	void *raw;
	size_t len;
	char *s;

	btf__add_int(base, "int", 4, BTF_INT_SIGNED);
	btf__add_func_proto(base, 1);
	btf__add_func(base, "foo", BTF_FUNC_STATIC, 2);
	split = btf__new_empty_split(base);
	CHECK(btf__layout(split) == BTF_LAYOUT_SEED && !btf__set_layout(split, BTF_LAYOUT_MERGED),
	      "set_layout on an empty split");
	btf__add_loc_param_merged(split, 4, BTF_LOC_PARAM_CONST | BTF_LOC_PARAM_SIGNED, V(0));
	btf__add_loc_param_merged(split, 4, BTF_LOC_PARAM_CONST | BTF_LOC_PARAM_SIGNED, V(0));
	btf__add_loc_proto(split);
	btf__add_loc_proto_param(split, 4);
	btf__add_locsec(split, ".locs");
	btf__add_locsec_loc_merged(split, 3, 6, 128);
	btf__add_locsec_loc_merged(split, 3, 6, 0);
	CHECK(btf__set_layout(split, BTF_LAYOUT_SEED) == -EBUSY, "layout changed under types");
	CHECK(!btf__dedup(split, NULL), "dedup");
	CHECK(btf__type_cnt(split) == 7, "dedup left %u types", btf__type_cnt(split));
	s = btf__dump_type_str(split, 4, BTF_DUMP_SELFTEST);
	CHECK(s && !strcmp(s, "[4] LOC_PARAM '(anon)' size=4 flags=0x3 vlen=1\n\tvalue=0"), "%s", s);
	free(s);
	s = btf__dump_type_str(split, 6, BTF_DUMP_SELFTEST);
	CHECK(s && !strcmp(s, "[6] LOCSEC '.locs' vlen=2\n"
			      "\tfunc_type_id=3 loc_proto_type_id=5 offset=128\n"
			      "\tfunc_type_id=3 loc_proto_type_id=5 offset=0"),
	      "%s", s);
	free(s);
	CHECK(!btf__write_raw(split, true, &raw, &len), "write split");
	back = btf__parse_raw(raw, len, base, &log);
	CHECK(back && btf__layout(back) == BTF_LAYOUT_MERGED && !btf__validate(back, &log),
	      "split: %s", msg);
	btf__free(back);
	free(raw);
	btf__free(split);
	btf__free(base);
}

int main(void)
{
	struct btf *btf = mk_loc_btf();
	char msg[512] = "";
	struct btf_log log = { log_to_buf, msg };

	if (!btf)
		return 1;
	check_dump(btf, "built");
	CHECK(!btf__validate(btf, &log), "validate: %s", msg);
	check_roundtrip(btf, false);
	check_roundtrip(btf, true);
	check_flags_vlen_rule(btf);
	check_split();
	btf__free(btf);
	if (failures)
		fprintf(stderr, "%d failures\n", failures);
	else
		printf("merged layout: golden dump, round trips and rules OK\n");
	return failures ? 1 : 0;
}
