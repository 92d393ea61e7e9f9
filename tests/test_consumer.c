// SPDX-License-Identifier: GPL-2.0
/*
 * test_consumer.c ELF BASE EXPECTED - issue 5, acceptance 2: seed 010's
 * consumer logic holds on our output.
 *
 * ELF was encoded with inline.extra (or inline): its LOCSECs are walked
 * as seed 010's collect_loc_targets() walks them (the types of .BTF.extra
 * past its base, or of .BTF when there is no .BTF.extra), and every entry
 * found is parsed as parse_loc_spec()/parse_loc_arg() parse it: the
 * FUNC_PROTO's vlen (fewer than 12 parameters), one LOC_PROTO id per
 * parameter and a second after a CONTINUE, sizes 1/2/4/8, registers the
 * x86-64 pt_regs map has.  A failure there fails the whole attachment.
 *
 * Unlike the consumer, which compares every entry's name, the entries are
 * found by binary search over their (name, offset) order across all the
 * LOCSECs, which the test checks first; the consumer's linear scan must
 * find the same number.
 *
 * EXPECTED lists "NAME ADDRESS" (hex) per inline site from the DWARF, read
 * by readelf (consumer_sites.py), independent of btfenc.  For each NAME,
 * the addresses found (BASE + offset, BASE in hex) must be exactly those.
 * Exit 0 when every site of every name is found and parses.
 */
#include "btf.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LOC_MAX_ARG_CNT 12 /* seed 010's loc.c */

struct expect {
	char name[256];
	uint64_t addr;
};

struct walk {
	const struct btf *btf;
	const struct btf_loc **locs; /* all entries, LOCSEC by LOCSEC */
	size_t n;
};

/* seed 010's x86-64 calc_pt_regs_off(): rax..r15, then 17 holes, rbp. */
static bool reg_readable(uint16_t reg)
{
	return reg <= 15 || reg == 33;
}

static bool peel_is_ptr(const struct btf *btf, uint32_t id)
{
	const struct btf_type *t;
	int hops;

	for (hops = 0; hops < 64 && (t = btf__type_by_id(btf, id)); hops++) {
		unsigned int k = btf_kind(t);

		if (k != BTF_KIND_TYPEDEF && k != BTF_KIND_CONST && k != BTF_KIND_VOLATILE &&
		    k != BTF_KIND_RESTRICT && k != BTF_KIND_TYPE_TAG)
			return k == BTF_KIND_PTR;
		id = t->type;
	}
	return false;
}

/* parse_loc_arg(): 1 after a CONTINUE, 0, or a negative error. */
static int parse_arg(const struct btf_type *t, bool *multi)
{
	const struct btf_loc_param *lp;
	int32_t size;

	if (!t)
		return 0;
	if (btf_kind(t) != BTF_KIND_LOC_PARAM)
		return -EINVAL; /* the consumer would read garbage */
	lp = btf_type_body(t);
	size = (int32_t)t->size;
	if (size < 0)
		size = -size;
	if (size != 1 && size != 2 && size != 4 && size != 8)
		return -EINVAL;
	if (btf_kflag(t))
		return 0;
	if (!reg_readable(lp->reg))
		return -ENOENT;
	if (*multi) {
		*multi = false;
		return 0;
	}
	if (lp->flags & BTF_LOC_FLAG_CONTINUE) {
		*multi = true;
		return 1;
	}
	return 0;
}

