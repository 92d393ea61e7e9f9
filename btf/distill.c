// SPDX-License-Identifier: GPL-2.0
/*
 * distill.c - distilled base BTF for out-of-tree modules, and relocation
 * of split BTF from a distilled base onto the full one (libbpf's
 * btf__distill_base() and btf__relocate() semantics).
 *
 * A module built outside the kernel tree cannot rely on vmlinux's type
 * ids: they change with every kernel build.  So its .BTF is split BTF on
 * a small "distilled" base (.BTF.base) that names only what can be found
 * again by name in any compatible vmlinux: named INT, FLOAT, FWD, sized
 * ENUM (for ENUM and ENUM64) and named STRUCT/UNION with their size but
 * no members.  Everything else the module references in vmlinux --
 * pointers, typedefs, arrays, prototypes, anonymous aggregates, and the
 * location kinds (seed 007: LOC_PARAM and LOC_PROTO never go to the
 * distilled base) -- is copied into the split part.  At load time the
 * split part is relocated: each distilled base type is matched by name
 * (and kind, size, encoding) in the real vmlinux and ids are rewritten.
 */
#include "btf_internal.h"

#include <stdlib.h>
#include <string.h>

/*
 * Ids of the source chain: [1, split_start) are the old base,
 * [split_start, cnt) the split types.  map[old base id] is 0 until the
 * base type is found to be needed (then it is marked with its own id),
 * and becomes its new id once copied.
 */
struct distill {
	const struct btf *src;
	uint32_t split_start;
	uint32_t *map;
};

/* May a split type reference this base kind, and where does it go? */
enum dist_place {
	DIST_BAD,   /* the split BTF may not reference it */
	DIST_BASE,  /* named leaf: distilled base */
	DIST_SPLIT, /* copied into the split part */
};

/* The BTF of @btf's chain that owns type @id: its layout decodes the record. */
static const struct btf *owner(const struct btf *btf, uint32_t id)
{
	while (btf->base && id < btf->start_id)
		btf = btf->base;
	return btf;
}

static enum dist_place dist_place(const struct btf_type *t)
{
	switch ((enum btf_kind)btf_kind(t)) {
	case BTF_KIND_INT:
	case BTF_KIND_FLOAT:
	case BTF_KIND_FWD:
		return DIST_BASE;
	case BTF_KIND_STRUCT:
	case BTF_KIND_UNION:
	case BTF_KIND_ENUM:
	case BTF_KIND_ENUM64:
		/* Anonymous ones cannot be found by name: copied whole. */
		return t->name_off ? DIST_BASE : DIST_SPLIT;
	case BTF_KIND_ARRAY:
	case BTF_KIND_TYPEDEF:
	case BTF_KIND_PTR:
	case BTF_KIND_CONST:
	case BTF_KIND_RESTRICT:
	case BTF_KIND_VOLATILE:
	case BTF_KIND_FUNC_PROTO:
	case BTF_KIND_TYPE_TAG:
	case BTF_KIND_LOC_PARAM:
	case BTF_KIND_LOC_PROTO:
		return DIST_SPLIT;
	case BTF_KIND_UNKN:
	case BTF_KIND_FUNC:
	case BTF_KIND_VAR:
	case BTF_KIND_DATASEC:
	case BTF_KIND_DECL_TAG:
	case BTF_KIND_LOCSEC:
	case NR_BTF_KINDS:
		return DIST_BAD;
	}
	return DIST_BAD;
}

static int mark_needed(struct distill *d, uint32_t id);

static int mark_ref(uint32_t *id, void *ctx)
{
	return mark_needed(ctx, *id);
}

/*
 * Marks base type @id and, unless it is a named aggregate (which goes to
 * the distilled base without members), what it references.  Marking
 * before descending ends every cycle.
 */
static int mark_needed(struct distill *d, uint32_t id)
{
	const struct btf_type *t;

	if (!id || id >= d->split_start || d->map[id])
		return 0;
	t = btf__type_by_id(d->src, id);
	if (dist_place(t) == DIST_BAD)
		return -EINVAL;
	d->map[id] = id;
	if (btf_kind(t) == BTF_KIND_STRUCT || btf_kind(t) == BTF_KIND_UNION) {
		if (t->name_off)
			return 0;
	}
	/* The visitor only reads the ids it is given. */
	return btf_type_visit_type_ids((struct btf_type *)t, btf__layout(owner(d->src, id)),
				       mark_ref, d);
}

struct copy_ctx {
	struct btf *dst;
	const struct btf *src;
	int err;
};

