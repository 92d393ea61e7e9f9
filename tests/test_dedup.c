// SPDX-License-Identifier: GPL-2.0
/*
 * test_dedup.c - btf__dedup(): the RFC selftest split_loc (seed 006)
 * reproduced call for call with its post-dedup dump, then unit cases for
 * each rule of the algorithm: cross-CU struct merging, FWD resolution,
 * enum forward declarations, FUNC_PROTO merging, the location kinds, split
 * BTF against a base, the id map, determinism and all-or-nothing failure.
 * Every case checks the full selftest-dialect dump of the result.
 */
#include "btf.h"
#include "check.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

static void check_id_map(const char *what, const uint32_t *map, const uint32_t *exp, size_t n)
{
	size_t i;

	CHECK(map, "%s: no id map", what);
	for (i = 0; map && i < n; i++)
		CHECK(map[i] == exp[i], "%s: id map[%zu] = %u, expected %u", what, i, map[i],
		      exp[i]);
}

static void dedup_ok(const char *what, struct btf *btf, uint32_t **map)
{
	struct btf_dedup_opts opts = { .id_map = map };
	int err = btf__dedup(btf, map ? &opts : NULL);

	CHECK(err == 0, "%s: btf__dedup: %d", what, err);
}

/* Seed 006: prog_tests/btf_dedup_split.c test_split_loc(). */
static void test_split_loc(void)
{
	static const uint32_t exp_map[] = { 5, 6, 7 };
	struct btf *btf1 = btf__new_empty(), *btf2;
	uint32_t *map = NULL;

	btf__set_pointer_size(btf1, 8);
	ADD(btf__add_int(btf1, "long", 8, BTF_INT_SIGNED));		  /* [1] */
	ADD(btf__add_ptr(btf1, 1));					  /* [2] */
	ADD(btf__add_func_proto(btf1, 1));				  /* [3] */
	ADD(btf__add_func_param(btf1, "p1", 1));
	ADD(btf__add_func_param(btf1, "p2", 2));
	ADD(btf__add_loc_param(btf1, -8, true, -9223372036854775807LL, 0, 0, 0)); /* [4] */
	ADD(btf__add_loc_param(btf1, 8, false, 0, 1, 0, 0));		  /* [5] */
	ADD(btf__add_loc_proto(btf1));					  /* [6] */
	ADD(btf__add_loc_proto_param(btf1, 4));
	ADD(btf__add_loc_proto_param(btf1, 5));

	btf2 = btf__new_empty_split(btf1);
	ADD(btf__add_loc_param(btf2, 8, false, 0, 1, 0, 0));		  /* [7] */
	ADD(btf__add_loc_proto(btf2));					  /* [8] */
	ADD(btf__add_loc_proto_param(btf2, 4));
	ADD(btf__add_loc_proto_param(btf2, 7));
	ADD(btf__add_locsec(btf2, ".locs"));				  /* [9] */
	ADD(btf__add_locsec_loc(btf2, "foo", 3, 8, 128));

	dedup_ok("split_loc", btf2, &map);
	VALIDATE_RAW_BTF(
		"split_loc", btf2,
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
		"[7] LOCSEC '.locs' vlen=1\n"
		"\t'foo' func_proto_type_id=3 loc_proto_type_id=6 offset=128");
	/* [7] and [8] became base [5] and [6]; the LOCSEC moved to [7]. */
	check_id_map("split_loc", map, exp_map, 3);
	free(map);
	btf__free(btf2);
	btf__free(btf1);
}

/* One "CU": int, a self-referencing struct through a pointer, a func. */
static void add_list_cu(struct btf *btf)
{
	int base = btf__type_cnt(btf) - 1;

	ADD(btf__add_int(btf, "int", 4, BTF_INT_SIGNED));	/* +1 */
	ADD(btf__add_struct(btf, "node", 16));			/* +2 */
	ADD(btf__add_field(btf, "val", base + 1, 0, 0));
	ADD(btf__add_field(btf, "next", base + 3, 64, 0));
	ADD(btf__add_ptr(btf, base + 2));			/* +3 */
	ADD(btf__add_func_proto(btf, base + 1));		/* +4 */
	ADD(btf__add_func_param(btf, "n", base + 3));
	ADD(btf__add_func(btf, "walk", BTF_FUNC_GLOBAL, base + 4)); /* +5 */
}

static void test_dup_structs(void)
{
	static const uint32_t exp_map[] = { 1, 2, 3, 4, 5, 1, 2, 3, 4, 5, 1, 2, 3, 4, 5 };
	struct btf *btf = btf__new_empty();
	uint32_t *map = NULL;

	add_list_cu(btf);
	add_list_cu(btf);
	add_list_cu(btf);
	dedup_ok("dup_structs", btf, &map);
	VALIDATE_RAW_BTF("dup_structs", btf,
			 "[1] INT 'int' size=4 bits_offset=0 nr_bits=32 encoding=SIGNED",
			 "[2] STRUCT 'node' size=16 vlen=2\n"
			 "\t'val' type_id=1 bits_offset=0\n"
			 "\t'next' type_id=3 bits_offset=64",
			 "[3] PTR '(anon)' type_id=2",
			 "[4] FUNC_PROTO '(anon)' ret_type_id=1 vlen=1\n"
			 "\t'n' type_id=3",
			 "[5] FUNC 'walk' type_id=4 linkage=global");
	check_id_map("dup_structs", map, exp_map, 15);
	free(map);
	btf__free(btf);
}

