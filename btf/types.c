// SPDX-License-Identifier: GPL-2.0
/*
 * types.c - the type table: lifetime, lookup through the base chain,
 * one builder per kind, and appending one BTF to another.
 */
#include "btf_internal.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

static struct btf *btf_new(struct btf *base)
{
	struct btf *btf = calloc(1, sizeof(*btf));

	if (!btf)
		return NULL;
	btf->base = base;
	btf->ptr_sz = base ? base->ptr_sz : 8;
	btf->layout = base ? base->layout : BTF_LAYOUT_SEED;
	if (base) {
		btf->start_id = btf__type_cnt(base);
		btf->start_str_off = base->start_str_off + base->strs->len;
		btf->strs = strset__new(NULL, 0);
	} else {
		btf->start_id = 1;
		btf->strs = strset__new("", 1);
	}
	if (!btf->strs) {
		free(btf);
		return NULL;
	}
	return btf;
}

struct btf *btf__new_empty(void)
{
	return btf_new(NULL);
}

struct btf *btf__new_empty_split(struct btf *base)
{
	if (!base) {
		errno = EINVAL;
		return NULL;
	}
	return btf_new(base);
}

struct btf *btf__new_empty_layout(enum btf_loc_layout layout)
{
	struct btf *btf = btf_new(NULL);

	if (btf)
		btf->layout = layout;
	return btf;
}

enum btf_loc_layout btf__layout(const struct btf *btf)
{
	return btf->layout;
}

int btf__set_layout(struct btf *btf, enum btf_loc_layout layout)
{
	if (layout != BTF_LAYOUT_SEED && layout != BTF_LAYOUT_MERGED)
		return -EINVAL;
	uint32_t i;

	btf_dedup_base_free(btf);
	/* The standard kinds read the same in both layouts. */
	for (i = 0; i < btf->nr_types && layout != btf->layout; i++)
		if (btf_kind(btf__type_by_id(btf, btf->start_id + i)) >= BTF_KIND_LOC_PARAM)
			return -EBUSY;
	btf->layout = layout;
	return 0;
}

long btf__type_size(const struct btf *btf, const struct btf_type *t)
{
	return btf_type_size_layout(t, btf->layout);
}

void btf__free(struct btf *btf)
{
	if (!btf)
		return;
	btf_dedup_base_free(btf);
	btf_exact_free(btf->exact);
	free(btf->layout_sec);
	free(btf->types);
	free(btf->type_offs);
	free(btf->offs_marks);
	strset__free(btf->strs);
	free(btf);
}

uint32_t btf__type_cnt(const struct btf *btf)
{
	return btf->start_id + btf->nr_types;
}

uint32_t btf__start_id(const struct btf *btf)
{
	return btf->start_id;
}

uint32_t btf__start_str_off(const struct btf *btf)
{
	return btf->start_str_off;
}

const struct btf *btf__base_btf(const struct btf *btf)
{
	return btf->base;
}

bool btf__is_swapped(const struct btf *btf)
{
	return btf->swapped;
}

void btf__set_pointer_size(struct btf *btf, size_t size)
{
	btf->ptr_sz = size;
}

size_t btf__pointer_size(const struct btf *btf)
{
	return btf->ptr_sz;
}

static const struct btf_type void_type;

const struct btf_type *btf__type_by_id(const struct btf *btf, uint32_t id)
{
	if (id == 0)
		return &void_type;
	while (btf && id < btf->start_id)
		btf = btf->base;
	if (!btf || id - btf->start_id >= btf->nr_types)
		return NULL;
	return (const struct btf_type *)((char *)btf->types + btf->type_offs[id - btf->start_id]);
}

struct btf_type *btf__type_by_id_mut(struct btf *btf, uint32_t id)
{
	/* The caller may change the record: a split dedup must not trust it. */
	btf_dedup_base_free(btf);
	if (id < btf->start_id || id - btf->start_id >= btf->nr_types)
		return NULL;
	return (struct btf_type *)((char *)btf->types + btf->type_offs[id - btf->start_id]);
}

const char *btf__str_by_offset(const struct btf *btf, uint32_t off)
{
	while (btf && off < btf->start_str_off)
		btf = btf->base;
	if (!btf || off - btf->start_str_off >= btf->strs->len)
		return NULL;
	return btf->strs->data + (off - btf->start_str_off);
}

const char *btf__name_by_id(const struct btf *btf, uint32_t id)
{
	const struct btf_type *t = btf__type_by_id(btf, id);
	const char *s = t ? btf__str_by_offset(btf, t->name_off) : NULL;

	return s ? s : "";
}

int btf__find_str(const struct btf *btf, const char *s)
{
	long off;

	for (; btf; btf = btf->base) {
		off = strset__find_str(btf->strs, s);
		if (off >= 0)
			return btf->start_str_off + off;
		if (off != -ENOENT)
			return off;
	}
	return -ENOENT;
}

int btf__add_str(struct btf *btf, const char *s)
{
	long off;

	if (btf->base) {
		off = btf__find_str(btf->base, s);
		if (off >= 0)
			return off;
	}
	off = strset__add_str(btf->strs, s);
	if (off < 0)
		return off;
	if (btf->start_str_off + (uint64_t)off > BTF_MAX_STR_OFFSET)
		return -E2BIG;
	return btf->start_str_off + off;
}

struct btf *btf_new_str_base(const void *data, size_t len)
{
	struct btf *btf;
	char *p;

	if (!len || ((const char *)data)[len - 1] || len >= BTF_MAX_STR_OFFSET)
		return NULL;
	btf = btf_new(NULL);
	if (!btf)
		return NULL;
	/* One copy, straight into the set: "" then the section. */
	p = btf_grow_mem((void **)&btf->strs->data, &btf->strs->cap, 1, btf->strs->len,
			 BTF_MAX_STR_OFFSET, len);
	if (!p) {
		btf__free(btf);
		return NULL;
	}
	memcpy(p, data, len);
	btf->strs->len += len;
	btf->strs->maybe_dups = true;
	return btf;
}