static int copy_str(uint32_t *off, void *ctx)
{
	struct copy_ctx *c = ctx;
	const char *s;
	int n;

	if (!*off)
		return 0;
	s = btf__str_by_offset(c->src, *off);
	if (!s)
		return -EINVAL;
	n = btf__add_str(c->dst, s);
	if (n < 0)
		return n;
	*off = n;
	return 0;
}

/*
 * Appends a copy of type @id of @src's chain to @dst with its strings
 * re-added; ids are left for the caller to rewrite.  Both must use the
 * same layout.  Returns the new id.
 */
static int copy_type(struct btf *dst, const struct btf *src, uint32_t id)
{
	const struct btf_type *t = btf__type_by_id(src, id);
	struct copy_ctx c = { dst, src, 0 };
	long size = btf__type_size(owner(src, id), t);
	struct btf_type *nt;
	int err;

	if (size < 0)
		return -EINVAL;
	nt = btf_add_type_mem(dst, size);
	if (!nt)
		return -ENOMEM;
	memcpy(nt, t, size);
	/* Adding strings does not move the type data reserved above. */
	err = btf_type_visit_str_offs(nt, btf__layout(dst), copy_str, &c);
	if (err)
		return err;
	return btf_commit_type(dst, size);
}

/* A distilled base entry: named leaf, aggregate without members, sized enum. */
static int add_base_type(struct btf *dst, const struct btf *src, uint32_t id)
{
	const struct btf_type *t = btf__type_by_id(src, id);
	const char *name = btf__str_by_offset(src, t->name_off);

	switch ((enum btf_kind)btf_kind(t)) {
	case BTF_KIND_STRUCT:
		return btf__add_struct(dst, name, t->size);
	case BTF_KIND_UNION:
		return btf__add_union(dst, name, t->size);
	case BTF_KIND_ENUM:
	case BTF_KIND_ENUM64:
		/* Relocation matches it with an ENUM or ENUM64 of this size. */
		return btf__add_enum(dst, name, t->size);
	case BTF_KIND_INT:
	case BTF_KIND_FLOAT:
	case BTF_KIND_FWD:
		return copy_type(dst, src, id);
	case BTF_KIND_UNKN:
	case BTF_KIND_PTR:
	case BTF_KIND_ARRAY:
	case BTF_KIND_TYPEDEF:
	case BTF_KIND_VOLATILE:
	case BTF_KIND_CONST:
	case BTF_KIND_RESTRICT:
	case BTF_KIND_FUNC:
	case BTF_KIND_FUNC_PROTO:
	case BTF_KIND_VAR:
	case BTF_KIND_DATASEC:
	case BTF_KIND_DECL_TAG:
	case BTF_KIND_TYPE_TAG:
	case BTF_KIND_LOC_PARAM:
	case BTF_KIND_LOC_PROTO:
	case BTF_KIND_LOCSEC:
	case NR_BTF_KINDS:
		break;
	}
	return -EINVAL;
}

/* Copies the needed base types of place @where to @dst, in id order. */
static int add_needed(struct distill *d, struct btf *dst, enum dist_place where)
{
	uint32_t id;
	int nid;

	for (id = 1; id < d->split_start; id++) {
		const struct btf_type *t = btf__type_by_id(d->src, id);

		if (!d->map[id] || dist_place(t) != where)
			continue;
		nid = where == DIST_BASE ? add_base_type(dst, d->src, id) : copy_type(dst, d->src, id);
		if (nid < 0)
			return nid;
		d->map[id] = nid;
	}
	return 0;
}

struct rewrite_ctx {
	const struct distill *d;
	uint32_t split_shift; /* old split id - new split id */
};

static int rewrite_id(uint32_t *id, void *ctx)
{
	struct rewrite_ctx *r = ctx;

	if (*id >= r->d->split_start)
		*id -= r->split_shift;
	else if (*id)
		*id = r->d->map[*id];
	return 0;
}

/*
 * New ids: the distilled base first; then the split types in their old
 * order; then the base types copied into the split part, in old id
 * order (as libbpf orders them, so dumps match seed 007).
 */