/*
 * CU1 knows struct S only by a FWD, CU2 defines it; struct A (pointing
 * to S) exists in both.  CU3 has a lone FWD of S behind an opaque
 * pointer and a FWD 'U' that must stay (no struct U exists), and a FWD
 * union 'S' that must not resolve to struct S.
 */
static void test_fwd_resolution(void)
{
	struct btf *btf = btf__new_empty();

	ADD(btf__add_int(btf, "int", 4, BTF_INT_SIGNED));	/* [1] CU1 */
	ADD(btf__add_fwd(btf, "S", BTF_FWD_STRUCT));		/* [2] */
	ADD(btf__add_ptr(btf, 2));				/* [3] */
	ADD(btf__add_struct(btf, "A", 8));			/* [4] */
	ADD(btf__add_field(btf, "s", 3, 0, 0));
	ADD(btf__add_int(btf, "int", 4, BTF_INT_SIGNED));	/* [5] CU2 */
	ADD(btf__add_struct(btf, "S", 4));			/* [6] */
	ADD(btf__add_field(btf, "x", 5, 0, 0));
	ADD(btf__add_ptr(btf, 6));				/* [7] */
	ADD(btf__add_struct(btf, "A", 8));			/* [8] */
	ADD(btf__add_field(btf, "s", 7, 0, 0));
	ADD(btf__add_fwd(btf, "S", BTF_FWD_STRUCT));		/* [9] CU3 */
	ADD(btf__add_ptr(btf, 9));				/* [10] */
	ADD(btf__add_typedef(btf, "S_handle", 10));		/* [11] */
	ADD(btf__add_fwd(btf, "U", BTF_FWD_STRUCT));		/* [12] */
	ADD(btf__add_ptr(btf, 12));				/* [13] */
	ADD(btf__add_fwd(btf, "S", BTF_FWD_UNION));		/* [14] */
	ADD(btf__add_ptr(btf, 14));				/* [15] */

	dedup_ok("fwd", btf, NULL);
	VALIDATE_RAW_BTF("fwd", btf,
			 "[1] INT 'int' size=4 bits_offset=0 nr_bits=32 encoding=SIGNED",
			 "[2] PTR '(anon)' type_id=4",
			 "[3] STRUCT 'A' size=8 vlen=1\n"
			 "\t's' type_id=2 bits_offset=0",
			 "[4] STRUCT 'S' size=4 vlen=1\n"
			 "\t'x' type_id=1 bits_offset=0",
			 "[5] TYPEDEF 'S_handle' type_id=2",
			 "[6] FWD 'U' fwd_kind=struct",
			 "[7] PTR '(anon)' type_id=6",
			 "[8] FWD 'S' fwd_kind=union",
			 "[9] PTR '(anon)' type_id=8");
	btf__free(btf);
}

/* Two same-named structs of different layout stay two types. */
static void test_same_name_differs(void)
{
	struct btf *btf = btf__new_empty();

	ADD(btf__add_int(btf, "int", 4, BTF_INT_SIGNED));	/* [1] */
	ADD(btf__add_int(btf, "long", 8, BTF_INT_SIGNED));	/* [2] */
	ADD(btf__add_struct(btf, "owner", 8));			/* [3] */
	ADD(btf__add_field(btf, "id", 1, 0, 0));
	ADD(btf__add_struct(btf, "owner", 8));			/* [4] */
	ADD(btf__add_field(btf, "id", 2, 0, 0));

	dedup_ok("same_name", btf, NULL);
	VALIDATE_RAW_BTF("same_name", btf,
			 "[1] INT 'int' size=4 bits_offset=0 nr_bits=32 encoding=SIGNED",
			 "[2] INT 'long' size=8 bits_offset=0 nr_bits=64 encoding=SIGNED",
			 "[3] STRUCT 'owner' size=8 vlen=1\n"
			 "\t'id' type_id=1 bits_offset=0",
			 "[4] STRUCT 'owner' size=8 vlen=1\n"
			 "\t'id' type_id=2 bits_offset=0");
	btf__free(btf);
}

/*
 * enum e { A = 1 } and its forward declaration, in both orders: the
 * pointers to either end up as one pointer to the definition.
 */
static void test_enum_fwd(void)
{
	struct btf *btf = btf__new_empty();

	ADD(btf__add_enum(btf, "e", 4));			/* [1] fwd first */
	ADD(btf__add_ptr(btf, 1));				/* [2] */
	ADD(btf__add_enum(btf, "e", 4));			/* [3] */
	ADD(btf__add_enum_value(btf, "A", 1));
	ADD(btf__add_ptr(btf, 3));				/* [4] */
	ADD(btf__add_enum(btf, "e", 4));			/* [5] fwd after */
	ADD(btf__add_enum(btf, "f", 4));			/* [6] other name */
	ADD(btf__add_enum_value(btf, "B", 1));
	ADD(btf__add_enum(btf, "g", 8));			/* [7] other size */

	dedup_ok("enum_fwd", btf, NULL);
	VALIDATE_RAW_BTF("enum_fwd", btf,
			 "[1] PTR '(anon)' type_id=2",
			 "[2] ENUM 'e' encoding=UNSIGNED size=4 vlen=1\n"
			 "\t'A' val=1",
			 "[3] ENUM 'f' encoding=UNSIGNED size=4 vlen=1\n"
			 "\t'B' val=1",
			 "[4] ENUM 'g' encoding=UNSIGNED size=8 vlen=0");
	btf__free(btf);
}