int btf_names_in(struct btf *btf, const char *lo, const char *hi)
{
	if (!btf->base || btf->base->base || btf->start_str_off != (size_t)(hi - lo) + 1)
		return -EINVAL;
	btf->names_lo = lo;
	btf->names_hi = hi;
	return 0;
}

int btf_names_in_base(struct btf *btf)
{
	const struct strset *strs = btf->base ? btf->base->strs : NULL;

	if (!strs || !strs->len)
		return -EINVAL;
	return btf_names_in(btf, strs->data + 1, strs->data + strs->len);
}

/* Own strings only: the base is not searched (btf_names_in()). */
static int add_own_str(struct btf *btf, const char *s)
{
	long off = strset__add_str(btf->strs, s);

	if (off < 0)
		return off;
	if (btf->start_str_off + (uint64_t)off > BTF_MAX_STR_OFFSET)
		return -E2BIG;
	return btf->start_str_off + off;
}

int btf_add_name(struct btf *btf, const char *name)
{
	if (!name)
		return 0;
	/*
	 * A name in the base's range is its offset there, its bytes unread:
	 * nothing else reads most of them, and the first byte alone was a
	 * cache miss per member (vmlinux: ~5% of the CPU).  An empty one
	 * becomes 0 where it is merged (btf_merge_str_cached()).
	 */
	if (name >= btf->names_lo && name < btf->names_hi)
		return name - btf->names_lo + 1;
	if (!name[0])
		return 0;
	return btf->names_lo ? add_own_str(btf, name) : btf__add_str(btf, name);
}

void btf_reserve_types(struct btf *btf, size_t bytes)
{
	size_t nr = bytes / sizeof(struct btf_type);

	/* Failure is harmless: the arrays grow as they would have. */
	if (btf->types_cap < bytes)
		btf_grow_mem(&btf->types, &btf->types_cap, 1, btf->types_len, UINT32_MAX,
			     bytes - btf->types_len);
	if (btf->type_offs_cap < nr)
		btf_grow_mem((void **)&btf->type_offs, &btf->type_offs_cap, sizeof(uint32_t),
			     btf->nr_types, BTF_MAX_NR_TYPES, nr - btf->nr_types);
}

void btf_defer_offsets(struct btf *btf)
{
	btf->offs_deferred = true;
}

int btf_merge_exact_start(struct btf *btf)
{
	if (!btf->exact)
		btf->exact = btf_exact_new();
	return btf->exact ? 0 : -ENOMEM;
}

const uint32_t *btf_merge_ids(const struct btf *btf)
{
	return btf->exact ? btf_exact_map(btf->exact) : NULL;
}

void btf_merge_exact_end(struct btf *btf, uint64_t *types, uint64_t *copies)
{
	*types = *copies = 0;
	if (btf->exact)
		btf_exact_counts(btf->exact, types, copies);
	btf_exact_free(btf->exact);
	btf->exact = NULL;
}

/* Types [from, to) of @btf, whose records start at @off and end at @end. */
struct index_part {
	struct btf *btf;
	uint32_t from, to;
	size_t off, end;
	int err;
};

static void *index_part(void *arg)
{
	struct index_part *p = arg;
	struct btf *btf = p->btf;
	size_t off = p->off;
	uint32_t i;

	/* Written in full: mapped in one call, as add_btf() did per CU. */
	btf_mem_populate(btf->type_offs + p->from, (p->to - p->from) * sizeof(uint32_t));
	for (i = p->from; i < p->to; i++) {
		const struct btf_type *t = (const struct btf_type *)((char *)btf->types + off);
		long sz = btf_record_size(t, btf->layout, p->end - off);

		if (sz < 0) {
			p->err = sz;
			return NULL;
		}
		btf->type_offs[i] = off;
		off += sz;
	}
	if (off != p->end)
		p->err = -EINVAL;
	return NULL;
}

/* Below this many types, one thread. */
#define INDEX_PARALLEL_MIN (1u << 16)

int btf_offs_reserve(struct btf *btf)
{
	if (btf->nr_types && !btf_grow_mem((void **)&btf->type_offs, &btf->type_offs_cap,
					   sizeof(uint32_t), 0, BTF_MAX_NR_TYPES, btf->nr_types))
		return -ENOMEM;
	return 0;
}

bool btf_offs_middle(const struct btf *btf, uint32_t *idx, size_t *off)
{
	size_t lo = 0, hi;
	uint64_t mark;

	if (btf->nr_offs_marks < 2)
		return false;
	/* The first merge past the middle type. */
	hi = btf->nr_offs_marks - 1;
	while (lo < hi) {
		size_t m = lo + (hi - lo) / 2;

		if (btf->offs_marks[m] >> 32 < btf->nr_types / 2)
			lo = m + 1;
		else
			hi = m;
	}
	mark = btf->offs_marks[lo];
	*idx = mark >> 32;
	*off = (uint32_t)mark;
	return *idx > 0 && *idx < btf->nr_types;
}

void btf_offs_found(struct btf *btf)
{
	free(btf->offs_marks);
	btf->offs_marks = NULL;
	btf->nr_offs_marks = btf->offs_marks_cap = 0;
	btf->offs_deferred = false;
}

int btf_index_types(struct btf *btf)
{
	struct index_part first = { btf, 0, btf->nr_types, 0, btf->types_len, 0 }, second;
	pthread_t th;
	bool threaded = false;
	int err;

	if (!btf->offs_deferred)
		return 0;
	if ((err = btf_offs_reserve(btf)))
		return err;
	second = first;
	if (btf->nr_types >= INDEX_PARALLEL_MIN &&
	    btf_offs_middle(btf, &second.from, &second.off)) {
		first.to = second.from;
		first.end = second.off;
		threaded = !pthread_create(&th, NULL, index_part, &second);
		if (!threaded) {
			first.to = btf->nr_types;
			first.end = btf->types_len;
		}
	}
	index_part(&first);
	if (threaded) {
		pthread_join(th, NULL);
		if (!first.err)
			first.err = second.err;
	}
	if (first.err)
		return first.err;
	btf_offs_found(btf);
	return 0;
}