static int build_distilled(struct distill *d, struct btf *base, struct btf *split)
{
	struct rewrite_ctx r = { d, 0 };
	uint32_t id, cnt = btf__type_cnt(d->src);
	int err;

	err = add_needed(d, base, DIST_BASE);
	if (err)
		return err;
	split->start_id = btf__type_cnt(base);
	split->start_str_off = base->strs->len;
	for (id = d->split_start; id < cnt; id++) {
		int nid = copy_type(split, d->src, id);

		if (nid < 0)
			return nid;
	}
	err = add_needed(d, split, DIST_SPLIT);
	if (err)
		return err;
	r.split_shift = d->split_start - split->start_id;
	for (id = split->start_id; id < btf__type_cnt(split); id++) {
		err = btf_type_visit_type_ids(btf__type_by_id_mut(split, id), btf__layout(split),
					      rewrite_id, &r);
		if (err)
			return err;
	}
	return 0;
}

int btf__distill_base(const struct btf *src, struct btf **new_base, struct btf **new_split)
{
	struct distill d = { src, 0, NULL };
	struct btf *base = NULL, *split = NULL;
	uint32_t id, cnt;
	int err;

	if (!src || !new_base || !new_split || !src->base)
		return -EINVAL;
	d.split_start = btf__start_id(src);
	cnt = btf__type_cnt(src);
	d.map = calloc(d.split_start, sizeof(*d.map));
	base = btf__new_empty();
	if (!d.map || !base) {
		err = -ENOMEM;
		goto out;
	}
	for (id = d.split_start; id < cnt; id++) {
		err = btf_type_visit_type_ids(btf__type_by_id_mut((struct btf *)src, id),
					      btf__layout(src), mark_ref, &d);
		if (err)
			goto out;
	}
	/* The split part starts after the distilled base, known only once built. */
	split = btf__new_empty_split(base);
	if (!split) {
		err = -ENOMEM;
		goto out;
	}
	err = btf__set_layout(split, btf__layout(src));
	if (err)
		goto out;
	err = build_distilled(&d, base, split);
	if (err)
		goto out;
	base->swapped = split->swapped = src->swapped;
	base->ptr_sz = split->ptr_sz = src->ptr_sz;
	*new_base = base;
	*new_split = split;
	base = split = NULL;
out:
	btf__free(split);
	btf__free(base);
	free(d.map);
	return err;
}

/* ---- relocation ---- */

/* Could base type @b stand for distilled type @t (same name already)? */
static bool reloc_compatible(const struct btf_type *t, const struct btf_type *b, bool embedded)
{
	unsigned int bk = btf_kind(b);

	switch ((enum btf_kind)btf_kind(t)) {
	case BTF_KIND_FWD:
		if (bk == BTF_KIND_FWD)
			return btf_kflag(b) == btf_kflag(t);
		/* kflag 1: a union forward. */
		return bk == (btf_kflag(t) ? BTF_KIND_UNION : BTF_KIND_STRUCT);
	case BTF_KIND_INT:
		return bk == BTF_KIND_INT && b->size == t->size &&
		       BTF_INT_ENCODING(*(uint32_t *)btf_type_body(b)) ==
			       BTF_INT_ENCODING(*(uint32_t *)btf_type_body(t));
	case BTF_KIND_FLOAT:
		return bk == BTF_KIND_FLOAT && b->size == t->size;
	case BTF_KIND_ENUM:
		return (bk == BTF_KIND_ENUM || bk == BTF_KIND_ENUM64) && b->size == t->size;
	case BTF_KIND_STRUCT:
	case BTF_KIND_UNION:
		/* Embedded by value in a split aggregate: the layout depends on the size. */
		return bk == btf_kind(t) && (!embedded || b->size == t->size);
	case BTF_KIND_UNKN:
	case BTF_KIND_PTR:
	case BTF_KIND_ARRAY:
	case BTF_KIND_TYPEDEF:
	case BTF_KIND_VOLATILE:
	case BTF_KIND_CONST:
	case BTF_KIND_RESTRICT:
	case BTF_KIND_FUNC:
	case BTF_KIND_FUNC_PROTO:
	case BTF_KIND_VAR:
	case BTF_KIND_DATASEC:
	case BTF_KIND_DECL_TAG:
	case BTF_KIND_TYPE_TAG:
	case BTF_KIND_ENUM64:
	case BTF_KIND_LOC_PARAM:
	case BTF_KIND_LOC_PROTO:
	case BTF_KIND_LOCSEC:
	case NR_BTF_KINDS:
		break;
	}
	return false;
}

struct reloc {
	struct btf *split;
	const struct btf *dist;  /* the distilled base split is on now */
	const struct btf *base;  /* the full base */
	uint32_t dist_cnt;
	uint32_t base_cnt;
	uint32_t *map;           /* distilled id -> base id */
	bool *embedded;          /* distilled id is embedded by value in a split aggregate */
};