/* Identical FUNC_PROTOs merge; a different parameter name keeps them apart. */
static void test_func_protos(void)
{
	struct btf *btf = btf__new_empty();

	ADD(btf__add_int(btf, "int", 4, BTF_INT_SIGNED));	/* [1] */
	ADD(btf__add_func_proto(btf, 1));			/* [2] */
	ADD(btf__add_func_param(btf, "a", 1));
	ADD(btf__add_func_proto(btf, 1));			/* [3] = [2] */
	ADD(btf__add_func_param(btf, "a", 1));
	ADD(btf__add_func_proto(btf, 1));			/* [4] */
	ADD(btf__add_func_param(btf, "b", 1));
	ADD(btf__add_func(btf, "f", BTF_FUNC_GLOBAL, 3));	/* [5] */
	ADD(btf__add_func(btf, "f", BTF_FUNC_GLOBAL, 2));	/* [6] = [5] */
	ADD(btf__add_func(btf, "f", BTF_FUNC_STATIC, 2));	/* [7] */

	dedup_ok("func_protos", btf, NULL);
	VALIDATE_RAW_BTF("func_protos", btf,
			 "[1] INT 'int' size=4 bits_offset=0 nr_bits=32 encoding=SIGNED",
			 "[2] FUNC_PROTO '(anon)' ret_type_id=1 vlen=1\n"
			 "\t'a' type_id=1",
			 "[3] FUNC_PROTO '(anon)' ret_type_id=1 vlen=1\n"
			 "\t'b' type_id=1",
			 "[4] FUNC 'f' type_id=2 linkage=global",
			 "[5] FUNC 'f' type_id=2 linkage=static");
	btf__free(btf);
}

/*
 * LOC_PARAMs merge by kflag, size and payload; LOC_PROTOs by their whole
 * list: [9] and [10] differ only in their 2nd element (the RFC patch's
 * comparison loop looked at the 1st only and would merge them), [11] is
 * a prefix of [9].  The LOCSEC follows the merges.
 */
static void test_loc_kinds(void)
{
	static const uint32_t exp_map[] = { 1, 2, 3, 1, 4, 5, 5, 6, 7, 8, 9, 7, 10 };
	struct btf *btf = btf__new_empty();
	uint32_t *map = NULL;

	ADD(btf__add_int(btf, "long", 8, BTF_INT_SIGNED));		/* [1] */
	ADD(btf__add_func_proto(btf, 1));				/* [2] */
	ADD(btf__add_loc_param(btf, 8, false, 0, 5, 0, 0));		/* [3] reg 5 */
	ADD(btf__add_int(btf, "long", 8, BTF_INT_SIGNED));		/* [4] = [1] */
	ADD(btf__add_loc_param(btf, 8, false, 0, 5, BTF_LOC_FLAG_DEREF, 0)); /* [5] */
	ADD(btf__add_loc_param(btf, -4, true, 7, 0, 0, 0));		/* [6] value 7 */
	ADD(btf__add_loc_param(btf, -4, true, 7, 0, 0, 0));		/* [7] = [6] */
	ADD(btf__add_loc_param(btf, 8, false, 0, 5, 0, 16));		/* [8] */
	ADD(btf__add_loc_proto(btf));					/* [9] */
	ADD(btf__add_loc_proto_param(btf, 3));
	ADD(btf__add_loc_proto_param(btf, 6));
	ADD(btf__add_loc_proto(btf));					/* [10] */
	ADD(btf__add_loc_proto_param(btf, 3));
	ADD(btf__add_loc_proto_param(btf, 5));
	ADD(btf__add_loc_proto(btf));					/* [11] */
	ADD(btf__add_loc_proto_param(btf, 3));
	ADD(btf__add_loc_proto(btf));					/* [12] = [9] */
	ADD(btf__add_loc_proto_param(btf, 3));
	ADD(btf__add_loc_proto_param(btf, 7));
	ADD(btf__add_locsec(btf, ".locs"));				/* [13] */
	ADD(btf__add_locsec_loc(btf, "a", 2, 12, 16));
	ADD(btf__add_locsec_loc(btf, "b", 2, 10, 32));
	ADD(btf__add_locsec_loc(btf, "c", 2, 0, 48));

	dedup_ok("loc_kinds", btf, &map);
	VALIDATE_RAW_BTF("loc_kinds", btf,
			 "[1] INT 'long' size=8 bits_offset=0 nr_bits=64 encoding=SIGNED",
			 "[2] FUNC_PROTO '(anon)' ret_type_id=1 vlen=0",
			 "[3] LOC_PARAM '(anon)' size=8 reg=5 flags=0x0 offset=0",
			 "[4] LOC_PARAM '(anon)' size=8 reg=5 flags=0x1 offset=0",
			 "[5] LOC_PARAM '(anon)' size=-4 value=7",
			 "[6] LOC_PARAM '(anon)' size=8 reg=5 flags=0x0 offset=16",
			 "[7] LOC_PROTO '(anon)' vlen=2\n"
			 "\ttype_id=3\n"
			 "\ttype_id=5",
			 "[8] LOC_PROTO '(anon)' vlen=2\n"
			 "\ttype_id=3\n"
			 "\ttype_id=4",
			 "[9] LOC_PROTO '(anon)' vlen=1\n"
			 "\ttype_id=3",
			 "[10] LOCSEC '.locs' vlen=3\n"
			 "\t'a' func_proto_type_id=2 loc_proto_type_id=7 offset=16\n"
			 "\t'b' func_proto_type_id=2 loc_proto_type_id=8 offset=32\n"
			 "\t'c' func_proto_type_id=2 loc_proto_type_id=0 offset=48");
	check_id_map("loc_kinds", map, exp_map, 13);
	free(map);
	btf__free(btf);
}

