// SPDX-License-Identifier: GPL-2.0
/*
 * locs_merged.c - inline sites into the merged layout (bpf-next, issue 8),
 * from the same enc_state sites locs.c writes in the seed layout:
 *
 *   - one LOC_PARAM per parameter, flags SIGNED/CONST/ADDR/REG/DEREF/
 *     OFFSET; a register pair is one REG LOC_PARAM with vlen 2 (no
 *     CONTINUE), so LOC_PROTO entry i is FUNC_PROTO parameter i; reg +
 *     offset values (DW_LOC_REG_OFF) and frame-base slots (DW_LOC_FBREG,
 *     register BTF_LOC_PARAM_FBREG) are written, where the seed layout
 *     has to leave them 0;
 *   - each entry points at a FUNC: the inlined function's FUNC in .BTF
 *     when there is one with the site's prototype (a partly inlined
 *     function), else a static FUNC added for it (fully inlined);
 *   - one LOCSEC per executable ELF section, "inline<section>" (e.g.
 *     inline.text, inline.init.text), offsets from the section's start
 *     (.text: from the same base as the seed layout, _text in vmlinux),
 *     entries sorted by (func, offset, loc_proto).
 *
 * The location types are deduplicated here, before the LOCSECs are
 * written, so the entry order survives the caller's final dedup (which
 * then has nothing left to merge).  After it, enc_sort_merged() puts the
 * types in bpf-next's order (named ones by name, anonymous ones after)
 * and sorts each LOCSEC's entries again by their new ids.
 */
#include "enc_internal.h"

#include <elf.h>
#include <stdlib.h>
#include <string.h>

struct mentry {
	uint32_t sec;  /* ELF section index */
	uint32_t func;
	uint32_t loc_proto;
	uint32_t offset;
};

struct named_func {
	const char *name; /* for sorting only: dst's strings move as FUNCs are added */
	uint32_t id;
};

struct mctx {
	struct enc_state *s;
	struct btf *dst;
	struct enc_memo *params, *loc_protos, *funcs;
	struct named_func *by_name; /* FUNCs of dst's chain, sorted by name */
	size_t nr_by_name;
	uint64_t text_base;
};

static int cmp_named_func(const void *a, const void *b)
{
	const struct named_func *x = a, *y = b;
	int c = strcmp(x->name, y->name);

	return c ? c : (x->id > y->id) - (x->id < y->id);
}

/* Every FUNC the chain of dst has, sorted by name, to find by name. */
static int index_funcs(struct mctx *c)
{
	uint32_t id, n = btf__type_cnt(c->dst);

	c->by_name = malloc(n * sizeof(*c->by_name));
	if (!c->by_name)
		return -ENOMEM;
	for (id = 1; id < n; id++) {
		if (btf_kind(btf__type_by_id(c->dst, id)) != BTF_KIND_FUNC)
			continue;
		c->by_name[c->nr_by_name].name = btf__name_by_id(c->dst, id);
		c->by_name[c->nr_by_name++].id = id;
	}
	qsort(c->by_name, c->nr_by_name, sizeof(*c->by_name), cmp_named_func);
	return 0;
}

/* Same return type and parameter types as the site (names may differ). */
static bool proto_fits(const struct mctx *c, uint32_t proto_id, const struct enc_site *site)
{
	const struct btf_type *fp = btf__type_by_id(c->dst, proto_id);
	const struct btf_param *p;
	uint32_t i;

	if (!fp || btf_kind(fp) != BTF_KIND_FUNC_PROTO || fp->type != site->ret_type ||
	    btf_vlen(fp) != site->nr_params)
		return false;
	p = btf_type_body(fp);
	for (i = 0; i < site->nr_params; i++)
		if (p[i].type != c->s->params[site->first_param + i].type)
			return false;
	return true;
}

static int add_proto(struct mctx *c, const struct enc_site *site)
{
	const struct enc_state *s = c->s;
	int id = btf__add_func_proto(c->dst, site->ret_type);
	uint32_t i;

	for (i = 0; id > 0 && i < site->nr_params; i++) {
		const struct dw_param *p = &s->params[site->first_param + i];
		int err = btf__add_func_param(c->dst, btf__str_by_offset(s->names, p->name_off),
					      p->type);

		if (err)
			return err;
	}
	return id;
}

/*
 * The FUNC of a site: an existing FUNC of that name whose prototype fits,
 * else a new static FUNC with the site's prototype, once per (name,
 * prototype).
 */