/* Follows a member's type through modifiers and arrays, not pointers. */
static uint32_t embedded_target(const struct btf *btf, uint32_t id)
{
	const struct btf_type *t;

	for (;;) {
		t = btf__type_by_id(btf, id);
		if (!t)
			return 0;
		switch ((enum btf_kind)btf_kind(t)) {
		case BTF_KIND_CONST:
		case BTF_KIND_VOLATILE:
		case BTF_KIND_RESTRICT:
		case BTF_KIND_TYPEDEF:
		case BTF_KIND_TYPE_TAG:
			id = t->type;
			break;
		case BTF_KIND_ARRAY:
			id = ((const struct btf_array *)btf_type_body(t))->type;
			break;
		case BTF_KIND_STRUCT:
		case BTF_KIND_UNION:
			return id;
		case BTF_KIND_UNKN:
		case BTF_KIND_INT:
		case BTF_KIND_PTR:
		case BTF_KIND_ENUM:
		case BTF_KIND_FWD:
		case BTF_KIND_FUNC:
		case BTF_KIND_FUNC_PROTO:
		case BTF_KIND_VAR:
		case BTF_KIND_DATASEC:
		case BTF_KIND_FLOAT:
		case BTF_KIND_DECL_TAG:
		case BTF_KIND_ENUM64:
		case BTF_KIND_LOC_PARAM:
		case BTF_KIND_LOC_PROTO:
		case BTF_KIND_LOCSEC:
		case NR_BTF_KINDS:
			return 0;
		}
	}
}

static void mark_embedded(struct reloc *r)
{
	uint32_t id, i, target;

	for (id = r->dist_cnt; id < btf__type_cnt(r->split); id++) {
		const struct btf_type *t = btf__type_by_id(r->split, id);
		const struct btf_member *m = btf_type_body(t);

		if (btf_kind(t) != BTF_KIND_STRUCT && btf_kind(t) != BTF_KIND_UNION)
			continue;
		for (i = 0; i < btf_vlen(t); i++) {
			target = embedded_target(r->split, m[i].type);
			if (target && target < r->dist_cnt)
				r->embedded[target] = true;
		}
	}
}

static bool dist_kind_ok(const struct btf_type *t)
{
	switch ((enum btf_kind)btf_kind(t)) {
	case BTF_KIND_INT:
	case BTF_KIND_FLOAT:
	case BTF_KIND_ENUM:
	case BTF_KIND_STRUCT:
	case BTF_KIND_UNION:
	case BTF_KIND_FWD:
		return t->name_off != 0;
	case BTF_KIND_UNKN:
	case BTF_KIND_PTR:
	case BTF_KIND_ARRAY:
	case BTF_KIND_TYPEDEF:
	case BTF_KIND_VOLATILE:
	case BTF_KIND_CONST:
	case BTF_KIND_RESTRICT:
	case BTF_KIND_FUNC:
	case BTF_KIND_FUNC_PROTO:
	case BTF_KIND_VAR:
	case BTF_KIND_DATASEC:
	case BTF_KIND_DECL_TAG:
	case BTF_KIND_TYPE_TAG:
	case BTF_KIND_ENUM64:
	case BTF_KIND_LOC_PARAM:
	case BTF_KIND_LOC_PROTO:
	case BTF_KIND_LOCSEC:
	case NR_BTF_KINDS:
		break;
	}
	return false;
}

struct name_ent {
	const char *name;
	uint32_t id;
};

static int cmp_name_ent(const void *a, const void *b)
{
	const struct name_ent *x = a, *y = b;
	int c = strcmp(x->name, y->name);

	return c ? c : (x->id > y->id) - (x->id < y->id);
}

/* First entry not below @key (ids start at 1: id 0 sorts before a name's first). */
static struct name_ent *lower_bound(struct name_ent *ents, size_t n, const struct name_ent *key)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (cmp_name_ent(&ents[mid], key) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return ents + lo;
}

/*
 * Finds each distilled type's one match in the base.  Among same-named
 * aggregates of the base, one of equal size is required when several
 * exist (libbpf's rule); two equally good candidates are an error, since
 * nothing tells them apart.
 */