/* LOCSECs are never merged, even when identical. */
static void test_locsec_kept(void)
{
	struct btf *btf = btf__new_empty();

	ADD(btf__add_loc_proto(btf));			/* [1] */
	ADD(btf__add_loc_proto(btf));			/* [2] = [1] */
	ADD(btf__add_locsec(btf, ".locs"));		/* [3] */
	ADD(btf__add_locsec_loc(btf, "a", 0, 2, 0));
	ADD(btf__add_locsec(btf, ".locs"));		/* [4] */
	ADD(btf__add_locsec_loc(btf, "a", 0, 2, 0));

	dedup_ok("locsec_kept", btf, NULL);
	VALIDATE_RAW_BTF("locsec_kept", btf,
			 "[1] LOC_PROTO '(anon)' vlen=0",
			 "[2] LOCSEC '.locs' vlen=1\n"
			 "\t'a' func_proto_type_id=0 loc_proto_type_id=1 offset=0",
			 "[3] LOCSEC '.locs' vlen=1\n"
			 "\t'a' func_proto_type_id=0 loc_proto_type_id=1 offset=0");
	btf__free(btf);
}

/*
 * Split on a base: split types equal to base types map to the base ids,
 * a split struct that completes a base FWD does not change the base, and
 * a second split level dedups against both levels below it.
 */
static void test_split_base(void)
{
	static const uint32_t exp_map[] = { 1, 3, 2, 5, 6 };
	static const uint32_t exp_map2[] = { 2, 5, 7 };
	struct btf *base = btf__new_empty(), *split, *split2;
	uint32_t *map = NULL, *map2 = NULL;

	ADD(btf__add_int(base, "int", 4, BTF_INT_SIGNED));	/* [1] */
	ADD(btf__add_struct(base, "s", 4));			/* [2] */
	ADD(btf__add_field(base, "x", 1, 0, 0));
	ADD(btf__add_fwd(base, "t", BTF_FWD_STRUCT));		/* [3] */
	ADD(btf__add_ptr(base, 3));				/* [4] */

	split = btf__new_empty_split(base);
	ADD(btf__add_int(split, "int", 4, BTF_INT_SIGNED));	/* [5] = [1] */
	ADD(btf__add_fwd(split, "t", BTF_FWD_STRUCT));		/* [6] = [3] */
	ADD(btf__add_struct(split, "s", 4));			/* [7] = [2] */
	ADD(btf__add_field(split, "x", 5, 0, 0));
	ADD(btf__add_struct(split, "t", 8));			/* [8] -> [5] */
	ADD(btf__add_field(split, "y", 7, 0, 0));
	ADD(btf__add_ptr(split, 8));				/* [9] -> [6] */

	dedup_ok("split_base", split, &map);
	VALIDATE_RAW_BTF("split_base", split,
			 "[1] INT 'int' size=4 bits_offset=0 nr_bits=32 encoding=SIGNED",
			 "[2] STRUCT 's' size=4 vlen=1\n"
			 "\t'x' type_id=1 bits_offset=0",
			 "[3] FWD 't' fwd_kind=struct",
			 "[4] PTR '(anon)' type_id=3",
			 "[5] STRUCT 't' size=8 vlen=1\n"
			 "\t'y' type_id=2 bits_offset=0",
			 "[6] PTR '(anon)' type_id=5");
	check_id_map("split_base", map, exp_map, 5);
	CHECK(btf__find_str(base, "y") < 0, "split_base: the base got a new string");

	split2 = btf__new_empty_split(split);
	ADD(btf__add_struct(split2, "s", 4));			/* [7] = [2] */
	ADD(btf__add_field(split2, "x", 1, 0, 0));
	ADD(btf__add_struct(split2, "t", 8));			/* [8] = [5] */
	ADD(btf__add_field(split2, "y", 2, 0, 0));
	ADD(btf__add_typedef(split2, "y", 8));			/* [9] */
	dedup_ok("split_base2", split2, &map2);
	CHECK(btf__type_cnt(split2) == 8, "split_base2: %u types", btf__type_cnt(split2));
	check_id_map("split_base2", map2, exp_map2, 3);
	free(map2);
	free(map);
	btf__free(split2);
	btf__free(split);
	btf__free(base);
}

/*
 * A base too big for one bucket of the table's bulk fill (its 6000 INTs
 * take 16K slots): every split type still finds its base twin, and of
 * two equal base types the first is the one taken, as for types added
 * one by one.
 */
#define BIG_BASE 6000

static void test_big_base(void)
{
	struct btf *base = btf__new_empty(), *split;
	uint32_t *map = NULL, i;
	char name[32];
	bool all = true;

	for (i = 0; i < BIG_BASE; i++) {
		snprintf(name, sizeof(name), "i%u", i);
		ADD(btf__add_int(base, name, 4, 0));		/* [i + 1] */
	}
	ADD(btf__add_int(base, "dup", 8, 0));			/* [BIG_BASE + 1] */
	ADD(btf__add_int(base, "dup", 8, 0));			/* [BIG_BASE + 2] */
	split = btf__new_empty_split(base);
	for (i = BIG_BASE; i-- > 0;) {
		snprintf(name, sizeof(name), "i%u", i);
		ADD(btf__add_int(split, name, 4, 0));
	}
	ADD(btf__add_int(split, "dup", 8, 0));
	dedup_ok("big_base", split, &map);
	CHECK(btf__type_cnt(split) == BIG_BASE + 3, "big_base: %u types left",
	      btf__type_cnt(split));
	for (i = 0; map && i < BIG_BASE; i++)
		all &= map[i] == BIG_BASE - i;
	CHECK(all, "big_base: a split INT not mapped to its base twin");
	CHECK(map && map[BIG_BASE] == BIG_BASE + 1, "big_base: dup -> %u, expected %u",
	      map ? map[BIG_BASE] : 0, BIG_BASE + 1);
	free(map);
	btf__free(split);
	btf__free(base);
}