/* parse_loc_spec(), plus a check the consumer lacks: ids stay in the LOC_PROTO. */
static int parse_spec(const struct btf *btf, const struct btf_loc *loc, const char **why)
{
	const struct btf_type *fp = btf__type_by_id(btf, loc->func_proto);
	const struct btf_type *lp = btf__type_by_id(btf, loc->loc_proto);
	const struct btf_param *p;
	const uint32_t *l;
	uint32_t i, j = 0, nr;

	if (!fp || btf_kind(fp) != BTF_KIND_FUNC_PROTO)
		return *why = "no FUNC_PROTO", -EINVAL;
	if (btf_vlen(fp) >= LOC_MAX_ARG_CNT)
		return *why = "too many parameters", -E2BIG;
	if (!lp || btf_kind(lp) != BTF_KIND_LOC_PROTO)
		return *why = "no LOC_PROTO", -EINVAL;
	p = btf_type_body(fp);
	l = btf_type_body(lp);
	nr = btf_vlen(lp);
	for (i = 0; i < btf_vlen(fp); i++, j++) {
		const struct btf_type *t = NULL;
		bool multi = false;
		int ret;

		if (j >= nr)
			return *why = "LOC_PROTO shorter than the FUNC_PROTO", -EINVAL;
		if (l[j]) {
			peel_is_ptr(btf, p[i].type); /* the consumer's walk must end */
			t = btf__type_by_id(btf, l[j]);
			if (!t)
				return *why = "unknown LOC_PARAM id", -EINVAL;
		}
		ret = parse_arg(t, &multi);
		if (ret > 0) {
			if (++j >= nr)
				return *why = "CONTINUE at the end of the LOC_PROTO", -EINVAL;
			ret = parse_arg(btf__type_by_id(btf, l[j]), &multi);
			if (!ret && l[j] && btf_kflag(btf__type_by_id(btf, l[j])))
				ret = -EINVAL; /* a pair's second half is a register */
		}
		if (ret < 0)
			return *why = "a LOC_PARAM the consumer rejects", ret;
	}
	if (j != nr)
		return *why = "LOC_PROTO longer than the FUNC_PROTO", -EINVAL;
	return 0;
}

static int cmp_loc(const struct btf *btf, const struct btf_loc *a, const struct btf_loc *b)
{
	int c = strcmp(btf__str_by_offset(btf, a->name_off), btf__str_by_offset(btf, b->name_off));

	if (c)
		return c;
	return (a->offset > b->offset) - (a->offset < b->offset);
}

/* collect_loc_targets()' walk: the LOCSECs of the split part, in id order. */
static int collect(const struct btf *btf, struct walk *w)
{
	uint32_t id;

	w->btf = btf;
	for (id = btf__start_id(btf); id < btf__type_cnt(btf); id++) {
		const struct btf_type *t = btf__type_by_id(btf, id);
		const struct btf_loc *l = btf_type_body(t);
		const struct btf_loc **more;
		uint32_t k;

		if (btf_kind(t) != BTF_KIND_LOCSEC)
			continue;
		more = realloc(w->locs, (w->n + btf_vlen(t)) * sizeof(*w->locs));
		if (!more)
			return -ENOMEM;
		w->locs = more;
		for (k = 0; k < btf_vlen(t); k++)
			w->locs[w->n++] = &l[k];
	}
	return 0;
}