int btf_commit_type(struct btf *btf, size_t size)
{
	uint32_t *off;
	int err;

	if (btf->offs_deferred && (err = btf_index_types(btf)))
		return err;

	if (btf->start_id + btf->nr_types > BTF_MAX_NR_TYPES)
		return -E2BIG;
	off = btf_reserve_mem((void **)&btf->type_offs, &btf->type_offs_cap, sizeof(uint32_t),
			      btf->nr_types, BTF_MAX_NR_TYPES, 1);
	if (!off)
		return -ENOMEM;
	*off = btf->types_len;
	btf->types_len += size;
	btf->nr_types++;
	return btf->start_id + btf->nr_types - 1;
}

struct btf_type *btf_last_type(struct btf *btf)
{
	if (!btf->nr_types)
		return NULL;
	return (struct btf_type *)((char *)btf->types + btf->type_offs[btf->nr_types - 1]);
}

/*
 * Builders accept forward references (an encoder emits a member before
 * the type it points to); btf__validate() checks ranges at the end.
 */
static bool id_ok(const struct btf *btf, int id)
{
	(void)btf;
	return id >= 0;
}

/* A record with just a header: @kind, @name, @type_or_size. */
static int add_simple(struct btf *btf, unsigned int kind, const char *name, bool kflag,
		      uint32_t type_or_size)
{
	struct btf_type *t;
	int name_off = btf_add_name(btf, name);

	if (name_off < 0)
		return name_off;
	t = btf_add_type_mem(btf, sizeof(*t));
	if (!t)
		return -ENOMEM;
	t->name_off = name_off;
	t->info = btf_type_info(kind, 0, kflag);
	t->size = type_or_size;
	return btf_commit_type(btf, sizeof(*t));
}

/*
 * Appends @size bytes of vlen item to the last type if it is @kind.
 * Inline: a constant @size makes the zeroing a few stores (6.8M members).
 */
static inline __attribute__((always_inline)) void *add_vlen_item(struct btf *btf, unsigned int kind, size_t size)
{
	struct btf_type *t = btf_last_type(btf);
	void *p;

	uint32_t max = btf->layout == BTF_LAYOUT_MERGED ? BTF_MAX_VLEN_MERGED : BTF_MAX_VLEN;

	if (!t || btf_kind(t) != kind || btf_vlen(t) == max)
		return NULL;
	p = btf_add_type_mem(btf, size);
	if (!p)
		return NULL;
	t = btf_last_type(btf);
	t->info = btf_type_info(kind, btf_vlen(t) + 1, btf_kflag(t));
	btf->types_len += size;
	return p;
}

int btf__add_int(struct btf *btf, const char *name, size_t byte_sz, int encoding)
{
	struct btf_type *t;
	int name_off;

	if (!name || !name[0] || !byte_sz || byte_sz > 16)
		return -EINVAL;
	if (encoding & ~(BTF_INT_SIGNED | BTF_INT_CHAR | BTF_INT_BOOL))
		return -EINVAL;
	name_off = btf_add_name(btf, name);
	if (name_off < 0)
		return name_off;
	t = btf_add_type_mem(btf, sizeof(*t) + sizeof(uint32_t));
	if (!t)
		return -ENOMEM;
	t->name_off = name_off;
	t->info = btf_type_info(BTF_KIND_INT, 0, 0);
	t->size = byte_sz;
	*(uint32_t *)(t + 1) = (uint32_t)encoding << 24 | (byte_sz * 8);
	return btf_commit_type(btf, sizeof(*t) + sizeof(uint32_t));
}

int btf__add_float(struct btf *btf, const char *name, size_t byte_sz)
{
	if (!name || !name[0])
		return -EINVAL;
	if (byte_sz != 2 && byte_sz != 4 && byte_sz != 8 && byte_sz != 12 && byte_sz != 16)
		return -EINVAL;
	return add_simple(btf, BTF_KIND_FLOAT, name, false, byte_sz);
}

static int add_ref(struct btf *btf, unsigned int kind, const char *name, int ref_type_id)
{
	if (!id_ok(btf, ref_type_id))
		return -EINVAL;
	return add_simple(btf, kind, name, false, ref_type_id);
}

int btf__add_ptr(struct btf *btf, int ref_type_id)
{
	return add_ref(btf, BTF_KIND_PTR, NULL, ref_type_id);
}

int btf__add_volatile(struct btf *btf, int ref_type_id)
{
	return add_ref(btf, BTF_KIND_VOLATILE, NULL, ref_type_id);
}

int btf__add_const(struct btf *btf, int ref_type_id)
{
	return add_ref(btf, BTF_KIND_CONST, NULL, ref_type_id);
}

int btf__add_restrict(struct btf *btf, int ref_type_id)
{
	return add_ref(btf, BTF_KIND_RESTRICT, NULL, ref_type_id);
}

int btf__add_typedef(struct btf *btf, const char *name, int ref_type_id)
{
	if (!name || !name[0])
		return -EINVAL;
	return add_ref(btf, BTF_KIND_TYPEDEF, name, ref_type_id);
}

int btf__add_type_tag(struct btf *btf, const char *value, int ref_type_id)
{
	if (!value || !value[0])
		return -EINVAL;
	return add_ref(btf, BTF_KIND_TYPE_TAG, value, ref_type_id);
}

