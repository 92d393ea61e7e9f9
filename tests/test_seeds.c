// SPDX-License-Identifier: GPL-2.0
/*
 * test_seeds.c - the builders and the selftest dump dialect reproduce,
 * character for character, the pre-dedup VALIDATE_RAW_BTF blocks of the
 * RFC selftests (seeds 005 btf_field_iter, 006 btf_dedup_split
 * split_loc, 007 btf_distill distilled_loc).  Each case makes the same
 * btf__add_*() calls, in the same order, as the selftest.
 *
 * Like the selftests' btf_validate_raw(), every id from 1 (base types
 * included for split BTF) up to btf__type_cnt() - 1 is dumped and the
 * number of types must match the expectation exactly.
 */
#include "btf.h"
#include "check.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Every add call must have returned an id (or 0 for member appends). */
#define ADD(call)                                                                                  \
	do {                                                                                       \
		int __r = (call);                                                                  \
		CHECK(__r >= 0, "%s failed: %d", #call, __r);                                      \
	} while (0)

static void validate_raw(const char *what, const struct btf *btf, const char *const *exp,
			 size_t nr_exp)
{
	uint32_t nr = btf__type_cnt(btf) - 1;
	uint32_t id;

	CHECK(nr == nr_exp, "%s: %u types, expected %zu", what, nr, nr_exp);
	for (id = 1; id <= nr && id <= nr_exp; id++) {
		char *s = btf__dump_type_str(btf, id, BTF_DUMP_SELFTEST);

		CHECK(s && !strcmp(s, exp[id - 1]), "%s: [%u]\n  got:      \"%s\"\n  expected: \"%s\"",
		      what, id, s ? s : "(null)", exp[id - 1]);
		free(s);
	}
}

#define VALIDATE_RAW_BTF(what, btf, ...)                                                           \
	do {                                                                                       \
		static const char *const __exp[] = { __VA_ARGS__ };                                \
		validate_raw(what, btf, __exp, sizeof(__exp) / sizeof(__exp[0]));                  \
	} while (0)

/*
 * The same expectation before and after btf__dedup(): where a seed's BTF
 * has nothing to merge, every type must keep its id and its dump.
 */
#define VALIDATE_RAW_BTF_DEDUP(what, btf, ...)                                                     \
	do {                                                                                       \
		static const char *const __exp[] = { __VA_ARGS__ };                                \
		validate_raw(what, btf, __exp, sizeof(__exp) / sizeof(__exp[0]));                  \
		CHECK(!btf__dedup(btf, NULL), "%s: btf__dedup", what);                            \
		validate_raw(what " after dedup", btf, __exp, sizeof(__exp) / sizeof(__exp[0]));   \
	} while (0)

/* Seed 005: prog_tests/btf_field_iter.c, types [1]..[21] plus the patch's [22]..[25]. */
static void test_field_iter(void)
{
	struct btf *btf = btf__new_empty();

	CHECK(btf, "btf__new_empty");
	if (!btf)
		return;
	ADD(btf__add_int(btf, "int", 4, BTF_INT_SIGNED));	/* [1] */
	ADD(btf__add_int(btf, "int64", 8, BTF_INT_SIGNED));	/* [2] */
	ADD(btf__add_ptr(btf, 1));				/* [3] */
	ADD(btf__add_array(btf, 1, 2, 3));			/* [4] */
	ADD(btf__add_struct(btf, "s1", 12));			/* [5] */
	ADD(btf__add_field(btf, "f1", 3, 0, 0));
	ADD(btf__add_field(btf, "f2", 1, 0, 0));
	ADD(btf__add_union(btf, "u1", 12));			/* [6] */
	ADD(btf__add_field(btf, "f1", 1, 0, 0));
	ADD(btf__add_field(btf, "f2", 5, 0, 0));
	ADD(btf__add_enum(btf, "e1", 4));			/* [7] */
	ADD(btf__add_enum_value(btf, "v1", 1));
	ADD(btf__add_enum_value(btf, "v2", 2));
	ADD(btf__add_fwd(btf, "fw1", BTF_FWD_STRUCT));		/* [8] */
	ADD(btf__add_typedef(btf, "t", 1));			/* [9] */
	ADD(btf__add_volatile(btf, 2));				/* [10] */
	ADD(btf__add_const(btf, 1));				/* [11] */
	ADD(btf__add_restrict(btf, 3));				/* [12] */
	ADD(btf__add_func_proto(btf, 1));			/* [13] */
	ADD(btf__add_func_param(btf, "p1", 1));
	ADD(btf__add_func_param(btf, "p2", 3));
	ADD(btf__add_func(btf, "func", BTF_FUNC_GLOBAL, 13));	/* [14] */
	ADD(btf__add_var(btf, "var1", BTF_VAR_STATIC, 1));	/* [15] */
	ADD(btf__add_var(btf, "var2", BTF_VAR_STATIC, 3));	/* [16] */
	ADD(btf__add_float(btf, "float", 4));			/* [17] */
	ADD(btf__add_decl_tag(btf, "decltag", 11, -1));		/* [18] */
	ADD(btf__add_type_tag(btf, "typetag", 6));		/* [19] */
	ADD(btf__add_enum64(btf, "e64", 8, true));		/* [20] */
	ADD(btf__add_enum64_value(btf, "eval1", 1000));
	ADD(btf__add_enum64_value(btf, "eval2", 2000));
	ADD(btf__add_enum64_value(btf, "eval3", 3000));
	ADD(btf__add_datasec(btf, "datasec1", 12));		/* [21] */
	ADD(btf__add_datasec_var_info(btf, 15, 0, 4));
	ADD(btf__add_datasec_var_info(btf, 16, 4, 8));
	ADD(btf__add_loc_param(btf, -4, true, -1, 0, 0, 0));	/* [22] */
	ADD(btf__add_loc_param(btf, 8, false, 0, 1, 0, 0));	/* [23] */
	ADD(btf__add_loc_proto(btf));				/* [24] */
	ADD(btf__add_loc_proto_param(btf, 22));
	ADD(btf__add_loc_proto_param(btf, 23));
	ADD(btf__add_locsec(btf, ".loc"));			/* [25] */
	ADD(btf__add_locsec_loc(btf, "func", 13, 24, 128));

	VALIDATE_RAW_BTF_DEDUP("005 field_iter", btf,
		"[1] INT 'int' size=4 bits_offset=0 nr_bits=32 encoding=SIGNED",
		"[2] INT 'int64' size=8 bits_offset=0 nr_bits=64 encoding=SIGNED",
		"[3] PTR '(anon)' type_id=1",
		"[4] ARRAY '(anon)' type_id=2 index_type_id=1 nr_elems=3",
		"[5] STRUCT 's1' size=12 vlen=2\n"
		"\t'f1' type_id=3 bits_offset=0\n"
		"\t'f2' type_id=1 bits_offset=0",
		"[6] UNION 'u1' size=12 vlen=2\n"
		"\t'f1' type_id=1 bits_offset=0\n"
		"\t'f2' type_id=5 bits_offset=0",
		"[7] ENUM 'e1' encoding=UNSIGNED size=4 vlen=2\n"
		"\t'v1' val=1\n"
		"\t'v2' val=2",
		"[8] FWD 'fw1' fwd_kind=struct",
		"[9] TYPEDEF 't' type_id=1",
		"[10] VOLATILE '(anon)' type_id=2",
		"[11] CONST '(anon)' type_id=1",
		"[12] RESTRICT '(anon)' type_id=3",
		"[13] FUNC_PROTO '(anon)' ret_type_id=1 vlen=2\n"
		"\t'p1' type_id=1\n"
		"\t'p2' type_id=3",
		"[14] FUNC 'func' type_id=13 linkage=global",
		"[15] VAR 'var1' type_id=1, linkage=static",
		"[16] VAR 'var2' type_id=3, linkage=static",
		"[17] FLOAT 'float' size=4",
		"[18] DECL_TAG 'decltag' type_id=11 component_idx=-1",
		"[19] TYPE_TAG 'typetag' type_id=6",
		"[20] ENUM64 'e64' encoding=SIGNED size=8 vlen=3\n"
		"\t'eval1' val=1000\n"
		"\t'eval2' val=2000\n"
		"\t'eval3' val=3000",
		"[21] DATASEC 'datasec1' size=12 vlen=2\n"
		"\ttype_id=15 offset=0 size=4\n"
		"\ttype_id=16 offset=4 size=8",
		"[22] LOC_PARAM '(anon)' size=-4 value=-1",
		"[23] LOC_PARAM '(anon)' size=8 reg=1 flags=0x0 offset=0",
		"[24] LOC_PROTO '(anon)' vlen=2\n"
		"\ttype_id=22\n"
		"\ttype_id=23",
		"[25] LOCSEC '.loc' vlen=1\n"
		"\t'func' func_proto_type_id=13 loc_proto_type_id=24 offset=128");
	btf__free(btf);
}

/* Seed 006: prog_tests/btf_dedup_split.c test_split_loc(), before btf__dedup(). */
static void test_split_loc(void)
{
	struct btf *btf1 = btf__new_empty(), *btf2 = NULL;

	CHECK(btf1, "btf__new_empty");
	if (!btf1)
		return;
	btf__set_pointer_size(btf1, 8);
	ADD(btf__add_int(btf1, "long", 8, BTF_INT_SIGNED));	/* [1] */
	ADD(btf__add_ptr(btf1, 1));				/* [2] */
	ADD(btf__add_func_proto(btf1, 1));			/* [3] */
	ADD(btf__add_func_param(btf1, "p1", 1));
	ADD(btf__add_func_param(btf1, "p2", 2));
	ADD(btf__add_loc_param(btf1, -8, true, (uint64_t)-9223372036854775807LL, 0, 0, 0));
	ADD(btf__add_loc_param(btf1, 8, false, 0, 1, 0, 0));	/* [5] */
	ADD(btf__add_loc_proto(btf1));				/* [6] */
	ADD(btf__add_loc_proto_param(btf1, 4));
	ADD(btf__add_loc_proto_param(btf1, 5));

	VALIDATE_RAW_BTF("006 split_loc base", btf1,
		"[1] INT 'long' size=8 bits_offset=0 nr_bits=64 encoding=SIGNED",
		"[2] PTR '(anon)' type_id=1",
		"[3] FUNC_PROTO '(anon)' ret_type_id=1 vlen=2\n"
		"\t'p1' type_id=1\n"
		"\t'p2' type_id=2",
		"[4] LOC_PARAM '(anon)' size=-8 value=-9223372036854775807",
		"[5] LOC_PARAM '(anon)' size=8 reg=1 flags=0x0 offset=0",
		"[6] LOC_PROTO '(anon)' vlen=2\n"
		"\ttype_id=4\n"
		"\ttype_id=5");

	btf2 = btf__new_empty_split(btf1);
	CHECK(btf2, "btf__new_empty_split");
	if (!btf2)
		goto out;
	ADD(btf__add_loc_param(btf2, 8, false, 0, 1, 0, 0));	/* [7] */
	ADD(btf__add_loc_proto(btf2));				/* [8] */
	ADD(btf__add_loc_proto_param(btf2, 4));
	ADD(btf__add_loc_proto_param(btf2, 7));
	ADD(btf__add_locsec(btf2, ".locs"));			/* [9] */
	ADD(btf__add_locsec_loc(btf2, "foo", 3, 8, 128));

	VALIDATE_RAW_BTF("006 split_loc split", btf2,
		"[1] INT 'long' size=8 bits_offset=0 nr_bits=64 encoding=SIGNED",
		"[2] PTR '(anon)' type_id=1",
		"[3] FUNC_PROTO '(anon)' ret_type_id=1 vlen=2\n"
		"\t'p1' type_id=1\n"
		"\t'p2' type_id=2",
		"[4] LOC_PARAM '(anon)' size=-8 value=-9223372036854775807",
		"[5] LOC_PARAM '(anon)' size=8 reg=1 flags=0x0 offset=0",
		"[6] LOC_PROTO '(anon)' vlen=2\n"
		"\ttype_id=4\n"
		"\ttype_id=5",
		"[7] LOC_PARAM '(anon)' size=8 reg=1 flags=0x0 offset=0",
		"[8] LOC_PROTO '(anon)' vlen=2\n"
		"\ttype_id=4\n"
		"\ttype_id=7",
		"[9] LOCSEC '.locs' vlen=1\n"
		"\t'foo' func_proto_type_id=3 loc_proto_type_id=8 offset=128");
	CHECK(btf__start_id(btf2) == 7, "split start id %u", btf__start_id(btf2));
out:
	btf__free(btf2);
	btf__free(btf1);
}

/* Seed 007: prog_tests/btf_distill.c test_distilled_loc(), before distilling. */
static void test_distilled_loc(void)
{
	struct btf *btf1 = btf__new_empty(), *btf2 = NULL;

	CHECK(btf1, "btf__new_empty");
	if (!btf1)
		return;
	ADD(btf__add_int(btf1, "int", 4, BTF_INT_SIGNED));	/* [1] */
	ADD(btf__add_func_proto(btf1, 1));			/* [2] */
	ADD(btf__add_func_param(btf1, "p1", 1));
	ADD(btf__add_loc_param(btf1, -4, true, (uint64_t)-1, 0, 0, 0)); /* [3] */

	VALIDATE_RAW_BTF("007 distilled_loc base", btf1,
		"[1] INT 'int' size=4 bits_offset=0 nr_bits=32 encoding=SIGNED",
		"[2] FUNC_PROTO '(anon)' ret_type_id=1 vlen=1\n"
		"\t'p1' type_id=1",
		"[3] LOC_PARAM '(anon)' size=-4 value=-1");

	btf2 = btf__new_empty_split(btf1);
	CHECK(btf2, "btf__new_empty_split");
	if (!btf2)
		goto out;
	ADD(btf__add_loc_proto(btf2));				/* [4] */
	ADD(btf__add_loc_proto_param(btf2, 3));
	ADD(btf__add_locsec(btf2, ".locs"));			/* [5] */
	ADD(btf__add_locsec_loc(btf2, "foo", 2, 4, 256));

	VALIDATE_RAW_BTF_DEDUP("007 distilled_loc split", btf2,
		"[1] INT 'int' size=4 bits_offset=0 nr_bits=32 encoding=SIGNED",
		"[2] FUNC_PROTO '(anon)' ret_type_id=1 vlen=1\n"
		"\t'p1' type_id=1",
		"[3] LOC_PARAM '(anon)' size=-4 value=-1",
		"[4] LOC_PROTO '(anon)' vlen=1\n"
		"\ttype_id=3",
		"[5] LOCSEC '.locs' vlen=1\n"
		"\t'foo' func_proto_type_id=2 loc_proto_type_id=4 offset=256");
out:
	btf__free(btf2);
	btf__free(btf1);
}

/*
 * Where the two dialects part: btf_helpers.c knows only "global-alloc"
 * and prints no DATASEC entry names and no ENUM64 suffixes; bpftool
 * prints "global"/"extern", " (VAR 'name')" and LL/ULL.
 */
static void test_dialects(void)
{
	struct btf *btf = btf__new_empty();
	char *s;

	CHECK(btf, "btf__new_empty");
	if (!btf)
		return;
	ADD(btf__add_int(btf, "int", 4, BTF_INT_SIGNED));		/* [1] */
	ADD(btf__add_var(btf, "g", BTF_VAR_GLOBAL_ALLOCATED, 1));	/* [2] */
	ADD(btf__add_var(btf, "x", BTF_VAR_GLOBAL_EXTERN, 1));		/* [3] */
	ADD(btf__add_datasec(btf, ".data", 4));				/* [4] */
	ADD(btf__add_datasec_var_info(btf, 2, 0, 4));
	ADD(btf__add_enum64(btf, "u", 8, false));			/* [5] */
	ADD(btf__add_enum64_value(btf, "big", 0xffffffffffffffffULL));
	ADD(btf__add_enum64(btf, "s", 8, true));			/* [6] */
	ADD(btf__add_enum64_value(btf, "neg", (uint64_t)-5));
	ADD(btf__add_enum(btf, "e", 4));				/* [7] */
	ADD(btf__add_enum_value(btf, "m", -1));

	VALIDATE_RAW_BTF("selftest dialect", btf,
		"[1] INT 'int' size=4 bits_offset=0 nr_bits=32 encoding=SIGNED",
		"[2] VAR 'g' type_id=1, linkage=global-alloc",
		"[3] VAR 'x' type_id=1, linkage=(unknown)",
		"[4] DATASEC '.data' size=4 vlen=1\n"
		"\ttype_id=2 offset=0 size=4",
		"[5] ENUM64 'u' encoding=UNSIGNED size=8 vlen=1\n"
		"\t'big' val=18446744073709551615",
		"[6] ENUM64 's' encoding=SIGNED size=8 vlen=1\n"
		"\t'neg' val=-5",
		"[7] ENUM 'e' encoding=SIGNED size=4 vlen=1\n"
		"\t'm' val=-1");

	s = btf__dump_type_str(btf, 2, BTF_DUMP_BPFTOOL);
	CHECK(s && !strcmp(s, "[2] VAR 'g' type_id=1, linkage=global"), "bpftool VAR: %s", s);
	free(s);
	s = btf__dump_type_str(btf, 3, BTF_DUMP_BPFTOOL);
	CHECK(s && !strcmp(s, "[3] VAR 'x' type_id=1, linkage=extern"), "bpftool VAR: %s", s);
	free(s);
	s = btf__dump_type_str(btf, 4, BTF_DUMP_BPFTOOL);
	CHECK(s && !strcmp(s, "[4] DATASEC '.data' size=4 vlen=1\n\ttype_id=2 offset=0 size=4 (VAR 'g')"),
	      "bpftool DATASEC: %s", s);
	free(s);
	s = btf__dump_type_str(btf, 5, BTF_DUMP_BPFTOOL);
	CHECK(s && !strcmp(s, "[5] ENUM64 'u' encoding=UNSIGNED size=8 vlen=1\n"
			      "\t'big' val=18446744073709551615ULL"),
	      "bpftool ENUM64: %s", s);
	free(s);
	s = btf__dump_type_str(btf, 6, BTF_DUMP_BPFTOOL);
	CHECK(s && !strcmp(s, "[6] ENUM64 's' encoding=SIGNED size=8 vlen=1\n\t'neg' val=-5LL"),
	      "bpftool ENUM64: %s", s);
	free(s);
	s = btf__dump_type_str(btf, 8, BTF_DUMP_SELFTEST);
	CHECK(!s, "dump of id past the end returned \"%s\"", s);
	free(s);
	s = btf__dump_type_str(btf, 0, BTF_DUMP_SELFTEST);
	CHECK(!s, "dump of id 0 returned \"%s\"", s);
	free(s);
	btf__free(btf);
}

int main(void)
{
	test_field_iter();
	test_split_loc();
	test_distilled_loc();
	test_dialects();
	if (failures) {
		fprintf(stderr, "%d check(s) failed\n", failures);
		return 1;
	}
	printf("seed dumps 005, 006, 007: all match\n");
	return 0;
}
