// SPDX-License-Identifier: GPL-2.0
/*
 * test_distill.c - btf__distill_base() and btf__relocate().
 *
 *   test_distill                      seed 007's distilled_loc selftest,
 *                                     character for character, and unit
 *                                     cases (kinds in the distilled base,
 *                                     round trip, relocation failures);
 *   test_distill module BASE FULL MOD BASE: ELF/raw with the full .BTF;
 *                                     FULL: the module's BTF split on BASE
 *                                     (raw); MOD: the module ELF with the
 *                                     distilled .BTF and .BTF.base, from
 *                                     the same encoder.  Relocating the
 *                                     distilled .BTF onto BASE (then dedup
 *                                     against BASE, which drops the copies
 *                                     of base types) must give exactly the
 *                                     undistilled types: same count, and
 *                                     every type dumps the same.
 */
#include "btf.h"
#include "check.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

static void log_fn(void *ctx, const char *msg)
{
	(void)ctx;
	fprintf(stderr, "  log: %s\n", msg);
}

static const struct btf_log test_log = { log_fn, NULL };

/* Seed 007: prog_tests/btf_distill.c test_distilled_loc(). */
static void test_distilled_loc(void)
{
	struct btf *btf1, *btf2 = NULL, *btf3 = NULL, *btf4 = NULL;

	btf1 = btf__new_empty();
	CHECK(btf1, "btf__new_empty");
	if (!btf1)
		return;
	btf__add_int(btf1, "int", 4, BTF_INT_SIGNED);
	btf__add_func_proto(btf1, 1);
	btf__add_func_param(btf1, "p1", 1);
	btf__add_loc_param(btf1, -4, true, -1, 0, 0, 0);
	btf2 = btf__new_empty_split(btf1);
	if (!btf2)
		goto out;
	btf__add_loc_proto(btf2);
	btf__add_loc_proto_param(btf2, 3);
	btf__add_locsec(btf2, ".locs");
	btf__add_locsec_loc(btf2, "foo", 2, 4, 256);

	CHECK(!btf__distill_base(btf2, &btf3, &btf4), "btf__distill_base");
	if (!btf3 || !btf4)
		goto out;
	CHECK(btf__type_cnt(btf3) == 2, "distilled base: %u types", btf__type_cnt(btf3) - 1);
	VALIDATE_RAW_BTF(
		"seed 007 distilled split", btf4,
		"[1] INT 'int' size=4 bits_offset=0 nr_bits=32 encoding=SIGNED",
		"[2] LOC_PROTO '(anon)' vlen=1\n"
		"\ttype_id=5",
		"[3] LOCSEC '.locs' vlen=1\n"
		"\t'foo' func_proto_type_id=4 loc_proto_type_id=2 offset=256",
		"[4] FUNC_PROTO '(anon)' ret_type_id=1 vlen=1\n"
		"\t'p1' type_id=1",
		"[5] LOC_PARAM '(anon)' size=-4 value=-1");
	CHECK(!btf__validate(btf4, &test_log), "seed 007: distilled split validates");

	/* Back onto the full base: the copies follow the split's own types. */
	CHECK(!btf__relocate_log(btf4, btf1, &test_log), "relocate seed 007");
	CHECK(btf__base_btf(btf4) == btf1, "relocated split sits on the full base");
	VALIDATE_RAW_BTF(
		"seed 007 relocated", btf4,
		"[1] INT 'int' size=4 bits_offset=0 nr_bits=32 encoding=SIGNED",
		"[2] FUNC_PROTO '(anon)' ret_type_id=1 vlen=1\n"
		"\t'p1' type_id=1",
		"[3] LOC_PARAM '(anon)' size=-4 value=-1",
		"[4] LOC_PROTO '(anon)' vlen=1\n"
		"\ttype_id=7",
		"[5] LOCSEC '.locs' vlen=1\n"
		"\t'foo' func_proto_type_id=6 loc_proto_type_id=4 offset=256",
		"[6] FUNC_PROTO '(anon)' ret_type_id=1 vlen=1\n"
		"\t'p1' type_id=1",
		"[7] LOC_PARAM '(anon)' size=-4 value=-1");
	/* Dedup folds the copies into the base: the original split again. */
	CHECK(!btf__dedup(btf4, NULL), "dedup relocated");
	VALIDATE_RAW_BTF(
		"seed 007 relocated, deduplicated", btf4,
		"[1] INT 'int' size=4 bits_offset=0 nr_bits=32 encoding=SIGNED",
		"[2] FUNC_PROTO '(anon)' ret_type_id=1 vlen=1\n"
		"\t'p1' type_id=1",
		"[3] LOC_PARAM '(anon)' size=-4 value=-1",
		"[4] LOC_PROTO '(anon)' vlen=1\n"
		"\ttype_id=3",
		"[5] LOCSEC '.locs' vlen=1\n"
		"\t'foo' func_proto_type_id=2 loc_proto_type_id=4 offset=256");
out:
	btf__free(btf4);
	btf__free(btf3);
	btf__free(btf2);
	btf__free(btf1);
}