/*
 * Two BTFs split on one base deduplicated in turn (a module's encode
 * runs two dedups) share the base's candidates; a base changed in
 * between, with no new type, must not be matched as it was.
 */
/* A base of int [1] and struct s { int x; } [2], 8 bytes. */
static struct btf *base_with_s(void)
{
	struct btf *base = btf__new_empty();

	ADD(btf__add_int(base, "int", 4, BTF_INT_SIGNED));	/* [1] */
	ADD(btf__add_struct(base, "s", 8));			/* [2] */
	ADD(btf__add_field(base, "x", 1, 0, 0));
	return base;
}

/* A split of @base with struct s { int x; } of @size, which must merge into [2]. */
static struct btf *dedup_split_s(struct btf *base, const char *what, uint32_t size)
{
	struct btf *split = btf__new_empty_split(base);

	ADD(btf__add_struct(split, "s", size));			/* [3] = [2] */
	ADD(btf__add_field(split, "x", 1, 0, 0));
	dedup_ok(what, split, NULL);
	CHECK(btf__type_cnt(split) == 3, "%s: %u types, s not merged into the base's",
	      what, btf__type_cnt(split));
	return split;
}

static void test_base_reused(void)
{
	struct btf *base = base_with_s(), *s1, *s2, *s3;

	s1 = dedup_split_s(base, "base_reused s1", 8);

	s2 = btf__new_empty_split(base);
	ADD(btf__add_int(s2, "int", 4, BTF_INT_SIGNED));	/* [3] = [1] */
	ADD(btf__add_struct(s2, "s", 8));			/* [4] = [2] */
	ADD(btf__add_field(s2, "x", 3, 0, 0));
	dedup_ok("base_reused s2", s2, NULL);
	CHECK(btf__type_cnt(s2) == 3, "base_reused s2: %u types", btf__type_cnt(s2));

	/* "s" grows a member: same number of types, other candidates. */
	ADD(btf__add_field(base, "y", 1, 32, 0));
	s3 = btf__new_empty_split(base);
	ADD(btf__add_struct(s3, "s", 8));			/* [3] = [2] */
	ADD(btf__add_field(s3, "x", 1, 0, 0));
	ADD(btf__add_field(s3, "y", 1, 32, 0));
	dedup_ok("base_reused s3", s3, NULL);
	CHECK(btf__type_cnt(s3) == 3, "base_reused s3: %u types, the changed base not seen",
	      btf__type_cnt(s3));
	btf__free(s3);
	btf__free(s2);
	btf__free(s1);
	btf__free(base);
}

/* A base record changed in place after a split dedup: the next one sees it. */
static void test_base_changed_in_place(void)
{
	struct btf *base = base_with_s(), *s1, *s2;
	struct btf_type *t;

	s1 = dedup_split_s(base, "base_changed s1", 8);
	/* Same number of types, same bytes: only the record differs. */
	t = btf__type_by_id_mut(base, 2);
	CHECK(t, "base_changed: no mutable [2]");
	if (t)
		t->size = 16;
	s2 = dedup_split_s(base, "base_changed s2 (16 bytes)", 16);
	btf__free(s2);
	btf__free(s1);
	btf__free(base);
}

/*
 * A dedup fed ahead keeps the base's candidates it started with while
 * the base drops them (here: a record fetched writable, unchanged) and
 * another split dedup rebuilds them (ASan: a use after free).
 */
static void test_base_dropped_while_fed(void)
{
	struct btf_dedup_opts opts = { .in_place = true };
	struct btf *base = btf__new_empty(), *s1, *s2;
	struct btf_dedup *d1;
	int err;

	ADD(btf__add_int(base, "int", 4, BTF_INT_SIGNED));	/* [1] */
	s1 = btf__new_empty_split(base);
	d1 = btf_dedup_new(s1, &opts);
	CHECK(d1, "dropped: no dedup for s1");
	ADD(btf__add_int(s1, "int", 4, BTF_INT_SIGNED));	/* [2] = [1] */
	ADD(btf__add_ptr(s1, 2));				/* [3] */
	if (d1)
		CHECK(!btf_dedup_feed(d1), "dropped: s1's first feed failed");

	CHECK(btf__type_by_id_mut(base, 1), "dropped: no mutable [1]");
	s2 = btf__new_empty_split(base);
	ADD(btf__add_int(s2, "int", 4, BTF_INT_SIGNED));	/* [2] = [1] */
	dedup_ok("dropped s2", s2, NULL);
	CHECK(btf__type_cnt(s2) == 2, "dropped s2: %u types", btf__type_cnt(s2));

	ADD(btf__add_int(s1, "int", 4, BTF_INT_SIGNED));	/* [4] = [1] */
	ADD(btf__add_ptr(s1, 4));				/* [5] = [3] */
	if (d1) {
		CHECK(!btf_dedup_feed(d1), "dropped: s1's second feed failed");
		err = btf_dedup_finish(d1, NULL);
		CHECK(!err, "dropped: s1's finish: %d", err);
		CHECK(btf__type_cnt(s1) == 3, "dropped s1: %u types", btf__type_cnt(s1));
	}
	btf__free(s2);
	btf__free(s1);
	btf__free(base);
}