/* First entry whose name is not below @name. */
static size_t lower_bound(const struct walk *w, const char *name)
{
	size_t lo = 0, hi = w->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (strcmp(btf__str_by_offset(w->btf, w->locs[mid]->name_off), name) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static size_t linear_count(const struct walk *w, const char *name)
{
	size_t i, n = 0;

	for (i = 0; i < w->n; i++)
		n += !strcmp(btf__str_by_offset(w->btf, w->locs[i]->name_off), name);
	return n;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

/* Sites of @name: binary search, parse, compare with the DWARF's addresses. */
static int check_name(const struct walk *w, uint64_t base, const char *name,
		      const struct expect *e, size_t ne, size_t *found)
{
	uint64_t *got = calloc(w->n + 1, sizeof(*got)), *want = calloc(ne + 1, sizeof(*want));
	size_t i, ng = 0, nw = 0;
	int bad = 0;

	if (!got || !want) {
		free(got);
		free(want);
		return 1;
	}
	for (i = lower_bound(w, name);
	     i < w->n && !strcmp(btf__str_by_offset(w->btf, w->locs[i]->name_off), name); i++) {
		const char *why = "";

		if (parse_spec(w->btf, w->locs[i], &why)) {
			fprintf(stderr, "%s+0x%x: the consumer fails: %s\n", name,
				w->locs[i]->offset, why);
			bad = 1;
		}
		got[ng++] = base + w->locs[i]->offset;
	}
	if (ng != linear_count(w, name)) {
		fprintf(stderr, "%s: binary search finds %zu, the linear scan %zu\n", name, ng,
			linear_count(w, name));
		bad = 1;
	}
	for (i = 0; i < ne; i++)
		if (!strcmp(e[i].name, name))
			want[nw++] = e[i].addr;
	qsort(got, ng, sizeof(*got), cmp_u64);
	qsort(want, nw, sizeof(*want), cmp_u64);
	if (ng != nw || memcmp(got, want, ng * sizeof(*got))) {
		fprintf(stderr, "%s: found %zu sites, DWARF has %zu:", name, ng, nw);
		for (i = 0; i < ng || i < nw; i++)
			fprintf(stderr, " [%#" PRIx64 " %#" PRIx64 "]", i < ng ? got[i] : 0,
				i < nw ? want[i] : 0);
		fputc('\n', stderr);
		bad = 1;
	}
	*found += ng;
	free(got);
	free(want);
	return bad;
}

static struct expect *read_expected(const char *path, size_t *n)
{
	FILE *f = fopen(path, "r");
	struct expect *e = NULL, cur;
	size_t cap = 0;

	*n = 0;
	if (!f)
		return NULL;
	while (fscanf(f, "%255s %" SCNx64, cur.name, &cur.addr) == 2) {
		if (*n == cap) {
			struct expect *more = realloc(e, (cap = cap ? 2 * cap : 64) * sizeof(*e));

			if (!more)
				break;
			e = more;
		}
		e[(*n)++] = cur;
	}
	fclose(f);
	return e;
}

int main(int argc, char **argv)
{
	struct btf *btf = NULL, *extra = NULL;
	struct walk w = { 0 };
	struct expect *e = NULL;
	size_t ne = 0, i, names = 0, found = 0;
	uint64_t base;
	int bad = 0;

	if (argc != 4) {
		fprintf(stderr, "usage: %s ELF BASE EXPECTED\n", argv[0]);
		return 2;
	}
	base = strtoull(argv[2], NULL, 16);
	btf = btf__parse_file(argv[1], ".BTF", NULL, NULL);
	extra = btf ? btf__parse_file(argv[1], ".BTF.extra", btf, NULL) : NULL;
	e = read_expected(argv[3], &ne);
	if (!btf || !e || collect(extra ? extra : btf, &w)) {
		fprintf(stderr, "cannot read %s or %s\n", argv[1], argv[3]);
		bad = 1;
		goto out;
	}
	for (i = 1; i < w.n; i++) {
		if (cmp_loc(w.btf, w.locs[i - 1], w.locs[i]) > 0) {
			fprintf(stderr, "entry %zu (%s+0x%x) sorts before the one ahead of it\n", i,
				btf__str_by_offset(w.btf, w.locs[i]->name_off), w.locs[i]->offset);
			bad = 1;
			goto out;
		}
	}
	for (i = 0; i < ne; i++) {
		size_t k;

		for (k = 0; k < i && strcmp(e[k].name, e[i].name); k++)
			;
		if (k < i)
			continue; /* name done */
		names++;
		bad |= check_name(&w, base, e[i].name, e, ne, &found);
	}
	printf("%s: %zu LOCSEC entries (%s); %zu functions, %zu sites in the DWARF, %zu found by "
	       "binary search and parsed as seed 010 does: %s\n",
	       argv[1], w.n, extra ? ".BTF.extra" : ".BTF", names, ne, found,
	       bad ? "MISMATCH" : "all");
	if (found != w.n) {
		fprintf(stderr, "%zu LOCSEC entries of functions the DWARF does not inline\n",
			w.n - found);
		bad = 1;
	}
	if (!ne)
		bad = 1;
out:
	free(w.locs);
	free(e);
	btf__free(extra);
	btf__free(btf);
	return bad;
}