static int site_func(struct mctx *c, const struct enc_site *site)
{
	const char *name = btf__str_by_offset(c->s->names, site->name_off);
	uint32_t key[3 + 64], n = 0, i, lo = 0, hi = c->nr_by_name;
	int id, proto;

	key[n++] = site->name_off;
	key[n++] = site->ret_type;
	key[n++] = site->nr_params;
	for (i = 0; i < site->nr_params && n < sizeof(key) / sizeof(key[0]); i++)
		key[n++] = c->s->params[site->first_param + i].type;
	id = site->nr_params <= 64 ? enc_memo_get(c->funcs, key, n * 4) : 0;
	if (id)
		return id;
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		/* By id, not .name: adding FUNCs may move dst's strings. */
		if (strcmp(btf__name_by_id(c->dst, c->by_name[mid].id), name) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < c->nr_by_name && !strcmp(btf__name_by_id(c->dst, c->by_name[lo].id), name);
	     lo++) {
		if (proto_fits(c, btf__type_by_id(c->dst, c->by_name[lo].id)->type, site)) {
			id = c->by_name[lo].id;
			break;
		}
	}
	if (!id) {
		proto = add_proto(c, site);
		id = proto > 0 ? btf__add_func(c->dst, name, BTF_FUNC_STATIC, proto) : proto;
	}
	if (id > 0 && site->nr_params <= 64 && enc_memo_put(c->funcs, key, n * 4, id))
		return -ENOMEM;
	return id;
}

static int loc_param(struct mctx *c, uint32_t size, uint32_t flags, uint32_t v0, uint32_t v1,
		     unsigned int n)
{
	uint32_t key[5] = { size, flags, n, v0, n > 1 ? v1 : 0 };
	uint32_t vals[2] = { v0, v1 };
	int id = enc_memo_get(c->params, key, sizeof(key));

	if (id)
		return id;
	id = btf__add_loc_param_merged(c->dst, size, flags, vals, n);
	if (id > 0 && enc_memo_put(c->params, key, sizeof(key), id))
		return -ENOMEM;
	return id;
}

static bool size_ok(int size)
{
	int a = size < 0 ? -size : size;

	return a == 1 || a == 2 || a == 4 || a == 8;
}

/*
 * A constant in one word when that word, sign-extended if SIGNED, is the
 * value; else two (only for 8 bytes).
 */
static int const_param(struct mctx *c, const struct dw_loc *l, uint32_t flags, uint64_t v)
{
	uint32_t size = l->size < 0 ? -l->size : l->size;
	uint64_t one = l->size < 0 ? (uint64_t)(int64_t)(int32_t)v : (uint32_t)v;
	bool wide = size == 8 && one != v;

	if (l->size < 0)
		flags |= BTF_LOC_PARAM_SIGNED;
	return loc_param(c, size, BTF_LOC_PARAM_CONST | flags, (uint32_t)v, v >> 32, wide ? 2 : 1);
}

/*
 * Registers a BPF tracer reads from pt_regs: on x86-64 DWARF 0-15
 * (rax..r15).  A value in an xmm or x87 register is left out and
 * counted, as the seed writer (locs.c) does, so both layouts locate the
 * same parameters.
 */
static bool reg_ok(const struct mctx *c, const struct dw_loc *l)
{
	if (c->s->elf.machine != EM_X86_64)
		return true;
	switch ((enum dw_loc_kind)l->kind) {
	case DW_LOC_REG:
	case DW_LOC_DEREF:
	case DW_LOC_REG_OFF:
		return l->reg <= 15;
	case DW_LOC_REG_PAIR:
		return l->reg <= 15 && l->reg2 <= 15;
	case DW_LOC_FBREG:
	case DW_LOC_CONST:
	case DW_LOC_ADDR:
	case DW_LOC_NONE:
		return true;
	}
	return true;
}