/* One or two types of every kind, all twice: the dedupable kinds collapse. */
static void add_every_kind(struct btf *btf)
{
	int b = btf__type_cnt(btf) - 1;

	ADD(btf__add_int(btf, "int", 4, BTF_INT_SIGNED));		/* +1 INT */
	ADD(btf__add_ptr(btf, b + 1));					/* +2 PTR */
	ADD(btf__add_array(btf, b + 1, b + 1, 4));			/* +3 ARRAY */
	ADD(btf__add_struct(btf, "st", 16));				/* +4 STRUCT */
	ADD(btf__add_field(btf, "a", b + 3, 0, 0));
	ADD(btf__add_union(btf, "un", 4));				/* +5 UNION */
	ADD(btf__add_field(btf, "i", b + 1, 0, 0));
	ADD(btf__add_enum(btf, "en", 4));				/* +6 ENUM */
	ADD(btf__add_enum_value(btf, "E", 3));
	ADD(btf__add_fwd(btf, "fw", BTF_FWD_STRUCT));			/* +7 FWD */
	ADD(btf__add_typedef(btf, "td", b + 4));			/* +8 TYPEDEF */
	ADD(btf__add_volatile(btf, b + 1));				/* +9 VOLATILE */
	ADD(btf__add_const(btf, b + 9));				/* +10 CONST */
	ADD(btf__add_restrict(btf, b + 2));				/* +11 RESTRICT */
	ADD(btf__add_func_proto(btf, b + 1));				/* +12 FUNC_PROTO */
	ADD(btf__add_func_param(btf, "p", b + 2));
	ADD(btf__add_func(btf, "fn", BTF_FUNC_GLOBAL, b + 12));	/* +13 FUNC */
	ADD(btf__add_var(btf, "v", BTF_VAR_GLOBAL_ALLOCATED, b + 1)); /* +14 VAR */
	ADD(btf__add_datasec(btf, ".data", 4));				/* +15 DATASEC */
	ADD(btf__add_datasec_var_info(btf, b + 14, 0, 4));
	ADD(btf__add_float(btf, "float", 4));				/* +16 FLOAT */
	ADD(btf__add_decl_tag(btf, "tag", b + 4, 0));			/* +17 DECL_TAG */
	ADD(btf__add_type_tag(btf, "tt", b + 1));			/* +18 TYPE_TAG */
	ADD(btf__add_enum64(btf, "e64", 8, false));			/* +19 ENUM64 */
	ADD(btf__add_enum64_value(btf, "X", 1ULL << 40));
	ADD(btf__add_loc_param(btf, 4, false, 0, 3, 0, 8));		/* +20 LOC_PARAM */
	ADD(btf__add_loc_proto(btf));					/* +21 LOC_PROTO */
	ADD(btf__add_loc_proto_param(btf, b + 20));
	ADD(btf__add_locsec(btf, ".locs"));				/* +22 LOCSEC */
	ADD(btf__add_locsec_loc(btf, "l", b + 12, b + 21, 0));
}

static void test_every_kind(void)
{
	struct btf *btf = btf__new_empty();
	unsigned int counts[NR_BTF_KINDS] = {}, k;
	uint32_t id, *map = NULL;

	add_every_kind(btf);
	add_every_kind(btf);
	dedup_ok("every_kind", btf, &map);
	for (id = 1; id < btf__type_cnt(btf); id++)
		counts[btf_kind(btf__type_by_id(btf, id))]++;
	for (k = 1; k < NR_BTF_KINDS; k++) {
		bool kept = k == BTF_KIND_VAR || k == BTF_KIND_DATASEC || k == BTF_KIND_LOCSEC;

		CHECK(counts[k] == (kept ? 2u : 1u), "every_kind: %u %s types", counts[k],
		      btf_kind_str(k));
	}
	/* Second copy: everything but VAR/DATASEC/LOCSEC maps onto the first. */
	for (k = 1; map && k < NR_BTF_KINDS; k++) {
		bool kept = k == BTF_KIND_VAR || k == BTF_KIND_DATASEC || k == BTF_KIND_LOCSEC;

		CHECK(kept ? map[k + 21] > 22 : map[k + 21] == k, "every_kind: %s maps to %u",
		      btf_kind_str(k), map[k + 21]);
	}
	free(map);
	btf__free(btf);
}

static int raw_of(const struct btf *btf, void **data, size_t *size)
{
	return btf__write_raw(btf, false, data, size);
}

/* Same input, same bytes; and only referenced strings survive. */
static void test_deterministic(void)
{
	void *d1 = NULL, *d2 = NULL;
	size_t s1 = 0, s2 = 0;
	int i;

	for (i = 0; i < 2; i++) {
		struct btf *btf = btf__new_empty();

		ADD(btf__add_str(btf, "unused string"));
		add_every_kind(btf);
		add_list_cu(btf);
		add_every_kind(btf);
		dedup_ok("deterministic", btf, NULL);
		CHECK(btf__find_str(btf, "unused string") < 0, "deterministic: unused string kept");
		CHECK(!raw_of(btf, i ? &d2 : &d1, i ? &s2 : &s1), "write_raw");
		btf__free(btf);
	}
	CHECK(s1 == s2 && d1 && d2 && !memcmp(d1, d2, s1), "deterministic: outputs differ");
	free(d1);
	free(d2);
}

