// SPDX-License-Identifier: GPL-2.0
/*
 * merge.c - the consumer of the worker pool: appends each CU's types to
 * the one BTF being built, in CU order, and keeps its functions,
 * variables and inline sites as records with ids renumbered to match.
 */
#include "enc_internal.h"
#include "../btf/btf_internal.h"

#include <stdlib.h>
#include <string.h>

/* Local id of the CU's BTF -> id in s->all; the CU's names -> s->names. */
struct cu_map {
	const struct btf *cu_names;
	struct btf *names;
	/* The names in the file's .debug_str merged so far (s->names_base_map). */
	struct btf_off_map *base_map;
	uint32_t delta;
	/* Where the merge left out copies (btf_merge_ids()): local index -> id. */
	const uint32_t *ids;
	uint32_t start_id, nr;
};

static uint32_t map_id(const struct cu_map *m, uint32_t id)
{
	return btf_merged_id(m->ids, m->start_id, m->nr, m->delta, id);
}

static int map_str(const struct cu_map *m, uint32_t off, uint32_t *out)
{
	const char *str;
	long new_off;

	/* Split on the CUs' base: no lookup for a .debug_str name (enc_names_setup()). */
	if (m->names->names_lo) {
		str = btf__str_by_offset(m->cu_names, off);
		if (!str)
			return -EINVAL;
		new_off = *str ? btf_add_name(m->names, str) : 0;
	} else {
		new_off = btf_merge_str_cached(m->names, m->cu_names, off, m->base_map);
	}
	if (new_off < 0)
		return new_off;
	*out = new_off;
	return 0;
}

/*
 * Before the first CU's names: where the CUs' names are split on the
 * file's .debug_str, s->names is split on it too, so that those names
 * keep their offsets: vmlinux has 355K of them (funcs, parameters,
 * variables), and looking each up cost the merge thread ~0.1 s of a
 * decode it shares the CPUs for.  A string may then have two offsets
 * (one in .debug_str, one of the CU's own), which only the inline sites
 * mind (their memo keys compare names by offset): with those, every
 * name is looked up as before.
 */
static int enc_names_setup(struct enc_state *s, const struct dw_cu *cu)
{
	struct btf *base = (struct btf *)btf__base_btf(cu->names), *names;

	s->names_setup = true;
	if (!base || !s->names_on_base || (s->o->features & (ENC_F_INLINE | ENC_F_INLINE_EXTRA)))
		return 0;
	names = btf__new_empty_split(base);
	if (!names)
		return -ENOMEM;
	if (btf_names_in_base(names)) {
		btf__free(names);
		return 0;
	}
	btf__free(s->names);
	s->names = names;
	return 0;
}

/* Room for @n more elements of array @arr of the state, zeroed (not the spare). */
#define GROW(s, arr, n)                                                                            \
	btf_reserve_mem((void **)&(s)->arr, &(s)->arr##_cap, sizeof(*(s)->arr), (s)->nr_##arr,     \
			SIZE_MAX / sizeof(*(s)->arr), (n))

static int merge_params(struct enc_state *s, const struct cu_map *m, const struct dw_cu *cu,
			uint32_t first, uint32_t nr, uint32_t *new_first)
{
	struct dw_param *p = GROW(s, params, nr ? nr : 1);
	uint32_t i;
	int err;

	if (!p)
		return -ENOMEM;
	*new_first = s->nr_params;
	for (i = 0; i < nr; i++) {
		const struct dw_param *src = &cu->params[first + i];

		err = map_str(m, src->name_off, &p[i].name_off);
		if (err)
			return err;
		p[i].type = map_id(m, src->type);
	}
	s->nr_params += nr;
	return 0;
}

static int merge_funcs(struct enc_state *s, const struct cu_map *m, const struct dw_cu *cu,
		       uint32_t cu_idx)
{
	uint32_t i;
	int err;

	for (i = 0; i < cu->nr_funcs; i++) {
		const struct dw_func *f = &cu->funcs[i];
		struct enc_func *d;

		/*
		 * Declarations never become FUNCs; definitions without code
		 * (abstract instances, bodies gcc folded into an identical
		 * function) do, as in pahole: funcs.c decides.
		 */
		if (f->flags & DW_FUNC_DECLARATION)
			continue;
		d = GROW(s, funcs, 1);
		if (!d)
			return -ENOMEM;
		memset(d, 0, sizeof(*d));
		err = map_str(m, f->name_off, &d->name_off);
		if (!err)
			err = merge_params(s, m, cu, f->first_param, f->nr_params, &d->first_param);
		if (err)
			return err;
		d->ret_type = map_id(m, f->ret_type);
		d->nr_params = f->nr_params;
		d->flags = f->flags;
		d->addr = f->addr;
		d->cu = cu_idx;
		s->nr_funcs++;
	}
	return 0;
}

static int merge_vars(struct enc_state *s, const struct cu_map *m, const struct dw_cu *cu)
{
	uint32_t i;
	int err;

	for (i = 0; i < cu->nr_vars; i++) {
		const struct dw_var *v = &cu->vars[i];
		struct enc_var *d;

		if (v->declaration || !v->has_addr)
			continue;
		d = GROW(s, vars, 1);
		if (!d)
			return -ENOMEM;
		err = map_str(m, v->name_off, &d->name_off);
		if (err)
			return err;
		d->type = map_id(m, v->type);
		d->addr = v->addr;
		d->size = v->size;
		d->flags = ENC_VAR_HAS_ADDR | (v->external ? ENC_VAR_EXTERNAL : 0) |
			   (v->artificial ? ENC_VAR_ARTIFICIAL : 0);
		s->nr_vars++;
	}
	return 0;
}