/* The LOC_PARAM id for one parameter, 0 if it has no location. */
static int param_id(struct mctx *c, const struct dw_loc *l)
{
	struct enc_site_counts *cnt = &c->s->counts;
	uint32_t size = l->size < 0 ? -l->size : l->size;
	uint32_t sign = l->size < 0 ? BTF_LOC_PARAM_SIGNED : 0;
	const uint32_t reg = BTF_LOC_PARAM_REG, deref = BTF_LOC_PARAM_DEREF;
	const uint32_t off = BTF_LOC_PARAM_OFFSET;
	int id = -EINVAL;

	cnt->params++;
	if (l->kind != DW_LOC_NONE && l->kind != DW_LOC_REG_PAIR && !size_ok(l->size)) {
		cnt->miss[DW_MISS_BAD_SIZE]++;
		return 0;
	}
	if (!reg_ok(c, l)) {
		cnt->miss[ENC_MISS_REGISTER]++;
		return 0;
	}
	switch ((enum dw_loc_kind)l->kind) {
	case DW_LOC_REG:
		id = loc_param(c, size, reg | sign, l->reg, 0, 1);
		break;
	case DW_LOC_DEREF:
		if (l->offset)
			id = loc_param(c, size, reg | deref | off | sign, l->reg, l->offset, 2);
		else
			id = loc_param(c, size, reg | deref | sign, l->reg, 0, 1);
		break;
	case DW_LOC_REG_OFF:
		id = loc_param(c, size, reg | off | sign, l->reg, l->offset, 2);
		break;
	case DW_LOC_FBREG:
		id = loc_param(c, size, reg | deref | off | sign, BTF_LOC_PARAM_FBREG, l->offset, 2);
		break;
	case DW_LOC_CONST:
		id = const_param(c, l, 0, l->value);
		break;
	case DW_LOC_ADDR:
		id = const_param(c, l, BTF_LOC_PARAM_ADDR, l->value - c->text_base);
		break;
	case DW_LOC_REG_PAIR:
		id = loc_param(c, 2 * size, reg, l->reg, l->reg2, 2);
		break;
	case DW_LOC_NONE:
		cnt->miss[l->reason < DW_MISS_NR ? l->reason : DW_MISS_BAD_DWARF]++;
		return 0;
	}
	if (id > 0)
		cnt->params_located++;
	return id;
}

static int site_loc_proto(struct mctx *c, const struct enc_site *site)
{
	uint32_t *ids, i;
	int id = 0;

	ids = malloc((site->nr_params + 1) * sizeof(*ids));
	if (!ids)
		return -ENOMEM;
	for (i = 0; i < site->nr_params && id >= 0; i++) {
		id = param_id(c, &c->s->locs[site->first_loc + i]);
		ids[i] = id;
	}
	if (id < 0)
		goto out;
	id = enc_memo_get(c->loc_protos, ids, site->nr_params * 4);
	if (id)
		goto out;
	id = btf__add_loc_proto(c->dst);
	for (i = 0; id > 0 && i < site->nr_params; i++) {
		int err = btf__add_loc_proto_param(c->dst, ids[i]);

		if (err)
			id = err;
	}
	if (id > 0 && enc_memo_put(c->loc_protos, ids, site->nr_params * 4, id))
		id = -ENOMEM;
out:
	free(ids);
	return id;
}

/* Offset base of section @idx: .text keeps the seed layout's base. */
static uint64_t sec_base(const struct mctx *c, int idx)
{
	const struct enc_elf_sec *sec = &c->s->elf.secs[idx];

	return strcmp(sec->name, ".text") ? sec->addr : c->text_base;
}

static int cmp_mentry(const void *a, const void *b)
{
	const struct mentry *x = a, *y = b;

	if (x->sec != y->sec)
		return x->sec < y->sec ? -1 : 1;
	if (x->func != y->func)
		return x->func < y->func ? -1 : 1;
	if (x->offset != y->offset)
		return x->offset < y->offset ? -1 : 1;
	return (x->loc_proto > y->loc_proto) - (x->loc_proto < y->loc_proto);
}

/*
 * Deduplicates dst's new location types now, renumbering the entries
 * (and the records, when dst is .BTF itself), so that they can be sorted
 * by their final ids.
 */
static int dedup_entries(struct mctx *c, struct mentry *e, size_t n)
{
	struct btf_dedup_opts opts = { 0 };
	uint32_t *map = NULL, start = btf__start_id(c->dst);
	size_t i;
	int err;

	opts.id_map = &map;
	err = btf__dedup(c->dst, &opts);
	if (err)
		return err;
	for (i = 0; i < n; i++) {
		if (e[i].func >= start)
			e[i].func = map[e[i].func - start];
		if (e[i].loc_proto >= start)
			e[i].loc_proto = map[e[i].loc_proto - start];
	}
	if (c->dst == c->s->all)
		enc_remap_records(c->s, map, start);
	free(map);
	return 0;
}

static int emit_locsecs(struct mctx *c, struct mentry *e, size_t n)
{
	char name[256];
	size_t i, in_sec = 0;
	int err;

	qsort(e, n, sizeof(*e), cmp_mentry);
	for (i = 0; i < n; i++) {
		if (!i || e[i].sec != e[i - 1].sec || in_sec == BTF_MAX_VLEN_MERGED) {
			snprintf(name, sizeof(name), "inline%s", c->s->elf.secs[e[i].sec].name);
			err = btf__add_locsec(c->dst, name);
			if (err < 0)
				return err;
			in_sec = 0;
		}
		err = btf__add_locsec_loc_merged(c->dst, e[i].func, e[i].loc_proto, e[i].offset);
		if (err)
			return err;
		in_sec++;
	}
	return 0;
}