/*
 * A table already in the string phase's order (built type by type, as
 * the encoder's second dedup gets it) is kept as it is: the output must
 * equal the one of the same types with a string the phase drops, and a
 * name pointing into another string must still get a string of its own.
 */
static void test_strings_in_order(void)
{
	void *d[2] = {};
	size_t s[2] = {};
	struct btf *btf;
	long off;
	int i;

	for (i = 0; i < 2; i++) {
		btf = btf__new_empty();
		add_list_cu(btf);
		add_every_kind(btf);
		add_list_cu(btf);
		/* Unused, after every used one: only the phase drops it. */
		if (i)
			ADD(btf__add_str(btf, "unused string"));
		dedup_ok("strings_in_order", btf, NULL);
		CHECK(btf__find_str(btf, "unused string") < 0,
		      "strings_in_order: unused string kept");
		CHECK(!raw_of(btf, &d[i], &s[i]), "write_raw");
		btf__free(btf);
	}
	CHECK(s[0] == s[1] && d[0] && d[1] && !memcmp(d[0], d[1], s[0]),
	      "strings_in_order: the table kept differs from the one rebuilt");
	free(d[0]);
	free(d[1]);

	/*
	 * "node" as the tail of "walk_node", every string still in use: not
	 * a string of the table, so the phase must make it one.
	 */
	btf = btf__new_empty();
	ADD(btf__add_int(btf, "walk_node", 4, BTF_INT_SIGNED));
	ADD(btf__add_typedef(btf, "t", 1));
	ADD(btf__add_typedef(btf, "t", 1));
	off = btf__find_str(btf, "walk_node");
	CHECK(off > 0, "strings_in_order: no \"walk_node\"");
	btf__type_by_id_mut(btf, 3)->name_off = off + 5;
	dedup_ok("strings_in_order tail", btf, NULL);
	CHECK(btf__find_str(btf, "node") > 0, "strings_in_order: \"node\" not a string");
	CHECK(!strcmp(btf__str_by_offset(btf, btf__type_by_id(btf, 3)->name_off), "node"),
	      "strings_in_order: [3] lost its name");
	btf__free(btf);

	/* Names past the end of a one-string table: refused, nothing read past it. */
	btf = btf__new_empty();
	for (i = 1; i <= 200; i++) {
		ADD(btf__add_ptr(btf, 0));
		btf__type_by_id_mut(btf, i)->name_off = i;
	}
	CHECK(btf__dedup(btf, NULL) < 0, "strings_in_order: names past the table accepted");
	btf__free(btf);
}

/*
 * in_place (what the encoder asks for) works on the BTF's own records:
 * the same bytes and the same id map as a dedup on a copy, also split.
 */
static void test_in_place(void)
{
	void *d[2] = {}, *b[2] = {};
	uint32_t *map[2] = {};
	size_t s[2] = {}, bs[2] = {};
	struct btf *base, *split;
	uint32_t i, n = 0;

	for (i = 0; i < 2; i++) {
		struct btf_dedup_opts opts = { .id_map = &map[i], .in_place = i };
		struct btf *btf = btf__new_empty();

		add_every_kind(btf);
		add_list_cu(btf);
		add_every_kind(btf);
		add_list_cu(btf);
		n = btf__type_cnt(btf) - 1;
		CHECK(btf__dedup(btf, &opts) == 0, "in_place=%u: btf__dedup", i);
		CHECK(btf__type_cnt(btf) - 1 < n, "in_place=%u: nothing merged", i);
		CHECK(!raw_of(btf, &d[i], &s[i]), "write_raw");
		btf__free(btf);

		base = btf__new_empty();
		add_list_cu(base);
		split = btf__new_empty_split(base);
		add_list_cu(split);
		add_every_kind(split);
		opts.id_map = NULL;
		CHECK(btf__dedup(split, &opts) == 0, "in_place=%u: split btf__dedup", i);
		CHECK(!btf__write_raw(split, false, &b[i], &bs[i]), "write_raw split");
		btf__free(split);
		btf__free(base);
	}
	CHECK(s[0] == s[1] && d[0] && d[1] && !memcmp(d[0], d[1], s[0]),
	      "in_place: output differs from the copying dedup");
	CHECK(bs[0] == bs[1] && b[0] && b[1] && !memcmp(b[0], b[1], bs[0]),
	      "in_place: split output differs from the copying dedup");
	CHECK(map[0] && map[1] && !memcmp(map[0], map[1], n * sizeof(*map[0])),
	      "in_place: id maps differ");
	for (i = 0; i < 2; i++) {
		free(d[i]);
		free(b[i]);
		free(map[i]);
	}
}

/* A failing dedup leaves the BTF exactly as it was. */
static void check_untouched(const char *what, struct btf *btf, int exp_err)
{
	void *before = NULL, *after = NULL;
	size_t sb = 0, sa = 0;
	uint32_t *map = NULL;
	struct btf_dedup_opts opts = { .id_map = &map };
	int err;

	CHECK(!raw_of(btf, &before, &sb), "%s: write_raw", what);
	err = btf__dedup(btf, &opts);
	CHECK(err == exp_err, "%s: btf__dedup returned %d, expected %d", what, err, exp_err);
	CHECK(!map, "%s: id map set on failure", what);
	CHECK(!raw_of(btf, &after, &sa), "%s: write_raw", what);
	CHECK(sa == sb && !memcmp(before, after, sa), "%s: BTF modified by failed dedup", what);
	free(before);
	free(after);
}