int btf__add_type_attr(struct btf *btf, const char *value, int ref_type_id)
{
	if (!value || !value[0] || !id_ok(btf, ref_type_id))
		return -EINVAL;
	return add_simple(btf, BTF_KIND_TYPE_TAG, value, true, ref_type_id);
}

int btf__add_func(struct btf *btf, const char *name, enum btf_func_linkage linkage,
		  int proto_type_id)
{
	int id;

	if (!name || !name[0] || linkage > BTF_FUNC_EXTERN)
		return -EINVAL;
	id = add_ref(btf, BTF_KIND_FUNC, name, proto_type_id);
	if (id > 0) {
		struct btf_type *t = btf_last_type(btf);

		t->info = btf_type_info(BTF_KIND_FUNC, linkage, 0);
	}
	return id;
}

int btf__add_array(struct btf *btf, int index_type_id, int elem_type_id, uint32_t nr_elems)
{
	struct btf_type *t;
	struct btf_array *a;

	if (!id_ok(btf, index_type_id) || !id_ok(btf, elem_type_id))
		return -EINVAL;
	t = btf_add_type_mem(btf, sizeof(*t) + sizeof(*a));
	if (!t)
		return -ENOMEM;
	t->name_off = 0;
	t->info = btf_type_info(BTF_KIND_ARRAY, 0, 0);
	t->size = 0;
	a = btf_type_body(t);
	a->type = elem_type_id;
	a->index_type = index_type_id;
	a->nelems = nr_elems;
	return btf_commit_type(btf, sizeof(*t) + sizeof(*a));
}

int btf__add_struct(struct btf *btf, const char *name, uint32_t byte_sz)
{
	return add_simple(btf, BTF_KIND_STRUCT, name, false, byte_sz);
}

int btf__add_union(struct btf *btf, const char *name, uint32_t byte_sz)
{
	return add_simple(btf, BTF_KIND_UNION, name, false, byte_sz);
}

int btf__add_field(struct btf *btf, const char *name, int field_type_id, uint32_t bit_offset,
		   uint32_t bit_size)
{
	struct btf_type *t = btf_last_type(btf);
	struct btf_member *m;
	bool is_bitfield;
	int name_off;

	if (!t || (btf_kind(t) != BTF_KIND_STRUCT && btf_kind(t) != BTF_KIND_UNION))
		return -EINVAL;
	if (!id_ok(btf, field_type_id) || bit_size > 255)
		return -EINVAL;
	is_bitfield = bit_size || (bit_offset % 8 != 0);
	if (is_bitfield && bit_offset > 0xffffff)
		return -EINVAL;
	/* Once one member needs the bitfield encoding, all do: kflag=1. */
	if (is_bitfield && !btf_kflag(t)) {
		struct btf_member *old = btf_type_body(t);
		unsigned int i;

		for (i = 0; i < btf_vlen(t); i++)
			if (old[i].offset > 0xffffff)
				return -EINVAL;
		t->info |= 1u << 31;
	}
	name_off = btf_add_name(btf, name);
	if (name_off < 0)
		return name_off;
	m = add_vlen_item(btf, btf_kind(t), sizeof(*m));
	if (!m)
		return -ENOMEM;
	m->name_off = name_off;
	m->type = field_type_id;
	m->offset = bit_offset | (bit_size << 24);
	return 0;
}

int btf__add_enum(struct btf *btf, const char *name, uint32_t byte_sz)
{
	if (byte_sz != 1 && byte_sz != 2 && byte_sz != 4 && byte_sz != 8)
		return -EINVAL;
	return add_simple(btf, BTF_KIND_ENUM, name, false, byte_sz);
}

int btf__add_enum_value(struct btf *btf, const char *name, int64_t value)
{
	struct btf_type *t = btf_last_type(btf);
	struct btf_enum *e;
	int name_off;

	if (!t || btf_kind(t) != BTF_KIND_ENUM || !name || !name[0])
		return -EINVAL;
	if (value < INT32_MIN || value > UINT32_MAX)
		return -E2BIG;
	name_off = btf_add_name(btf, name);
	if (name_off < 0)
		return name_off;
	e = add_vlen_item(btf, BTF_KIND_ENUM, sizeof(*e));
	if (!e)
		return -ENOMEM;
	e->name_off = name_off;
	e->val = (int32_t)value;
	if (value < 0) {
		t = btf_last_type(btf);
		t->info |= 1u << 31;
	}
	return 0;
}

int btf__add_enum64(struct btf *btf, const char *name, uint32_t byte_sz, bool is_signed)
{
	if (byte_sz != 1 && byte_sz != 2 && byte_sz != 4 && byte_sz != 8)
		return -EINVAL;
	return add_simple(btf, BTF_KIND_ENUM64, name, is_signed, byte_sz);
}

int btf__add_enum64_value(struct btf *btf, const char *name, uint64_t value)
{
	struct btf_type *t = btf_last_type(btf);
	struct btf_enum64 *e;
	int name_off;

	if (!t || btf_kind(t) != BTF_KIND_ENUM64 || !name || !name[0])
		return -EINVAL;
	name_off = btf_add_name(btf, name);
	if (name_off < 0)
		return name_off;
	e = add_vlen_item(btf, BTF_KIND_ENUM64, sizeof(*e));
	if (!e)
		return -ENOMEM;
	e->name_off = name_off;
	e->val_lo32 = (uint32_t)value;
	e->val_hi32 = value >> 32;
	return 0;
}

int btf__add_fwd(struct btf *btf, const char *name, enum btf_fwd_kind fwd_kind)
{
	if (!name || !name[0])
		return -EINVAL;
	switch (fwd_kind) {
	case BTF_FWD_STRUCT:
	case BTF_FWD_UNION:
		return add_simple(btf, BTF_KIND_FWD, name, fwd_kind == BTF_FWD_UNION, 0);
	case BTF_FWD_ENUM:
		/* A forward enum is an ENUM with no values, as in libbpf. */
		return btf__add_enum(btf, name, sizeof(int));
	}
	return -EINVAL;
}