static int merge_sites(struct enc_state *s, const struct cu_map *m, const struct dw_cu *cu)
{
	uint32_t i;
	int err;

	for (i = 0; i < cu->nr_sites; i++) {
		const struct dw_site *site = &cu->sites[i];
		struct dw_loc *l;
		struct enc_site *d;

		d = GROW(s, sites, 1);
		l = GROW(s, locs, site->nr_params ? site->nr_params : 1);
		if (!d || !l)
			return -ENOMEM;
		err = map_str(m, site->name_off, &d->name_off);
		if (!err)
			err = merge_params(s, m, cu, site->first_param, site->nr_params,
					   &d->first_param);
		if (err)
			return err;
		d->ret_type = map_id(m, site->ret_type);
		d->nr_params = site->nr_params;
		d->addr = site->addr;
		d->shndx = site->shndx;
		d->first_loc = s->nr_locs;
		if (site->nr_params)
			memcpy(l, &cu->locs[site->first_loc], site->nr_params * sizeof(*l));
		s->nr_locs += site->nr_params;
		s->nr_sites++;
	}
	return 0;
}

int enc_merge_cu(void *ctx, uint32_t idx, struct dw_cu *cu)
{
	struct enc_state *s = ctx;
	struct cu_map m = { cu->names, s->names, &s->names_base_map, 0, NULL, 0, 0 };
	int first, err;

	if (cu->skipped || !cu->btf)
		return 0;
	/*
	 * Every CU split on a base has the same: the file's .debug_str.  Its
	 * offsets are kept where no name is likely there twice: not in a
	 * relocatable file's (ld -r leaves it unmerged: xfs.ko alone went
	 * 0.35 -> 0.46 s, the dedup's string phase sorting it out), nor fed
	 * ahead, where the dedup compares names by offset from the first CU
	 * on and only the check after the last tells whether it may.  The
	 * strings are taken over from the first CU, before any type.
	 */
	if (btf__base_btf(cu->btf) && !btf__base_btf(s->all) && !s->ahead && !s->elf.is_rel &&
	    (s->str_marks.base || btf__type_cnt(s->all) == 1))
		first = btf_merge_btf_same_strs(s->all, cu->btf, &s->str_marks);
	else if (btf__base_btf(cu->btf))
		first = btf_merge_btf_cached(s->all, cu->btf, &s->str_base_map);
	else
		first = btf_merge_btf(s->all, cu->btf);
	if (first < 0) {
		btf_log_printf(s->log, "%s: CU %u (%s): cannot merge types: %s", s->o->path, idx,
			       cu->name ? cu->name : "?", strerror(-first));
		return first;
	}
	m.delta = first - btf__start_id(cu->btf);
	m.ids = btf_merge_ids(s->all);
	m.start_id = btf__start_id(cu->btf);
	m.nr = btf__type_cnt(cu->btf) - m.start_id;
	if (!s->names_setup && (err = enc_names_setup(s, cu)))
		return err;
	m.names = s->names;
	if (s->ahead && (err = btf_dedup_feed(s->ahead))) {
		btf_log_printf(s->log, "%s: BTF dedup failed (types): %s", s->o->path,
			       strerror(-err));
		return err;
	}
	err = merge_funcs(s, &m, cu, idx);
	if (!err && s->o->features & ENC_F_VAR)
		err = merge_vars(s, &m, cu);
	if (!err && s->o->features & (ENC_F_INLINE | ENC_F_INLINE_EXTRA))
		err = merge_sites(s, &m, cu);
	return err;
}

static uint32_t remap(const uint32_t *map, uint32_t start_id, uint32_t id)
{
	return id >= start_id ? map[id - start_id] : id;
}

void enc_remap_records(struct enc_state *s, const uint32_t *map, uint32_t start_id)
{
	size_t i;

	for (i = 0; i < s->nr_funcs; i++)
		s->funcs[i].ret_type = remap(map, start_id, s->funcs[i].ret_type);
	for (i = 0; i < s->nr_params; i++)
		s->params[i].type = remap(map, start_id, s->params[i].type);
	for (i = 0; i < s->nr_vars; i++)
		s->vars[i].type = remap(map, start_id, s->vars[i].type);
	for (i = 0; i < s->nr_sites; i++)
		s->sites[i].ret_type = remap(map, start_id, s->sites[i].ret_type);
}

void enc_state_free(struct enc_state *s)
{
	btf__free(s->all);
	btf__free(s->names);
	btf__free(s->names_base);
	btf__free(s->base);
	enc_elf_info_free(&s->elf);
	free(s->funcs);
	free(s->params);
	free(s->vars);
	free(s->sites);
	free(s->locs);
	btf_off_map_free(&s->str_base_map);
	btf_off_map_free(&s->names_base_map);
	free(s->str_marks.seen);
	btf_dedup_free(s->ahead);
}