/*
 * A base with every kind a module may reference: named aggregates (one
 * embedded by value in a split struct), an anonymous struct, enums,
 * typedef, modifiers, pointer, array, prototype, float, forward.
 */
static struct btf *make_base(uint32_t s1_size)
{
	struct btf *b = btf__new_empty();

	if (!b)
		return NULL;
	btf__add_int(b, "int", 4, BTF_INT_SIGNED);         /* [1] */
	btf__add_struct(b, "s1", s1_size);                  /* [2] */
	btf__add_field(b, "a", 1, 0, 0);
	btf__add_union(b, "u1", 4);                         /* [3] */
	btf__add_field(b, "x", 1, 0, 0);
	btf__add_enum(b, "e1", 4);                          /* [4] */
	btf__add_enum_value(b, "E1", 1);
	btf__add_enum64(b, "e64", 8, false);                /* [5] */
	btf__add_enum64_value(b, "E64", 1ull << 40);
	btf__add_struct(b, NULL, 4);                        /* [6] anon */
	btf__add_field(b, "anon_m", 1, 0, 0);
	btf__add_typedef(b, "td", 6);                       /* [7] */
	btf__add_ptr(b, 2);                                 /* [8] s1 * */
	btf__add_const(b, 3);                               /* [9] const u1 */
	btf__add_array(b, 1, 1, 4);                         /* [10] int[4] */
	btf__add_func_proto(b, 1);                          /* [11] int (s1 *) */
	btf__add_func_param(b, "p", 8);
	btf__add_float(b, "double", 8);                     /* [12] */
	btf__add_fwd(b, "opaque", BTF_FWD_STRUCT);          /* [13] */
	btf__add_struct(b, "unused", 4);                    /* [14] */
	btf__add_field(b, "u", 1, 0, 0);
	return b;
}

static void add_split_types(struct btf *s)
{
	int mod = btf__add_struct(s, "mod", 64);            /* [15] */

	btf__add_field(s, "emb", 2, 0, 0);                  /* s1 by value */
	btf__add_field(s, "pu", 9, 64, 0);
	btf__add_field(s, "e", 4, 96, 0);
	btf__add_field(s, "e64", 5, 128, 0);
	btf__add_field(s, "t", 7, 192, 0);
	btf__add_field(s, "arr", 10, 224, 0);
	btf__add_field(s, "d", 12, 384, 0);
	btf__add_ptr(s, 13);                                /* [16] opaque * */
	btf__add_func_proto(s, 16);                         /* [17] */
	btf__add_func_param(s, "s", 8);
	btf__add_func(s, "mod_fn", BTF_FUNC_GLOBAL, 17);    /* [18] */
	btf__add_func(s, "mod_cb", BTF_FUNC_STATIC, 11);    /* [19] base proto */
	btf__add_ptr(s, mod);                               /* [20] */
}

static bool dist_base_shape_ok(const struct btf *base)
{
	uint32_t id;

	for (id = 1; id < btf__type_cnt(base); id++) {
		const struct btf_type *t = btf__type_by_id(base, id);

		if (!t->name_off)
			return false;
		switch (btf_kind(t)) {
		case BTF_KIND_STRUCT:
		case BTF_KIND_UNION:
		case BTF_KIND_ENUM:
			if (btf_vlen(t))
				return false;
			break;
		case BTF_KIND_INT:
		case BTF_KIND_FLOAT:
		case BTF_KIND_FWD:
			break;
		default:
			return false;
		}
	}
	return true;
}

/* Each type @a owns dumps as the type of the same id in @b. */
static void same_types(const char *what, const struct btf *a, const struct btf *b)
{
	uint32_t id;

	CHECK(btf__type_cnt(a) == btf__type_cnt(b), "%s: %u vs %u types", what, btf__type_cnt(a),
	      btf__type_cnt(b));
	if (btf__type_cnt(a) != btf__type_cnt(b))
		return;
	for (id = btf__start_id(a); id < btf__type_cnt(a); id++) {
		char *x = btf__dump_type_str(a, id, BTF_DUMP_BPFTOOL);
		char *y = btf__dump_type_str(b, id, BTF_DUMP_BPFTOOL);

		CHECK(x && y && !strcmp(x, y), "%s: [%u]\n  got:      %s\n  expected: %s", what, id,
		      x ? x : "(null)", y ? y : "(null)");
		free(x);
		free(y);
	}
}

