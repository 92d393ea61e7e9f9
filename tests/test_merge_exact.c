// SPDX-License-Identifier: GPL-2.0
/*
 * test_merge_exact.c - merges that leave out exact copies
 * (btf_merge_exact_start(), btf/exact.c).  The same CUs are merged twice,
 * once keeping every type and once leaving copies out; then:
 *
 *  - a CU that repeats an earlier one adds no type, cycles (a list node
 *    and the pointer to it) included, and btf_merge_ids() sends each of
 *    its types to the earlier copy;
 *  - a copy is never replaced by a type of its own CU, nor are two types
 *    of one CU replaced by the same earlier type;
 *  - VARs and DATASECs (which the dedup never merges) are kept, and so is
 *    every type btf__add_btf() adds;
 *  - both merges deduplicate to the same bytes, and every type of every
 *    CU ends as the same deduplicated type either way.  The last point is
 *    also checked on a few hundred random CUs built from overlapping
 *    pieces (structs that point at each other, forward declarations,
 *    typedefs, arrays, function prototypes).
 */
#include "btf_internal.h"
#include "check.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The types of a CU: int, struct node { int v; struct node *next; }, ... */
static struct btf *list_cu(bool extra_field)
{
	struct btf *cu = btf__new_empty();
	int proto;

	if (!cu)
		return NULL;
	btf__add_int(cu, "int", 4, BTF_INT_SIGNED);	    /* 1 */
	btf__add_ptr(cu, 3);				    /* 2 */
	btf__add_struct(cu, "node", extra_field ? 24 : 16); /* 3 */
	btf__add_field(cu, "v", 1, 0, 0);
	btf__add_field(cu, "next", 2, 64, 0);
	if (extra_field)
		btf__add_field(cu, "w", 1, 128, 0);
	btf__add_typedef(cu, "node_t", 3);  /* 4 */
	btf__add_const(cu, 1);		    /* 5 */
	proto = btf__add_func_proto(cu, 1); /* 6 */
	btf__add_func_param(cu, "p", 5);
	return proto == 6 ? cu : (btf__free(cu), NULL);
}

/* Merges @cu into @plain and @exact; the ids of its types in @exact in @ids. */
static int merge_both(struct btf *plain, struct btf *exact, struct btf *cu, uint32_t *ids,
		      uint32_t *plain_first)
{
	uint32_t n = btf__type_cnt(cu) - 1, i;
	const uint32_t *map;
	int first = btf_merge_btf(plain, cu);

	if (first < 0 || btf_merge_btf(exact, cu) < 0)
		return -1;
	map = btf_merge_ids(exact);
	if (!map)
		return -1;
	for (i = 0; i < n; i++)
		ids[i] = map[i];
	*plain_first = first;
	return 0;
}

/* Dedups both; each CU type's deduplicated id must agree.  Bytes too. */
static void check_same_dedup(const char *what, struct btf *plain, struct btf *exact,
			     const uint32_t *plain_ids, const uint32_t *exact_ids, size_t nr)
{
	struct btf_dedup_opts po = { 0 }, eo = { 0 };
	uint32_t *pmap = NULL, *emap = NULL;
	void *pd = NULL, *ed = NULL;
	size_t pl, el, i, bad = 0;

	po.id_map = &pmap;
	eo.id_map = &emap;
	CHECK(!btf__dedup(plain, &po), "%s: dedup (all types)", what);
	CHECK(!btf__dedup(exact, &eo), "%s: dedup (copies left out)", what);
	if (!pmap || !emap)
		goto out;
	/* The maps are indexed by id - 1 (no base). */
	for (i = 0; i < nr; i++)
		bad += pmap[plain_ids[i] - 1] != emap[exact_ids[i] - 1];
	CHECK(!bad, "%s: %zu of %zu types deduplicated to another type", what, bad, nr);
	CHECK(!btf__write_raw(plain, false, &pd, &pl) && !btf__write_raw(exact, false, &ed, &el),
	      "%s: write", what);
	CHECK(pd && ed && pl == el && !memcmp(pd, ed, pl),
	      "%s: deduplicated BTF differs (%zu and %zu bytes)", what, pl, el);
out:
	free(pmap);
	free(emap);
	free(pd);
	free(ed);
}