static int reloc_map_base(struct reloc *r, const struct btf_log *log)
{
	struct name_ent *ents = calloc(r->dist_cnt, sizeof(*ents)), key, *e;
	uint32_t id, n = 0;
	int err = 0;

	if (!ents)
		return -ENOMEM;
	for (id = 1; id < r->dist_cnt; id++) {
		ents[n].name = btf__name_by_id(r->dist, id);
		ents[n++].id = id;
	}
	qsort(ents, n, sizeof(*ents), cmp_name_ent);
	for (id = 1; id < r->base_cnt && !err; id++) {
		const struct btf_type *b = btf__type_by_id(r->base, id);

		if (!b->name_off)
			continue;
		key.name = btf__str_by_offset(r->base, b->name_off);
		key.id = 0;
		e = lower_bound(ents, n, &key);
		for (; e < ents + n && !strcmp(e->name, key.name); e++) {
			const struct btf_type *t = btf__type_by_id(r->dist, e->id);

			if (!reloc_compatible(t, b, r->embedded[e->id]))
				continue;
			if (r->map[e->id] && btf_kind(t) != BTF_KIND_STRUCT &&
			    btf_kind(t) != BTF_KIND_UNION && btf_kind(t) != BTF_KIND_FWD) {
				btf_log_printf(log, "distilled [%u] '%s' matches base [%u] and [%u]",
					       e->id, e->name, r->map[e->id], id);
				err = -EINVAL;
				break;
			}
			/* Aggregates: prefer the first of equal size over one of another size. */
			if (r->map[e->id] &&
			    (btf__type_by_id(r->base, r->map[e->id])->size == t->size ||
			     b->size != t->size))
				continue;
			r->map[e->id] = id;
		}
	}
	for (id = 1; id < r->dist_cnt && !err; id++) {
		if (r->map[id])
			continue;
		btf_log_printf(log, "distilled [%u] %s '%s' has no match in the base", id,
			       btf_kind_str(btf_kind(btf__type_by_id(r->dist, id))),
			       btf__name_by_id(r->dist, id));
		err = -ENOENT;
	}
	free(ents);
	return err;
}

static int reloc_id(uint32_t *id, void *ctx)
{
	const struct reloc *r = ctx;

	if (*id >= r->dist_cnt)
		*id = *id - r->dist_cnt + r->base_cnt;
	else if (*id)
		*id = r->map[*id];
	return 0;
}

/* The split types, copied onto the full base with ids and strings rewritten. */
static int reloc_copy(struct reloc *r, struct btf *dst)
{
	uint32_t id;
	int nid, err;

	for (id = r->dist_cnt; id < btf__type_cnt(r->split); id++) {
		nid = copy_type(dst, r->split, id);
		if (nid < 0)
			return nid;
		err = btf_type_visit_type_ids(btf__type_by_id_mut(dst, nid), btf__layout(dst),
					      reloc_id, r);
		if (err)
			return err;
	}
	return 0;
}

int btf__relocate_log(struct btf *btf, const struct btf *base, const struct btf_log *log)
{
	struct reloc r = { btf, NULL, base, 0, 0, NULL, NULL };
	struct btf *dst = NULL, tmp;
	uint32_t id;
	int err;

	if (!btf || !base || !btf->base || btf->base == base || btf->base->base)
		return -EINVAL;
	r.dist = btf->base;
	r.dist_cnt = btf__type_cnt(r.dist);
	r.base_cnt = btf__type_cnt(base);
	for (id = 1; id < r.dist_cnt; id++) {
		if (!dist_kind_ok(btf__type_by_id(r.dist, id))) {
			btf_log_printf(log, "distilled [%u] %s: not a named leaf type", id,
				       btf_kind_str(btf_kind(btf__type_by_id(r.dist, id))));
			return -EINVAL;
		}
	}
	r.map = calloc(r.dist_cnt, sizeof(*r.map));
	r.embedded = calloc(r.dist_cnt, sizeof(*r.embedded));
	/* The base is not changed; only the split's own string set grows. */
	dst = btf__new_empty_split((struct btf *)base);
	if (!r.map || !r.embedded || !dst) {
		err = -ENOMEM;
		goto out;
	}
	err = btf__set_layout(dst, btf__layout(btf));
	if (err)
		goto out;
	mark_embedded(&r);
	err = reloc_map_base(&r, log);
	if (!err)
		err = reloc_copy(&r, dst);
	if (err)
		goto out;
	/* All or nothing: swap the rebuilt object in, keep the caller's pointer. */
	dst->swapped = btf->swapped;
	dst->ptr_sz = btf->ptr_sz;
	tmp = *btf;
	*btf = *dst;
	*dst = tmp;
out:
	btf__free(dst);
	free(r.map);
	free(r.embedded);
	return err;
}

int btf__relocate(struct btf *btf, const struct btf *base)
{
	return btf__relocate_log(btf, base, NULL);
}