static void test_round_trip(void)
{
	struct btf *base = make_base(4), *split, *dbase = NULL, *dsplit = NULL;
	uint32_t id;

	split = base ? btf__new_empty_split(base) : NULL;
	CHECK(split, "split");
	if (!split)
		goto out;
	add_split_types(split);
	CHECK(!btf__distill_base(split, &dbase, &dsplit), "distill");
	if (!dbase)
		goto out;
	CHECK(dist_base_shape_ok(dbase), "distilled base holds only named, memberless leaves");
	/* int s1 u1 e1 e64 double opaque; not the unused struct, nor the anonymous one. */
	CHECK(btf__type_cnt(dbase) == 8, "distilled base: %u types, expected 7",
	      btf__type_cnt(dbase) - 1);
	for (id = 1; id < btf__type_cnt(dbase); id++)
		CHECK(strcmp(btf__name_by_id(dbase, id), "unused"), "unreferenced type distilled");
	CHECK(!btf__validate(dbase, &test_log) && !btf__validate(dsplit, &test_log),
	      "distilled base and split validate");
	CHECK(!btf__relocate_log(dsplit, base, &test_log), "relocate");
	CHECK(!btf__dedup(dsplit, NULL), "dedup relocated");
	same_types("round trip", dsplit, split);
out:
	btf__free(dsplit);
	btf__free(dbase);
	btf__free(split);
	btf__free(base);
}

/* A relocation that cannot be right fails and leaves the split unchanged. */
static void test_relocate_failures(void)
{
	struct btf *base = make_base(4), *bigger = make_base(8), *other = btf__new_empty();
	struct btf *split = NULL, *dbase = NULL, *dsplit = NULL;
	uint32_t cnt;

	split = base ? btf__new_empty_split(base) : NULL;
	if (!split || !bigger || !other)
		goto out;
	add_split_types(split);
	if (btf__distill_base(split, &dbase, &dsplit))
		goto out;
	cnt = btf__type_cnt(dsplit);
	/* s1 is embedded by value in "mod": a base with another size cannot be used. */
	CHECK(btf__relocate(dsplit, bigger) < 0, "relocation onto a base with s1 resized");
	btf__add_int(other, "int", 4, BTF_INT_SIGNED);
	CHECK(btf__relocate(dsplit, other) < 0, "relocation onto a base without s1");
	CHECK(btf__base_btf(dsplit) == dbase && btf__type_cnt(dsplit) == cnt,
	      "failed relocations leave the split as it was");
	CHECK(btf__relocate(split, base) < 0, "relocation onto its own base is refused");
out:
	btf__free(dsplit);
	btf__free(dbase);
	btf__free(split);
	btf__free(other);
	btf__free(bigger);
	btf__free(base);
}

/* A split type may not reference a base FUNC, VAR or DATASEC. */
static void test_distill_refuses(void)
{
	struct btf *base = make_base(4), *split, *dbase = NULL, *dsplit = NULL;
	int fn;

	split = base ? btf__new_empty_split(base) : NULL;
	if (!split)
		goto out;
	fn = btf__add_func(base, "base_fn", BTF_FUNC_GLOBAL, 11);
	btf__free(split);
	split = btf__new_empty_split(base);
	if (!split)
		goto out;
	btf__add_decl_tag(split, "tag", fn, -1);
	CHECK(btf__distill_base(split, &dbase, &dsplit) == -EINVAL,
	      "a split DECL_TAG on a base FUNC is refused");
	CHECK(!dbase && !dsplit, "nothing returned on failure");
out:
	btf__free(split);
	btf__free(base);
}

static int module_check(const char *base_path, const char *full_path, const char *mod_path)
{
	struct btf *base, *full = NULL, *dbase = NULL, *dsplit = NULL;

	base = btf__parse_file(base_path, NULL, NULL, &test_log);
	CHECK(base, "%s: .BTF", base_path);
	if (!base)
		return 1;
	full = btf__parse_file(full_path, NULL, base, &test_log);
	dbase = btf__parse_file(mod_path, ".BTF.base", NULL, &test_log);
	dsplit = dbase ? btf__parse_file(mod_path, ".BTF", dbase, &test_log) : NULL;
	CHECK(full && dbase && dsplit, "%s, %s: .BTF.base and .BTF", full_path, mod_path);
	if (!full || !dsplit)
		goto out;
	CHECK(dist_base_shape_ok(dbase), "module: distilled base holds only named leaves");
	CHECK(btf__type_cnt(dbase) < btf__type_cnt(base), "module: distilled base is smaller");
	CHECK(!btf__validate(dsplit, &test_log), "module: distilled split validates");
	CHECK(!btf__relocate_log(dsplit, base, &test_log), "module: relocate onto the base");
	CHECK(!btf__validate(dsplit, &test_log), "module: relocated split validates");
	CHECK(!btf__dedup(dsplit, NULL), "module: dedup relocated");
	same_types("module", dsplit, full);
	printf("module: %u types in the distilled base (full base %u), %u split types\n",
	       btf__type_cnt(dbase) - 1, btf__type_cnt(base) - 1,
	       btf__type_cnt(full) - btf__start_id(full));
out:
	btf__free(dsplit);
	btf__free(dbase);
	btf__free(full);
	btf__free(base);
	return failures ? 1 : 0;
}

int main(int argc, char **argv)
{
	if (argc == 5 && !strcmp(argv[1], "module"))
		return module_check(argv[2], argv[3], argv[4]);
	test_distilled_loc();
	test_round_trip();
	test_relocate_failures();
	test_distill_refuses();
	return check_result();
}
