// SPDX-License-Identifier: GPL-2.0
/*
 * test_permute.c - btf__permute() and btf__sort_by_name() (btf/permute.c):
 * a base BTF permuted by an explicit map and then sorted by name, a split
 * BTF sorted without touching its base's ids, a merged-layout BTF whose
 * LOCSEC entries follow their FUNC and LOC_PROTO, and maps that are not
 * permutations refused with the BTF unchanged.  Checked as the selftests'
 * raw dump lines.
 */
#include "btf.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures;

static void expect_dump(const struct btf *btf, const char *const *want, uint32_t n,
			const char *what)
{
	uint32_t i, start = btf__start_id(btf);

	if (btf__type_cnt(btf) != start + n) {
		printf("FAIL %s: %u types, want %u\n", what, btf__type_cnt(btf) - start, n);
		failures++;
		return;
	}
	for (i = 0; i < n; i++) {
		char *got = btf__dump_type_str(btf, start + i, BTF_DUMP_SELFTEST);

		if (!got || strcmp(got, want[i])) {
			printf("FAIL %s: type %u is\n  %s\nwant\n  %s\n", what, start + i,
			       got ? got : "(null)", want[i]);
			failures++;
		}
		free(got);
	}
}

static void expect(bool ok, const char *what)
{
	if (!ok) {
		printf("FAIL %s\n", what);
		failures++;
	}
}

/* [1] int, [2] int *, [3] s1, [4] s2, [5] int (int *p), [6] f */
static struct btf *base_btf(void)
{
	struct btf *btf = btf__new_empty();

	btf__add_int(btf, "int", 4, BTF_INT_SIGNED);
	btf__add_ptr(btf, 1);
	btf__add_struct(btf, "s1", 4);
	btf__add_field(btf, "m", 1, 0, 0);
	btf__add_struct(btf, "s2", 4);
	btf__add_field(btf, "m", 1, 0, 0);
	btf__add_func_proto(btf, 1);
	btf__add_func_param(btf, "p", 2);
	btf__add_func(btf, "f", BTF_FUNC_STATIC, 5);
	return btf;
}

static void test_base(void)
{
	static const char *const permuted[] = {
		"[1] STRUCT 's2' size=4 vlen=1\n\t'm' type_id=4 bits_offset=0",
		"[2] FUNC 'f' type_id=6 linkage=static",
		"[3] PTR '(anon)' type_id=4",
		"[4] INT 'int' size=4 bits_offset=0 nr_bits=32 encoding=SIGNED",
		"[5] STRUCT 's1' size=4 vlen=1\n\t'm' type_id=4 bits_offset=0",
		"[6] FUNC_PROTO '(anon)' ret_type_id=4 vlen=1\n\t'p' type_id=3",
	};
	static const char *const sorted[] = {
		"[1] FUNC 'f' type_id=6 linkage=static",
		"[2] INT 'int' size=4 bits_offset=0 nr_bits=32 encoding=SIGNED",
		"[3] STRUCT 's1' size=4 vlen=1\n\t'm' type_id=2 bits_offset=0",
		"[4] STRUCT 's2' size=4 vlen=1\n\t'm' type_id=2 bits_offset=0",
		"[5] PTR '(anon)' type_id=2",
		"[6] FUNC_PROTO '(anon)' ret_type_id=2 vlen=1\n\t'p' type_id=5",
	};
	const uint32_t map[] = { 4, 3, 5, 1, 6, 2 };
	const uint32_t dup[] = { 4, 3, 5, 1, 6, 4 }, out_of_range[] = { 4, 3, 5, 1, 6, 7 };
	struct btf *btf = base_btf();
	uint32_t *sort_map = NULL;

	expect(btf__permute(btf, map) == 0, "base: btf__permute");
	expect_dump(btf, permuted, 6, "base permuted");
	expect(btf__permute(btf, dup) == -EINVAL, "base: a map with a duplicate is refused");
	expect(btf__permute(btf, out_of_range) == -EINVAL, "base: an id past the end is refused");
	expect_dump(btf, permuted, 6, "base unchanged by refused maps");
	expect(btf__sort_by_name(btf, &sort_map) == 0, "base: btf__sort_by_name");
	expect_dump(btf, sorted, 6, "base sorted by name");
	expect(sort_map && sort_map[0] == 4 && sort_map[1] == 1 && sort_map[2] == 5 &&
		       sort_map[3] == 2 && sort_map[4] == 3 && sort_map[5] == 6,
	       "base: the sort's id map says where each type went");
	free(sort_map);
	btf__free(btf);
}