int btf__add_func_proto(struct btf *btf, int ret_type_id)
{
	return add_ref(btf, BTF_KIND_FUNC_PROTO, NULL, ret_type_id);
}

int btf__add_func_param(struct btf *btf, const char *name, int type_id)
{
	struct btf_param *p;
	int name_off;

	if (!id_ok(btf, type_id))
		return -EINVAL;
	name_off = btf_add_name(btf, name);
	if (name_off < 0)
		return name_off;
	p = add_vlen_item(btf, BTF_KIND_FUNC_PROTO, sizeof(*p));
	if (!p)
		return -EINVAL;
	p->name_off = name_off;
	p->type = type_id;
	return 0;
}

int btf__add_var(struct btf *btf, const char *name, int linkage, int type_id)
{
	struct btf_type *t;
	int name_off;

	if (!name || !name[0] || linkage < BTF_VAR_STATIC || linkage > BTF_VAR_GLOBAL_EXTERN)
		return -EINVAL;
	if (!id_ok(btf, type_id))
		return -EINVAL;
	name_off = btf_add_name(btf, name);
	if (name_off < 0)
		return name_off;
	t = btf_add_type_mem(btf, sizeof(*t) + sizeof(struct btf_var));
	if (!t)
		return -ENOMEM;
	t->name_off = name_off;
	t->info = btf_type_info(BTF_KIND_VAR, 0, 0);
	t->type = type_id;
	((struct btf_var *)(t + 1))->linkage = linkage;
	return btf_commit_type(btf, sizeof(*t) + sizeof(struct btf_var));
}

int btf__add_datasec(struct btf *btf, const char *name, uint32_t byte_sz)
{
	if (!name || !name[0])
		return -EINVAL;
	return add_simple(btf, BTF_KIND_DATASEC, name, false, byte_sz);
}

int btf__add_datasec_var_info(struct btf *btf, int var_type_id, uint32_t offset, uint32_t byte_sz)
{
	struct btf_var_secinfo *v;

	if (!id_ok(btf, var_type_id))
		return -EINVAL;
	v = add_vlen_item(btf, BTF_KIND_DATASEC, sizeof(*v));
	if (!v)
		return -EINVAL;
	v->type = var_type_id;
	v->offset = offset;
	v->size = byte_sz;
	return 0;
}

int btf__add_decl_tag(struct btf *btf, const char *value, int ref_type_id, int component_idx)
{
	struct btf_type *t;
	int name_off;

	if (!value || !value[0] || component_idx < -1 || !id_ok(btf, ref_type_id))
		return -EINVAL;
	name_off = btf_add_name(btf, value);
	if (name_off < 0)
		return name_off;
	t = btf_add_type_mem(btf, sizeof(*t) + sizeof(struct btf_decl_tag));
	if (!t)
		return -ENOMEM;
	t->name_off = name_off;
	t->info = btf_type_info(BTF_KIND_DECL_TAG, 0, 0);
	t->type = ref_type_id;
	((struct btf_decl_tag *)(t + 1))->component_idx = component_idx;
	return btf_commit_type(btf, sizeof(*t) + sizeof(struct btf_decl_tag));
}

int btf__add_loc_param(struct btf *btf, int32_t size, bool is_value, uint64_t value, uint16_t reg,
		       uint16_t flags, int32_t offset)
{
	int32_t abs_sz = size < 0 ? -size : size;
	struct btf_loc_param *p;
	struct btf_type *t;

	if (abs_sz != 1 && abs_sz != 2 && abs_sz != 4 && abs_sz != 8)
		return -EINVAL;
	if (btf->layout != BTF_LAYOUT_SEED)
		return -EINVAL;
	t = btf_add_type_mem(btf, sizeof(*t) + sizeof(*p));
	if (!t)
		return -ENOMEM;
	t->name_off = 0;
	t->info = btf_type_info(BTF_KIND_LOC_PARAM, 0, is_value);
	t->size = (uint32_t)size;
	p = btf_type_body(t);
	if (is_value) {
		p->val_lo32 = (uint32_t)value;
		p->val_hi32 = value >> 32;
	} else {
		p->reg = reg;
		p->flags = flags;
		p->offset = offset;
	}
	return btf_commit_type(btf, sizeof(*t) + sizeof(*p));
}

int btf__add_loc_proto(struct btf *btf)
{
	return add_simple(btf, BTF_KIND_LOC_PROTO, NULL, false, 0);
}

int btf__add_loc_proto_param(struct btf *btf, uint32_t id)
{
	uint32_t *p;

	if (!id_ok(btf, (int)id))
		return -EINVAL;
	p = add_vlen_item(btf, BTF_KIND_LOC_PROTO, sizeof(*p));
	if (!p)
		return -EINVAL;
	*p = id;
	return 0;
}

int btf__add_locsec(struct btf *btf, const char *name)
{
	return add_simple(btf, BTF_KIND_LOCSEC, name, false, 0);
}

int btf__add_locsec_loc(struct btf *btf, const char *name, uint32_t func_proto, uint32_t loc_proto,
			uint32_t offset)
{
	struct btf_type *t = btf_last_type(btf);
	struct btf_loc *l;
	int name_off;

	if (!t || btf_kind(t) != BTF_KIND_LOCSEC || !name || !name[0] ||
	    btf->layout != BTF_LAYOUT_SEED)
		return -EINVAL;
	if (!id_ok(btf, (int)func_proto) || !id_ok(btf, (int)loc_proto))
		return -EINVAL;
	name_off = btf_add_name(btf, name);
	if (name_off < 0)
		return name_off;
	l = add_vlen_item(btf, BTF_KIND_LOCSEC, sizeof(*l));
	if (!l)
		return -E2BIG;
	l->name_off = name_off;
	l->func_proto = func_proto;
	l->loc_proto = loc_proto;
	l->offset = offset;
	return 0;
}