static void test_failure(void)
{
	struct btf *btf = btf__new_empty();

	add_list_cu(btf);
	add_list_cu(btf);
	ADD(btf__add_ptr(btf, 13));		/* [11] */
	ADD(btf__add_const(btf, 11));		/* [12] */
	ADD(btf__add_ptr(btf, 12));		/* [13]: a cycle without a struct */
	check_untouched("ref_loop", btf, -ELOOP);
	btf__free(btf);

	btf = btf__new_empty();
	add_list_cu(btf);
	add_list_cu(btf);
	ADD(btf__add_ptr(btf, 99));		/* id out of range */
	check_untouched("bad_id", btf, -EINVAL);
	btf__free(btf);
}

/*
 * CU 1: a forward enum e and struct s { e a; e b; }.  CU 2: two other
 * definitions of e, X and Y, and struct s { X a; Y b; }.  CU 3: a third
 * definition, Z.  Over all types at once, the forward e resolves to Z (the
 * last definition) before any struct is compared, so CU 2's s is no copy
 * of CU 1's (a pairs it with X, b with Y).  Fed CU by CU, the forward e
 * resolves to Y while CU 2's s is compared, which makes b equal: unless
 * the dedup goes back when Z comes, the two s merge.
 */
static void add_enum_cu(struct btf *btf, int cu)
{
	int first = btf__type_cnt(btf);

	ADD(btf__add_enum(btf, "e", 4));
	if (cu == 1) {
		ADD(btf__add_struct(btf, "s", 8));
		ADD(btf__add_field(btf, "a", first, 0, 0));
		ADD(btf__add_field(btf, "b", first, 32, 0));
		return;
	}
	ADD(btf__add_enum_value(btf, cu == 2 ? "X" : "Z", 0));
	if (cu == 3)
		return;
	ADD(btf__add_enum(btf, "e", 4));
	ADD(btf__add_enum_value(btf, "Y", 0));
	ADD(btf__add_struct(btf, "s", 8));
	ADD(btf__add_field(btf, "a", first, 0, 0));
	ADD(btf__add_field(btf, "b", first + 1, 32, 0));
}

static unsigned int count_named(const struct btf *btf, unsigned int kind, const char *name)
{
	unsigned int n = 0;
	uint32_t id;

	for (id = 1; id < btf__type_cnt(btf); id++) {
		const struct btf_type *t = btf__type_by_id(btf, id);

		n += btf_kind(t) == kind && !strcmp(btf__str_by_offset(btf, t->name_off), name);
	}
	return n;
}

/* The dedup fed ahead, CU by CU, gives btf__dedup()'s bytes and id map. */
static void test_ahead(void)
{
	struct btf_dedup_opts opts = { .in_place = true };
	struct btf *whole = btf__new_empty(), *fed = btf__new_empty();
	uint32_t *map_whole = NULL, *map_fed = NULL;
	void *raw_whole = NULL, *raw_fed = NULL;
	size_t sz_whole = 0, sz_fed = 0;
	struct btf_dedup *dd = btf_dedup_new(fed, &opts);
	int cu, err;

	CHECK(dd, "ahead: btf_dedup_new failed");
	for (cu = 1; cu <= 3; cu++) {
		add_enum_cu(whole, cu);
		add_enum_cu(fed, cu);
		add_list_cu(whole);
		add_list_cu(fed);
		if (dd)
			CHECK(!btf_dedup_feed(dd), "ahead: feed of CU %d failed", cu);
	}
	err = dd ? btf_dedup_finish(dd, &map_fed) : -1;
	CHECK(!err, "ahead: btf_dedup_finish: %d", err);
	opts.id_map = &map_whole;
	err = btf__dedup(whole, &opts);
	CHECK(!err, "ahead: btf__dedup: %d", err);

	CHECK(count_named(whole, BTF_KIND_STRUCT, "s") == 2, "ahead: CU 2's s merged");
	CHECK(count_named(whole, BTF_KIND_STRUCT, "node") == 1, "ahead: node not merged");
	CHECK(!raw_of(whole, &raw_whole, &sz_whole) && !raw_of(fed, &raw_fed, &sz_fed),
	      "ahead: no raw BTF");
	CHECK(sz_whole == sz_fed && raw_whole && raw_fed && !memcmp(raw_whole, raw_fed, sz_fed),
	      "ahead: fed CU by CU, the dedup gives other bytes (%u types, against %u)",
	      btf__type_cnt(fed) - 1, btf__type_cnt(whole) - 1);
	CHECK(map_whole && map_fed && !memcmp(map_whole, map_fed, 21 * sizeof(*map_fed)),
	      "ahead: fed CU by CU, the dedup gives another id map");
	free(raw_whole);
	free(raw_fed);
	free(map_whole);
	free(map_fed);
	btf__free(whole);
	btf__free(fed);
}

int main(void)
{
	test_split_loc();
	test_dup_structs();
	test_fwd_resolution();
	test_same_name_differs();
	test_enum_fwd();
	test_func_protos();
	test_loc_kinds();
	test_locsec_kept();
	test_split_base();
	test_big_base();
	test_base_reused();
	test_base_changed_in_place();
	test_base_dropped_while_fed();
	test_every_kind();
	test_deterministic();
	test_strings_in_order();
	test_in_place();
	test_failure();
	test_ahead();
	return check_result();
}