/* Split on [1] int: [2] int *, [3] zed, [4] int (zed a), [5] alpha. */
static void test_split(void)
{
	static const char *const sorted[] = {
		"[2] FUNC 'alpha' type_id=5 linkage=static",
		"[3] STRUCT 'zed' size=8 vlen=1\n\t'm' type_id=4 bits_offset=0",
		"[4] PTR '(anon)' type_id=1",
		"[5] FUNC_PROTO '(anon)' ret_type_id=1 vlen=1\n\t'a' type_id=3",
	};
	struct btf *base = btf__new_empty(), *split;
	uint32_t *map = NULL;

	btf__add_int(base, "int", 4, BTF_INT_SIGNED);
	split = btf__new_empty_split(base);
	btf__add_ptr(split, 1);
	btf__add_struct(split, "zed", 8);
	btf__add_field(split, "m", 2, 0, 0);
	btf__add_func_proto(split, 1);
	btf__add_func_param(split, "a", 3);
	btf__add_func(split, "alpha", BTF_FUNC_STATIC, 4);
	expect(btf__sort_by_name(split, &map) == 0, "split: btf__sort_by_name");
	expect_dump(split, sorted, 4, "split sorted by name, base ids kept");
	expect(btf__type_cnt(base) == 2, "split: the base is not touched");
	free(map);
	btf__free(split);
	btf__free(base);
}

/* Merged layout: a LOCSEC entry's FUNC and LOC_PROTO ids follow them. */
static void test_merged(void)
{
	struct btf *btf = btf__new_empty_layout(BTF_LAYOUT_MERGED);
	const uint32_t reg5 = 5;
	uint32_t *map = NULL;
	char *locsec, *proto;

	btf__add_int(btf, "int", 4, BTF_INT_SIGNED);
	btf__add_func_proto(btf, 1);
	btf__add_func_param(btf, "x", 1);
	btf__add_func(btf, "foo", BTF_FUNC_STATIC, 2);
	btf__add_loc_param_merged(btf, 4, BTF_LOC_PARAM_REG, &reg5, 1);
	btf__add_loc_proto(btf);
	btf__add_loc_proto_param(btf, 4);
	btf__add_locsec(btf, "inline.text");
	btf__add_locsec_loc_merged(btf, 3, 5, 64);
	expect(btf__sort_by_name(btf, &map) == 0, "merged: btf__sort_by_name");
	/* foo, inline.text, int, then FUNC_PROTO, LOC_PARAM, LOC_PROTO. */
	locsec = btf__dump_type_str(btf, 2, BTF_DUMP_SELFTEST);
	proto = btf__dump_type_str(btf, 6, BTF_DUMP_SELFTEST);
	expect(locsec && strstr(locsec, "LOCSEC 'inline.text'") &&
		       strstr(locsec, "func_type_id=1 loc_proto_type_id=6 offset=64"),
	       "merged: the LOCSEC entry points at FUNC 1 and LOC_PROTO 6");
	expect(proto && strstr(proto, "LOC_PROTO") && strstr(proto, "type_id=5"),
	       "merged: the LOC_PROTO points at LOC_PARAM 5");
	expect(btf__validate(btf, NULL) == 0, "merged: the sorted BTF validates");
	if (failures)
		printf("%s\n%s\n", locsec ? locsec : "", proto ? proto : "");
	free(locsec);
	free(proto);
	free(map);
	btf__free(btf);
}

int main(void)
{
	test_base();
	test_split();
	test_merged();
	printf("%s\n", failures ? "FAIL" : "ok: permute and sort by name");
	return failures ? 1 : 0;
}