/* A parameter without a name; "..." (void, no name) is not one. */
static bool unnamed_param(const struct enc_state *s, const struct enc_site *site)
{
	const struct dw_param *p = &s->params[site->first_param];
	uint32_t i;

	for (i = 0; i < site->nr_params; i++)
		if (!p[i].name_off && p[i].type)
			return true;
	return false;
}

static int collect(struct mctx *c, struct mentry *e, size_t *n)
{
	struct enc_state *s = c->s;
	size_t i;

	for (i = 0; i < s->nr_sites; i++) {
		const struct enc_site *site = &s->sites[i];
		int idx = enc_elf_sec_by_addr(&s->elf, site->addr);
		int func, lp;

		s->counts.sites++;
		if (idx < 0 || !(s->elf.secs[idx].flags & SHF_EXECINSTR) ||
		    site->addr < sec_base(c, idx) || site->addr - sec_base(c, idx) > UINT32_MAX) {
			s->counts.outside_text++;
			continue;
		}
		/* A FUNC with an unnamed argument does not load (C23, C++). */
		if (unnamed_param(s, site)) {
			s->counts.unnamed_param++;
			continue;
		}
		enc_count_dwarf_complete(s, site);
		func = site_func(c, site);
		lp = func > 0 ? site_loc_proto(c, site) : func;
		if (lp < 0)
			return lp;
		e[*n].sec = idx;
		e[*n].func = func;
		e[*n].loc_proto = lp;
		e[(*n)++].offset = site->addr - sec_base(c, idx);
	}
	return 0;
}

int enc_add_sites_merged(struct enc_state *s, struct btf *dst)
{
	struct mctx c = { s, dst, enc_memo_new(), enc_memo_new(), enc_memo_new() };
	int text = enc_elf_sec_by_name(&s->elf, ".text");
	struct mentry *entries;
	size_t n = 0;
	int err;

	entries = calloc(s->nr_sites ? s->nr_sites : 1, sizeof(*entries));
	if (!entries || !c.params || !c.loc_protos || !c.funcs) {
		err = -ENOMEM;
		goto out;
	}
	if (s->elf.is_rel) {
		btf_log_printf(s->log,
			       "%s: inline sites of relocatable objects are not supported yet",
			       s->o->path);
		err = -EOPNOTSUPP;
		goto out;
	}
	if (text < 0) {
		btf_log_printf(s->log, "%s: no .text section for inline site offsets", s->o->path);
		err = -ENOENT;
		goto out;
	}
	c.text_base = s->elf.has_text_sym ? s->elf.text_sym : s->elf.secs[text].addr;
	err = btf__set_layout(dst, BTF_LAYOUT_MERGED);
	if (!err)
		err = index_funcs(&c);
	if (!err)
		err = collect(&c, entries, &n);
	if (!err)
		err = dedup_entries(&c, entries, n);
	if (!err)
		err = emit_locsecs(&c, entries, n);
out:
	free(entries);
	free(c.by_name);
	enc_memo_free(c.params);
	enc_memo_free(c.loc_protos);
	enc_memo_free(c.funcs);
	return err;
}

static int cmp_loc_merged(const void *a, const void *b)
{
	const struct btf_loc_merged *x = a, *y = b;

	if (x->func != y->func)
		return x->func < y->func ? -1 : 1;
	if (x->offset != y->offset)
		return x->offset < y->offset ? -1 : 1;
	return (x->loc_proto > y->loc_proto) - (x->loc_proto < y->loc_proto);
}

int enc_sort_merged(struct enc_state *s, struct btf *btf)
{
	uint32_t *map, id, start = btf__start_id(btf);
	int err = btf__sort_by_name(btf, &map);

	if (err)
		return err;
	if (btf == s->all)
		enc_remap_records(s, map, start);
	free(map);
	for (id = start; id < btf__type_cnt(btf); id++) {
		struct btf_type *t = btf__type_by_id_mut(btf, id);

		if (btf_kind(t) == BTF_KIND_LOCSEC)
			qsort(btf_type_body(t), btf_vlen(t), sizeof(struct btf_loc_merged),
			      cmp_loc_merged);
	}
	return 0;
}