int btf__add_loc_param_merged(struct btf *btf, uint32_t size, uint32_t flags,
			      const uint32_t *values, unsigned int n)
{
	size_t sz = sizeof(struct btf_type) + sizeof(struct btf_loc_param_merged) + n * 4;
	struct btf_loc_param_merged *p;
	struct btf_type *t;

	if (btf->layout != BTF_LAYOUT_MERGED || (n && !values) ||
	    btf_loc_param_merged_check(size, flags, n))
		return -EINVAL;
	t = btf_add_type_mem(btf, sz);
	if (!t)
		return -ENOMEM;
	t->name_off = 0;
	t->info = btf_type_info(BTF_KIND_LOC_PARAM, n, false);
	t->size = size;
	p = btf_type_body(t);
	p->flags = flags;
	if (n)
		memcpy(p->values, values, n * 4);
	return btf_commit_type(btf, sz);
}

int btf__add_locsec_loc_merged(struct btf *btf, uint32_t func, uint32_t loc_proto,
			       uint32_t offset)
{
	struct btf_type *t = btf_last_type(btf);
	struct btf_loc_merged *l;

	if (!t || btf_kind(t) != BTF_KIND_LOCSEC || btf->layout != BTF_LAYOUT_MERGED)
		return -EINVAL;
	if (!id_ok(btf, (int)func) || !id_ok(btf, (int)loc_proto))
		return -EINVAL;
	l = add_vlen_item(btf, BTF_KIND_LOCSEC, sizeof(*l));
	if (!l)
		return -E2BIG;
	l->func = func;
	l->loc_proto = loc_proto;
	l->offset = offset;
	return 0;
}

struct add_btf_ctx {
	struct btf *dst;
	const struct btf *src;
	uint32_t id_delta;
	/* Or, leaving out copies: local index -> id (btf_exact_map()). */
	const uint32_t *id_map;
	/*
	 * dst offset + 1 of each src-owned string offset already added: names
	 * repeat far more often than they are distinct, so each distinct
	 * string is hashed once.
	 */
	uint32_t *str_map;
	struct btf_off_map *base_map; /* the same for the base's strings, or NULL */
	/* Or: the base's strings are dst's too; each one in use gets its bit. */
	uint64_t *base_seen;
	/*
	 * The bits set for the types appended only: a copy left out has the
	 * names of the type it is a copy of (add_btf_exact()).
	 */
	bool marks_later;
};

static size_t off_slot(const struct btf_off_map *m, uint32_t key)
{
	return ((uint64_t)key * 0x9e3779b97f4a7c15ull >> 32) & m->mask;
}

/* The value of @key, or -1. */
long btf_off_map_get(struct btf_off_map *m, uint32_t key)
{
	uint64_t want = (uint64_t)(key + 1) << 32;
	size_t pos;

	m->lookups++;
	if (!m->slots)
		return -1;
	for (pos = off_slot(m, key); m->slots[pos]; pos = (pos + 1) & m->mask)
		if ((m->slots[pos] & ~0xffffffffull) == want)
			return (uint32_t)m->slots[pos];
	return -1;
}

int btf_off_map_put(struct btf_off_map *m, uint32_t key, uint32_t val)
{
	size_t pos, i, cap;

	if (!m->slots || (m->cnt + 1) * 2 > m->mask + 1) {
		struct btf_off_map n = {};

		cap = m->slots ? (m->mask + 1) * 2 : 65536;
		n.slots = calloc(cap, sizeof(*n.slots));
		if (!n.slots)
			return -ENOMEM;
		n.mask = cap - 1;
		for (i = 0; m->slots && i <= m->mask; i++) {
			if (!m->slots[i])
				continue;
			for (pos = off_slot(&n, (m->slots[i] >> 32) - 1); n.slots[pos];
			     pos = (pos + 1) & n.mask)
				;
			n.slots[pos] = m->slots[i];
		}
		free(m->slots);
		m->slots = n.slots;
		m->mask = n.mask;
	}
	for (pos = off_slot(m, key); m->slots[pos]; pos = (pos + 1) & m->mask)
		;
	m->slots[pos] = (uint64_t)(key + 1) << 32 | val;
	m->cnt++;
	return 0;
}

/*
 * Counts a miss of @m; true when the map has just been dropped.  An offset
 * of xfs.ko's .debug_str is looked up ~1.1 times (457K strings, 24K
 * distinct): the map grew to 1M slots, missing the cache, and cost a
 * fifth of the module's CPU.  vmlinux's: 7.2M lookups, 49K misses.
 */
static bool off_map_missed(struct btf_off_map *m)
{
	if (++m->misses * 2 <= m->lookups || m->lookups < (1u << 16))
		return false;
	free(m->slots);
	m->slots = NULL;
	m->mask = m->cnt = 0;
	m->off = true;
	return true;
}

void btf_off_map_free(struct btf_off_map *m)
{
	free(m->slots);
	memset(m, 0, sizeof(*m));
}

static int remap_id(uint32_t *id, void *arg)
{
	struct add_btf_ctx *c = arg;

	*id = btf_merged_id(c->id_map, c->src->start_id, c->src->nr_types, c->id_delta, *id);
	return 0;
}

long btf_merge_str_cached(struct btf *dst, const struct btf *src, uint32_t off,
			  struct btf_off_map *base_map)
{
	bool in_base = base_map && !base_map->off && src->base && !src->base->base && off &&
		       off < src->start_str_off;
	const char *s;
	long got;
	int new_off;

	if (in_base && (got = btf_off_map_get(base_map, off)) >= 0)
		return got;
	if (in_base && off_map_missed(base_map))
		in_base = false;
	s = btf__str_by_offset(src, off);
	if (!s)
		return -EINVAL;
	new_off = btf__add_str(dst, s);
	if (new_off < 0)
		return new_off;
	if (in_base && btf_off_map_put(base_map, off, new_off))
		return -ENOMEM;
	return new_off;
}

