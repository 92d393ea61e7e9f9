// SPDX-License-Identifier: GPL-2.0
/*
 * test_layouts.c SEED.btf MERGED.btf - the encoder's two writers agree:
 * every site of the seed-layout file decodes to the same (function,
 * offset, parameter locations) as a site of the merged-layout file's
 * inline.text, and the other way round.  Locations only the merged layout
 * can express (reg + offset, frame base) must be 0 in the seed file; they
 * are counted and printed, as are merged sites outside .text (which the
 * seed layout leaves out).  So are constants the seed layout has to leave
 * out because seed 010's consumer would compute them wrongly (it adds the
 * run-time base to every 8-byte constant of a pointer parameter and to
 * no other): a plain number (NULL, an ERR_PTR) on a pointer parameter and
 * an address (CONST|ADDR) on a non-pointer one; they too must be 0 in the
 * seed file.  Exit 0 on agreement, 1 otherwise.
 */
#include "btf.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct lines {
	char **v;
	size_t n, cap;
};

static void push(struct lines *l, const char *s)
{
	if (l->n == l->cap) {
		l->cap = l->cap ? 2 * l->cap : 1024;
		l->v = realloc(l->v, l->cap * sizeof(*l->v));
	}
	l->v[l->n++] = strdup(s);
}

/* A value in @size bytes: the two layouts store narrow constants apart. */
static uint64_t trunc_to(uint64_t v, int32_t size)
{
	int32_t a = size < 0 ? -size : size;

	return a >= 8 ? v : v & ((1ull << (8 * a)) - 1);
}

static void lines_free(struct lines *l)
{
	size_t i;

	for (i = 0; i < l->n; i++)
		free(l->v[i]);
	free(l->v);
}

static const char *NONE = "-";

/* Why merged_param() wrote NONE for a location the merged file has. */
enum merged_only {
	MO_NO,       /* not merged-only: compare as written */
	MO_REG_OFF,  /* reg + offset or frame base */
	MO_CONST,    /* a constant the seed consumer would relocate wrongly */
};

/* A pointer once typedefs and modifiers are peeled (the consumer's test). */
static bool is_pointer(const struct btf *btf, uint32_t id)
{
	const struct btf_type *t;
	int hops;

	for (hops = 0; hops < 64 && (t = btf__type_by_id(btf, id)); hops++) {
		unsigned int k = btf_kind(t);

		if (k == BTF_KIND_PTR)
			return true;
		if (k != BTF_KIND_TYPEDEF && k != BTF_KIND_CONST && k != BTF_KIND_VOLATILE &&
		    k != BTF_KIND_RESTRICT && k != BTF_KIND_TYPE_TAG)
			return false;
		id = t->type;
	}
	return false;
}

/* Seed: one param from ids[*j] (and ids[*j + 1] with CONTINUE). */
static void seed_param(const struct btf *btf, const uint32_t *ids, uint32_t n, uint32_t *j,
		       char *buf, size_t len)
{
	const struct btf_type *t = *j < n ? btf__type_by_id(btf, ids[*j]) : NULL;
	const struct btf_loc_param *p;

	(*j)++;
	snprintf(buf, len, "%s", NONE);
	if (!t || !ids[*j - 1])
		return;
	p = btf_type_body(t);
	if (btf_kflag(t)) {
		snprintf(buf, len, "const %d 0x%" PRIx64, (int32_t)t->size,
			 trunc_to(btf_loc_param_value(t), (int32_t)t->size));
	} else if (p->flags & BTF_LOC_FLAG_CONTINUE) {
		const struct btf_type *t2 = btf__type_by_id(btf, ids[(*j)++]);

		snprintf(buf, len, "pair %u %u", p->reg,
			 ((const struct btf_loc_param *)btf_type_body(t2))->reg);
	} else if (p->flags & BTF_LOC_FLAG_DEREF) {
		snprintf(buf, len, "deref %d %u %d", (int32_t)t->size, p->reg, p->offset);
	} else {
		snprintf(buf, len, "reg %d %u", (int32_t)t->size, p->reg);
	}
}

/*
 * Merged: one LOC_PARAM of a parameter of type @type, normalised as
 * seed_param() writes it; NONE for what only the merged layout has.
 */
static enum merged_only merged_param(const struct btf *btf, uint32_t id, uint32_t type,
				     char *buf, size_t len)
{
	const struct btf_type *t = btf__type_by_id(btf, id);
	const struct btf_loc_param_merged *p;
	int32_t size;

	snprintf(buf, len, "%s", NONE);
	if (!id || !t)
		return MO_NO;
	p = btf_type_body(t);
	size = (p->flags & BTF_LOC_PARAM_SIGNED) ? -(int32_t)t->size : (int32_t)t->size;
	if (p->flags & BTF_LOC_PARAM_CONST) {
		uint64_t v = p->values[0] | (btf_vlen(t) > 1 ? (uint64_t)p->values[1] << 32 : 0);
		/* What seed 010's consumer adds the run-time base to. */
		bool relocated = t->size == 8 && is_pointer(btf, type);

		if (relocated != !!(p->flags & BTF_LOC_PARAM_ADDR))
			return MO_CONST;

		if ((p->flags & BTF_LOC_PARAM_SIGNED) && btf_vlen(t) == 1 && t->size == 8 &&
		    (p->values[0] >> 31))
			v |= 0xffffffff00000000ull;
		snprintf(buf, len, "const %d 0x%" PRIx64, size, trunc_to(v, size));
		return MO_NO;
	}
	if (p->values[0] == BTF_LOC_PARAM_FBREG)
		return MO_REG_OFF; /* frame base: only the merged layout has it */
	if ((p->flags & BTF_LOC_PARAM_OFFSET) && !(p->flags & BTF_LOC_PARAM_DEREF))
		return MO_REG_OFF; /* reg + offset: likewise */
	if (p->flags & BTF_LOC_PARAM_DEREF)
		snprintf(buf, len, "deref %d %u %d", size, p->values[0],
			 btf_vlen(t) > 1 ? (int32_t)p->values[1] : 0);
	else if (btf_vlen(t) == 2)
		snprintf(buf, len, "pair %u %u", p->values[0], p->values[1]);
	else
		snprintf(buf, len, "reg %d %u", size, p->values[0]);
	return MO_NO;
}