static void test_lists(void)
{
	struct btf *plain = btf__new_empty(), *exact = btf__new_empty(), *cu;
	uint32_t ids[4][16], plain_ids[64], exact_ids[64], first, i, nr = 0;
	size_t c;

	CHECK(plain && exact && !btf_merge_exact_start(exact), "lists: setup");
	if (!plain || !exact || !btf_merge_ids(exact))
		goto out;
	for (c = 0; c < 4; c++) {
		uint32_t before = btf__type_cnt(exact);

		/* CU 2 adds a field: a struct of another shape, the cycle too. */
		cu = list_cu(c == 2);
		CHECK(cu && !merge_both(plain, exact, cu, ids[c], &first), "lists: merge %zu", c);
		for (i = 0; cu && i < 6; i++) {
			plain_ids[nr] = first + i;
			exact_ids[nr++] = ids[c][i];
		}
		btf__free(cu);
		if (c == 1 || c == 3)
			CHECK(btf__type_cnt(exact) == before,
			      "lists: CU %zu: %u types added to the copies of an earlier CU", c,
			      btf__type_cnt(exact) - before);
	}
	for (i = 0; i < 6; i++) {
		CHECK(ids[1][i] == ids[0][i], "lists: CU 1 type %u went to %u, not %u", i + 1,
		      ids[1][i], ids[0][i]);
		CHECK(ids[3][i] == ids[0][i], "lists: CU 3 type %u went to %u, not %u", i + 1,
		      ids[3][i], ids[0][i]);
	}
	/* CU 2: the same int and const int, a node, its pointer and typedef of its own. */
	CHECK(ids[2][0] == ids[0][0] && ids[2][4] == ids[0][4], "lists: CU 2 kept no int");
	CHECK(ids[2][1] != ids[0][1] && ids[2][2] != ids[0][2] && ids[2][3] != ids[0][3],
	      "lists: CU 2's node replaced by another shape");
	CHECK(btf__type_cnt(plain) == 25 && btf__type_cnt(exact) == 10, "lists: %u and %u types",
	      btf__type_cnt(plain) - 1, btf__type_cnt(exact) - 1);
	check_same_dedup("lists", plain, exact, plain_ids, exact_ids, nr);
out:
	btf__free(plain);
	btf__free(exact);
}

/* Copies inside one CU: never replaced by each other, nor both by one type. */
static void test_twins(void)
{
	struct btf *plain = btf__new_empty(), *exact = btf__new_empty(), *cu;
	uint32_t ids[2][8], plain_ids[16], exact_ids[16], first, i, nr = 0;
	int c;

	CHECK(plain && exact && !btf_merge_exact_start(exact), "twins: setup");
	if (!plain || !exact)
		goto out;
	for (c = 0; c < 2; c++) {
		cu = btf__new_empty();
		if (!cu)
			break;
		btf__add_int(cu, "long", 8, BTF_INT_SIGNED); /* 1 */
		btf__add_int(cu, "long", 8, BTF_INT_SIGNED); /* 2: its twin */
		btf__add_ptr(cu, 1);			     /* 3 */
		btf__add_ptr(cu, 2);			     /* 4 */
		CHECK(!merge_both(plain, exact, cu, ids[c], &first), "twins: merge %d", c);
		for (i = 0; i < 4; i++) {
			plain_ids[nr] = first + i;
			exact_ids[nr++] = ids[c][i];
		}
		btf__free(cu);
	}
	CHECK(ids[0][0] != ids[0][1] && ids[0][2] != ids[0][3],
	      "twins: a type replaced by one of its own CU");
	CHECK(ids[1][0] != ids[1][1], "twins: two types of CU 1 replaced by one type");
	CHECK(ids[1][0] == ids[0][0], "twins: CU 1's first long kept");
	check_same_dedup("twins", plain, exact, plain_ids, exact_ids, nr);
out:
	btf__free(plain);
	btf__free(exact);
}

/*
 * Kinds the dedup never merges: a VAR and a DATASEC repeated are kept,
 * and so is everything btf__add_btf() adds.
 */
static void test_kept(void)
{
	struct btf *exact = btf__new_empty(), *cu;
	uint32_t before;
	int c;

	CHECK(exact && !btf_merge_exact_start(exact), "kept: setup");
	if (!exact)
		return;
	for (c = 0; c < 2; c++) {
		cu = btf__new_empty();
		if (!cu)
			break;
		btf__add_int(cu, "int", 4, BTF_INT_SIGNED);
		btf__add_var(cu, "v", BTF_VAR_GLOBAL_ALLOCATED, 1);
		btf__add_datasec(cu, ".data", 4);
		btf__add_datasec_var_info(cu, 2, 0, 4);
		before = btf__type_cnt(exact);
		CHECK(btf_merge_btf(exact, cu) > 0, "kept: merge %d", c);
		CHECK(btf__type_cnt(exact) - before == (c ? 2 : 3),
		      "kept: CU %d added %u types, not %d", c, btf__type_cnt(exact) - before,
		      c ? 2 : 3);
		btf__free(cu);
	}
	cu = list_cu(false);
	before = btf__type_cnt(exact);
	CHECK(cu && btf__add_btf(exact, cu) == (int)before && btf__type_cnt(exact) == before + 6,
	      "kept: btf__add_btf() left types out");
	btf__free(cu);
	btf__free(exact);
}