/* The bit of a base string in use (c->base_seen). */
static int mark_base_str(uint32_t *off, void *arg)
{
	struct add_btf_ctx *c = arg;

	if (*off && *off < c->src->start_str_off)
		c->base_seen[*off / 64] |= 1ull << (*off % 64);
	return 0;
}

static int remap_str(uint32_t *off, void *arg)
{
	struct add_btf_ctx *c = arg;
	uint32_t own = *off - c->src->start_str_off;
	bool cached = *off >= c->src->start_str_off && own < c->src->strs->len;
	long new_off;

	if (!*off)
		return 0;
	if (c->base_seen && *off < c->src->start_str_off) {
		if (!c->marks_later)
			mark_base_str(off, c);
		return 0;
	}
	if (cached && c->str_map[own]) {
		*off = c->str_map[own] - 1;
		return 0;
	}
	new_off = btf_merge_str_cached(c->dst, c->src, *off, c->base_map);
	if (new_off < 0)
		return new_off;
	if (cached)
		c->str_map[own] = new_off + 1;
	*off = new_off;
	return 0;
}

/*
 * Room for @len more bytes of records and @nr more types, mapped for
 * writing.  Every byte is written next: no zeroing (vmlinux: 130 MB).
 */
static int reserve_records(struct btf *dst, size_t len, uint32_t nr)
{
	if (!btf_grow_mem(&dst->types, &dst->types_cap, 1, dst->types_len, UINT32_MAX, len))
		return -ENOMEM;
	if (dst->offs_deferred && nr) {
		uint64_t *mark = btf_add_mem((void **)&dst->offs_marks, &dst->offs_marks_cap,
					     sizeof(*mark), dst->nr_offs_marks, SIZE_MAX, 1);

		/* The records' offsets fit in 32 bits (btf_grow_mem() above). */
		if (!mark)
			return -ENOMEM;
		*mark = (uint64_t)dst->nr_types << 32 | dst->types_len;
		dst->nr_offs_marks++;
	} else if (!dst->offs_deferred &&
		   !btf_grow_mem((void **)&dst->type_offs, &dst->type_offs_cap, sizeof(uint32_t),
				 dst->nr_types, BTF_MAX_NR_TYPES, nr)) {
		return -ENOMEM;
	}
	btf_mem_populate((char *)dst->types + dst->types_len, len);
	if (!dst->offs_deferred)
		btf_mem_populate(dst->type_offs + dst->nr_types, nr * sizeof(uint32_t));
	return 0;
}

/* The size of @st, a record of @c's source, if @c's destination can take it. */
static long record_fits(const struct add_btf_ctx *c, const struct btf_type *st)
{
	long sz = btf_type_size_layout(st, c->src->layout);

	/* A location record means something else in the other layout. */
	if (sz < 0 || (btf_kind(st) >= BTF_KIND_LOC_PARAM && c->src->layout != c->dst->layout))
		return -EINVAL;
	return sz;
}

/* Appends @st, @sz bytes, its ids mapped (and its names, unless @names_done). */
static int append_record(struct add_btf_ctx *c, const struct btf_type *st, long sz, bool names_done)
{
	struct btf *dst = c->dst;
	struct btf_type *t = (struct btf_type *)((char *)dst->types + dst->types_len);
	int err;

	memcpy(t, st, sz);
	err = btf_type_visit_type_ids(t, c->src->layout, remap_id, c);
	if (!err && !names_done)
		err = btf_type_visit_str_offs(t, c->src->layout, remap_str, c);
	if (err)
		return err;
	if (!dst->offs_deferred)
		dst->type_offs[dst->nr_types] = dst->types_len;
	dst->nr_types++;
	dst->types_len += sz;
	return 0;
}

/*
 * The source's records with their names mapped go to exact.c's buffer
 * first; the types that are no copy of an earlier merge's then follow.
 * Only their base strings are marked in use: the names a copy has are
 * its original's (an own string never maps below the base's end, so a
 * base offset in a copy is one in its original), marked with it.
 */
static int add_btf_exact(struct add_btf_ctx *c)
{
	const struct btf *src = c->src;
	struct btf *dst = c->dst;
	struct btf_exact *x = dst->exact;
	char *recs = btf_exact_begin(x, src->types_len, src->nr_types);
	uint32_t *offs = btf_exact_offs(x), first_id = btf__type_cnt(dst), nr_new, i;
	size_t off = 0, start = dst->types_len;
	long sz, len;
	int err;

	if (!recs)
		return -ENOMEM;
	c->marks_later = c->base_seen;
	for (i = 0; i < src->nr_types; i++) {
		const struct btf_type *st = btf__type_by_id(src, src->start_id + i);

		sz = record_fits(c, st);
		if (sz < 0)
			return sz;
		memcpy(recs + off, st, sz);
		err = btf_type_visit_str_offs((struct btf_type *)(recs + off), src->layout,
					      remap_str, c);
		if (err)
			return err;
		offs[i] = off;
		off += sz;
	}
	offs[i] = off;
	len = btf_exact_plan(x, dst, src->start_id, src->layout, &nr_new);
	if (len < 0)
		return len;
	if ((err = reserve_records(dst, len, nr_new)))
		return err;
	c->id_map = btf_exact_map(x);
	for (i = 0; i < src->nr_types; i++) {
		const struct btf_type *t = (const struct btf_type *)(recs + offs[i]);

		if (c->id_map[i] < first_id)
			continue;
		err = append_record(c, t, offs[i + 1] - offs[i], true);
		if (!err && c->base_seen)
			err = btf_type_visit_str_offs((struct btf_type *)t, src->layout,
						      mark_base_str, c);
		if (err)
			return err;
	}
	btf_exact_register(x, dst, start);
	return 0;
}