static void seed_sites(const struct btf *btf, struct lines *out)
{
	uint32_t id;

	for (id = 1; id < btf__type_cnt(btf); id++) {
		const struct btf_type *t = btf__type_by_id(btf, id);
		const struct btf_loc *l = btf_type_body(t);
		uint32_t k;

		if (btf_kind(t) != BTF_KIND_LOCSEC)
			continue;
		for (k = 0; k < btf_vlen(t); k++, l++) {
			const struct btf_type *fp = btf__type_by_id(btf, l->func_proto);
			const struct btf_type *lp = btf__type_by_id(btf, l->loc_proto);
			char line[4096], prm[64];
			uint32_t i, j = 0;
			int n;

			n = snprintf(line, sizeof(line), "%s+0x%x:", btf__str_by_offset(btf, l->name_off),
				     l->offset);
			for (i = 0; i < btf_vlen(fp) && n < 4000; i++) {
				seed_param(btf, btf_type_body(lp), btf_vlen(lp), &j, prm, sizeof(prm));
				n += snprintf(line + n, sizeof(line) - n, " %s;", prm);
			}
			push(out, line);
		}
	}
}

struct merged_counts {
	uint64_t reg_off; /* reg + offset, frame base */
	uint64_t consts;  /* constants the seed layout leaves out */
	uint64_t other;   /* sites outside .text */
};

static void merged_sites(const struct btf *btf, struct lines *out, struct merged_counts *cnt)
{
	uint32_t id;

	for (id = 1; id < btf__type_cnt(btf); id++) {
		const struct btf_type *t = btf__type_by_id(btf, id);
		const struct btf_loc_merged *l = btf_type_body(t);
		bool text = !strcmp(btf__name_by_id(btf, id), "inline.text");
		uint32_t k;

		if (btf_kind(t) != BTF_KIND_LOCSEC)
			continue;
		for (k = 0; k < btf_vlen(t); k++, l++) {
			const struct btf_type *fn = btf__type_by_id(btf, l->func);
			const struct btf_type *fp = btf__type_by_id(btf, fn->type);
			const struct btf_type *lp = btf__type_by_id(btf, l->loc_proto);
			const struct btf_param *fpp = btf_type_body(fp);
			const uint32_t *ids = btf_type_body(lp);
			char line[4096], prm[64];
			uint32_t i;
			int n;

			if (!text) {
				cnt->other++;
				continue;
			}
			n = snprintf(line, sizeof(line), "%s+0x%x:", btf__name_by_id(btf, l->func),
				     l->offset);
			for (i = 0; i < btf_vlen(fp) && n < 4000; i++) {
				enum merged_only mo = MO_NO;

				if (i < btf_vlen(lp))
					mo = merged_param(btf, ids[i], fpp[i].type, prm, sizeof(prm));
				else
					snprintf(prm, sizeof(prm), "%s", NONE);
				cnt->reg_off += mo == MO_REG_OFF;
				cnt->consts += mo == MO_CONST;
				n += snprintf(line + n, sizeof(line) - n, " %s;", prm);
			}
			push(out, line);
		}
	}
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int main(int argc, char **argv)
{
	struct lines s = { 0 }, m = { 0 };
	struct merged_counts cnt = { 0 };
	uint64_t diffs = 0;
	struct btf *sb, *mb;
	size_t i;

	if (argc != 3) {
		fprintf(stderr, "usage: %s SEED.btf MERGED.btf\n", argv[0]);
		return 2;
	}
	sb = btf__parse_file(argv[1], NULL, NULL, NULL);
	mb = btf__parse_file(argv[2], NULL, NULL, NULL);
	if (!sb || !mb || btf__layout(sb) != BTF_LAYOUT_SEED ||
	    btf__layout(mb) != BTF_LAYOUT_MERGED) {
		fprintf(stderr, "cannot read a seed-layout %s and a merged-layout %s\n", argv[1],
			argv[2]);
		return 1;
	}
	seed_sites(sb, &s);
	merged_sites(mb, &m, &cnt);
	qsort(s.v, s.n, sizeof(*s.v), cmp_str);
	qsort(m.v, m.n, sizeof(*m.v), cmp_str);
	for (i = 0; i < s.n || i < m.n; i++) {
		const char *a = i < s.n ? s.v[i] : "(none)", *b = i < m.n ? m.v[i] : "(none)";

		if (strcmp(a, b) && diffs++ < 10)
			fprintf(stderr, "seed:   %s\nmerged: %s\n", a, b);
	}
	printf("%zu seed sites, %zu merged inline.text sites, %" PRIu64
	       " merged sites in other sections; %" PRIu64
	       " locations only the merged layout has (reg + offset, frame base; 0 in the seed"
	       " layout); %" PRIu64
	       " constants only the merged layout has (CONST on a pointer, CONST|ADDR on a"
	       " non-pointer; 0 in the seed layout); %" PRIu64 " differences\n",
	       s.n, m.n, cnt.other, cnt.reg_off, cnt.consts, diffs);
	i = diffs || !s.n ? 1 : 0;
	lines_free(&s);
	lines_free(&m);
	btf__free(sb);
	btf__free(mb);
	return i;
}