/* A small deterministic generator (xorshift). */
static uint32_t rnd_state = 2463534242u;

static uint32_t rnd(uint32_t n)
{
	rnd_state ^= rnd_state << 13;
	rnd_state ^= rnd_state >> 17;
	rnd_state ^= rnd_state << 5;
	return rnd_state % n;
}

#define NR_SHAPES  6
#define RANDOM_CUS 300

/*
 * A CU from the pieces: base types, then a few of NR_SHAPES structs that
 * point at each other (or at a forward declaration instead), with
 * typedefs, arrays and prototypes around them.  Few choices: most CUs
 * repeat an earlier one whole or in part.
 */
static struct btf *random_cu(void)
{
	struct btf *cu = btf__new_empty();
	int ints[2], id[NR_SHAPES] = {}, ptr[NR_SHAPES] = {}, s, t, n;
	char name[16];

	if (!cu)
		return NULL;
	ints[0] = btf__add_int(cu, "int", 4, BTF_INT_SIGNED);
	ints[1] = btf__add_int(cu, "char", 1, BTF_INT_CHAR);
	n = 1 + rnd(4);
	for (t = 0; t < n; t++) {
		s = rnd(NR_SHAPES);
		if (id[s])
			continue;
		snprintf(name, sizeof(name), "s%d", s);
		/* Declared only, in one CU of three. */
		if (!rnd(3)) {
			id[s] = btf__add_fwd(cu, name, BTF_FWD_STRUCT);
			ptr[s] = btf__add_ptr(cu, id[s]);
			continue;
		}
		/* The pointer first, to the struct added next: a cycle when it points back. */
		ptr[s] = btf__add_ptr(cu, btf__type_cnt(cu) + 1);
		id[s] = btf__add_struct(cu, name, 24);
		btf__add_field(cu, "a", ints[s % 2], 0, 0);
		btf__add_field(cu, "self", ptr[s], 64, 0);
		btf__add_field(cu, "peer",
			       ptr[(s + 1) % NR_SHAPES] ? ptr[(s + 1) % NR_SHAPES] : ptr[s], 128,
			       0);
		if (rnd(2)) {
			snprintf(name, sizeof(name), "s%d_t", s);
			btf__add_typedef(cu, name, id[s]);
		}
		if (!rnd(3))
			btf__add_array(cu, ints[0], ptr[s], 1 + s);
		if (rnd(2)) {
			btf__add_func_proto(cu, ints[0]);
			btf__add_func_param(cu, "x", ptr[s]);
		}
	}
	return cu;
}

static void test_random(void)
{
	struct btf *plain = btf__new_empty(), *exact = btf__new_empty(), *cu;
	uint32_t *plain_ids = NULL, *exact_ids = NULL, ids[256], first, i, n;
	size_t nr = 0, cap = 0;
	int c;

	CHECK(plain && exact && !btf_merge_exact_start(exact), "random: setup");
	if (!plain || !exact)
		goto out;
	for (c = 0; c < RANDOM_CUS; c++) {
		cu = random_cu();
		n = cu ? btf__type_cnt(cu) - 1 : 0;
		if (!cu || n > 256 || merge_both(plain, exact, cu, ids, &first)) {
			CHECK(0, "random: CU %d", c);
			btf__free(cu);
			break;
		}
		btf__free(cu);
		if (nr + n > cap) {
			cap = (nr + n) * 2;
			plain_ids = realloc(plain_ids, cap * sizeof(*plain_ids));
			exact_ids = realloc(exact_ids, cap * sizeof(*exact_ids));
			if (!plain_ids || !exact_ids)
				goto out;
		}
		for (i = 0; i < n; i++) {
			plain_ids[nr] = first + i;
			exact_ids[nr++] = ids[i];
		}
	}
	/* Not a test that cannot fail: most of the types must be left out. */
	CHECK(btf__type_cnt(exact) * 4 < btf__type_cnt(plain), "random: %u of %u types kept",
	      btf__type_cnt(exact) - 1, btf__type_cnt(plain) - 1);
	check_same_dedup("random", plain, exact, plain_ids, exact_ids, nr);
out:
	free(plain_ids);
	free(exact_ids);
	btf__free(plain);
	btf__free(exact);
}

int main(void)
{
	test_lists();
	test_twins();
	test_kept();
	test_random();
	return check_result();
}