static int add_btf(struct btf *dst, const struct btf *src, bool all_strs,
		   struct btf_off_map *base_map, uint64_t *base_seen, bool exact)
{
	size_t old_len = dst->types_len;
	uint32_t old_nr = dst->nr_types, i;
	struct add_btf_ctx c = { dst, src, 0, NULL, NULL, base_map, base_seen };
	int first_id = btf__type_cnt(dst);
	int err = 0;

	c.id_delta = first_id - src->start_id;
	if (!src->nr_types)
		return first_id;
	c.str_map = calloc(src->strs->len ? src->strs->len : 1, sizeof(*c.str_map));
	if (!c.str_map)
		return -ENOMEM;
	if (all_strs && (err = strset__add_all(dst->strs, src->strs, c.str_map)))
		goto fail;
	if (exact && dst->exact) {
		err = add_btf_exact(&c);
		if (err)
			goto fail;
		free(c.str_map);
		return first_id;
	}
	if ((err = reserve_records(dst, src->types_len, src->nr_types)))
		goto fail;
	for (i = 0; i < src->nr_types; i++) {
		const struct btf_type *st = btf__type_by_id(src, src->start_id + i);
		long sz = record_fits(&c, st);

		err = sz < 0 ? sz : append_record(&c, st, sz, false);
		if (err)
			goto fail;
	}
	free(c.str_map);
	return first_id;
fail:
	free(c.str_map);
	/* Drop the types appended; strings already added stay, unreferenced. */
	dst->types_len = old_len;
	dst->nr_types = old_nr;
	return err;
}

int btf__add_btf(struct btf *dst, const struct btf *src)
{
	return add_btf(dst, src, false, NULL, NULL, false);
}

int btf_merge_btf(struct btf *dst, const struct btf *src)
{
	return add_btf(dst, src, !dst->base && !src->base && !src->start_str_off, NULL, NULL, true);
}

int btf_merge_btf_cached(struct btf *dst, const struct btf *src, struct btf_off_map *base_map)
{
	if (!src->base || src->base->base)
		return -EINVAL;
	return add_btf(dst, src, false, base_map, NULL, true);
}

/* @dst's table becomes a copy of the strings-only @base's, first thing. */
static int adopt_strs(struct btf *dst, const struct btf *base, struct btf_str_marks *m)
{
	struct strset *set;

	if (dst->base || dst->nr_types || dst->strs->len != 1 || base->nr_types)
		return -EINVAL;
	set = strset__new_prefix(base->strs->data, base->strs->len);
	m->seen = calloc(base->strs->len / 64 + 1, sizeof(*m->seen));
	if (!set || !m->seen) {
		strset__free(set);
		free(m->seen);
		m->seen = NULL;
		return -ENOMEM;
	}
	strset__free(dst->strs);
	dst->strs = set;
	m->base = base;
	m->len = base->strs->len;
	return 0;
}

int btf_merge_btf_same_strs(struct btf *dst, const struct btf *src, struct btf_str_marks *m)
{
	int err;

	if (!src->base || src->base->base || (m->base && m->base != src->base))
		return -EINVAL;
	if (!m->base && (err = adopt_strs(dst, src->base, m)))
		return err;
	return add_btf(dst, src, false, NULL, m->seen, true);
}

/* Adds @s to @seen; 1 if it was there already (a string in use twice). */
static int note_str(struct strset *seen, const char *s)
{
	size_t len = seen->len;
	long got = strset__add_str(seen, s);

	return got < 0 ? got : seen->len == len;
}

struct empty_names {
	const char *data;
	size_t len;
};

static int zero_empty(uint32_t *off, void *arg)
{
	const struct empty_names *e = arg;

	if (*off && *off < e->len && !e->data[*off])
		*off = 0;
	return 0;
}

/*
 * Each string in use once into a scratch set: the base's marked ones,
 * then every string added after them (each was added for a name:
 * btf_merge_btf_same_strs() adds nothing else).  A marked name that is
 * empty (a .debug_str string cut to "") kept its offset, the merge
 * reading no string: it becomes 0, as btf_merge_str_cached() makes it,
 * and validates.
 */
int btf_merge_strs_checked(struct btf *btf, struct btf_str_marks *m)
{
	struct strset *set = btf->strs, *seen = NULL;
	struct empty_names e = { set->data, m->len };
	bool empty = false;
	size_t i, off;
	uint32_t id;
	uint64_t w;
	int dup = 0, err;

	if (!m->base)
		goto out;
	if (set->index_from != m->len || set->len < m->len) {
		dup = -EINVAL;
		goto out;
	}
	seen = strset__new("", 1);
	if (!seen) {
		dup = -ENOMEM;
		goto out;
	}
	for (i = 0; i <= m->len / 64; i++)
		for (w = m->seen[i]; w; w &= w - 1) {
			off = i * 64 + __builtin_ctzll(w);
			if (!set->data[off])
				empty = true;
			else if (!dup)
				dup = note_str(seen, set->data + off);
		}
	for (off = m->len; off < set->len && !dup; off += strlen(set->data + off) + 1)
		dup = note_str(seen, set->data + off);
	/* Rare (a .debug_str string cut to ""): the offsets are needed here. */
	if (empty && (err = btf_index_types(btf))) {
		dup = err;
		goto out;
	}
	for (id = btf->start_id; empty && id < btf__type_cnt(btf); id++)
		btf_type_visit_str_offs(btf__type_by_id_mut(btf, id), btf->layout, zero_empty, &e);
	/* Else the dedup's string phase runs: it compares the bytes. */
	if (!dup)
		set->maybe_dups = false;
out:
	strset__free(seen);
	free(m->seen);
	memset(m, 0, sizeof(*m));
	return dup < 0 ? dup : 0;
}
