// SPDX-License-Identifier: GPL-2.0
/*
 * dedup.c - BTF deduplication with libbpf's btf__dedup() semantics (the
 * libbpf 1.1 flavour), extended to the location kinds.
 *
 * Phases, each over the types this BTF owns, in id order:
 *
 * 1. Strings: every string offset is rewritten into a fresh string table
 *    holding only referenced strings in first-use order; strings the base
 *    chain already has point there.  Afterwards equal name offsets mean
 *    equal names, so no later phase compares string bytes.
 * 2. Primitives (INT, FLOAT, FWD, ENUM, ENUM64, LOC_PARAM): exact match
 *    against canonical candidates of the same hash.  An ENUM without values
 *    (a forward enum) and a full ENUM of the same name, kind, size and
 *    signedness are compatible: the forward one maps to the full one.
 * 3. STRUCT/UNION: for each candidate with the same shallow shape, a
 *    side-by-side DFS of both type graphs builds a hypothetical map from
 *    canonical-graph ids to candidate-graph ids; a contradiction (one
 *    canonical type mapped to two candidates) means "not equivalent".
 *    A FWD in either graph matches a STRUCT/UNION of its name and kind;
 *    when the graphs are equivalent such pairs become permanent FWD ->
 *    STRUCT/UNION mappings.  Example, two CUs:
 *        CU1: struct S; struct A { struct S *s; };
 *        CU2: struct S { int x; }; struct A { struct S *s; };
 *    CU2's A is checked against CU1's A; the walk pairs FWD S with
 *    STRUCT S, so both A's merge and FWD S resolves to CU2's S.
 *    Then a FWD still unresolved takes the one canonical STRUCT/UNION of
 *    its name and kind, when that name is unique (libbpf 1.1 does so).
 *    With opts->jobs >= 2 the comparisons run on two threads in rounds
 *    (dedup_rounds.c), with the same result.
 * 4. Reference kinds (PTR, TYPEDEF, modifiers, TYPE_TAG, ARRAY, FUNC,
 *    FUNC_PROTO, DECL_TAG, LOC_PROTO): depth-first, referenced ids are
 *    first replaced by their canonical ids, then the type is compared
 *    exactly (ids included).  C has no cycle that avoids a struct, and
 *    structs are final by now, so the recursion ends.  Where a cut
 *    splits the ids (no type before it refers to it or beyond), the two
 *    halves run on two threads, with the same result (dedup_refs()).
 * 5. Compaction: canonical types are kept in their original order.
 * 6. Remapping: every id field is rewritten to the kept type's new id.
 *
 * VAR, DATASEC and LOCSEC are never merged; only their references move.
 * Base types (split BTF) are canonical by definition and never change.
 *
 * The work happens on copies of the type records and a new string set;
 * the BTF is only touched once everything succeeded.  With in_place the
 * BTF's own records are the working copy (no all-or-nothing, half the
 * memory).
 *
 * Run ahead (btf_dedup_feed(), in place only), phases 1-3 take the types
 * appended since the last feed, while the BTF is still being built.  That
 * gives the same maps as running each phase over all types, because:
 *   - phases 1 and 2 look at nothing but the type at hand and the
 *     canonical types of its kind before it;
 *   - phase 3 walks the graph of the type at hand, which refers to types
 *     already fed, and canonical graphs before it;
 *   - candidates of one hash are tried in insertion order, and those of
 *     one kind were inserted in id order either way.
 * The one exception is a forward ENUM that a later full ENUM resolves
 * (phase 2): run over all types, phase 3 sees that resolution for every
 * type, fed ahead it would not for the types fed before.  If it happens,
 * phases 2 and 3 run again over all types at the end.
 */
#include "dedup_internal.h"

#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>

/* A rewind's log beyond this many entries (8 MB) gives way to a full redo. */
#define UNDO_MAX (1u << 20)

/* A dedup running ahead (btf_dedup_new()). */
struct btf_dedup {
	struct dedup d;
};

static uint64_t hmix(uint64_t h, uint64_t v)
{
	h = (h ^ v) * 0x9e3779b97f4a7c15ull;
	return h ^ (h >> 31);
}

/* ---- candidate table ---- */

/* Slot of hash @h: a full avalanche, so nearby hashes spread out. */
static size_t slot_of(uint64_t h, size_t mask)
{
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdull;
	h ^= h >> 33;
	h *= 0xc4ceb9fe1a85ec53ull;
	h ^= h >> 33;
	return h & mask;
}

static void slot_put(struct cand_slot *slots, size_t mask, struct cand_slot e)
{
	size_t pos = slot_of(e.hash, mask);

	while (slots[pos].id)
		pos = (pos + 1) & mask;
	slots[pos] = e;
}

static int table_rehash(struct cand_table *tab, size_t nr_slots)
{
	struct cand_slot *slots = calloc(nr_slots, sizeof(*slots));
	size_t i;

	if (!slots)
		return -ENOMEM;
	btf_mem_huge(slots, nr_slots * sizeof(*slots));
	for (i = 0; i < tab->cnt; i++)
		slot_put(slots, nr_slots - 1, tab->entries[i]);
	free(tab->slots);
	tab->slots = slots;
	tab->mask = nr_slots - 1;
	return 0;
}

int dedup_table_add(struct cand_table *tab, uint64_t h, uint32_t id)
{
	struct cand_slot e = { h, id };

	if (tab->cnt == tab->cap) {
		size_t cap = tab->cap ? tab->cap * 2 : 1024;
		struct cand_slot *entries = realloc(tab->entries, cap * sizeof(*entries));

		if (!entries)
			return -ENOMEM;
		btf_mem_huge(entries, cap * sizeof(*entries));
		tab->entries = entries;
		tab->cap = cap;
	}
	/* Keep the load factor at most 1/2. */
	if (!tab->slots || (tab->cnt + 1) * 2 > tab->mask + 1) {
		int err = table_rehash(tab, tab->slots ? (tab->mask + 1) * 2 : 2048);

		if (err)
			return err;
	}
	tab->entries[tab->cnt++] = e;
	slot_put(tab->slots, tab->mask, e);
	return 0;
}

void dedup_table_free(struct cand_table *tab)
{
	free(tab->entries);
	free(tab->slots);
	memset(tab, 0, sizeof(*tab));
}

/* Start position of the probe for hash @h. */
static size_t cand_first(const struct cand_table *tab, uint64_t h)
{
	return tab->slots ? slot_of(h, tab->mask) : 0;
}

/* Next candidate id of hash @h from *@pos on; 0 when there are no more. */
static uint32_t cand_next(const struct cand_table *tab, uint64_t h, size_t *pos)
{
	if (!tab->slots)
		return 0;
	while (tab->slots[*pos].id) {
		const struct cand_slot *e = &tab->slots[*pos];

		*pos = (*pos + 1) & tab->mask;
		if (e->hash == h)
			return e->id;
	}
	return 0;
}

bool dedup_table_has(const struct cand_table *tab, uint64_t h)
{
	size_t pos = cand_first(tab, h);

	return cand_next(tab, h, &pos);
}

#define for_each_cand(tab, h, pos, id)                                                             \
	for (pos = cand_first(tab, h); (id = cand_next(tab, h, &pos));)

/*
 * The candidates of a dedup: the base's, all inserted before any own
 * type, then the own ones.  Iterating the two tables in that order is
 * the insertion order of one table holding both.
 */
struct cand_iter {
	const struct cand_table *tab[3];
	unsigned int cur;
	unsigned int nr;
	size_t pos;
};

/* @more: a round's own candidates (phase 3 on two threads), after all others. */
static void cand_iter_init(struct cand_iter *it, const struct cand_table *base,
			   const struct cand_table *own, const struct cand_table *more, uint64_t h)
{
	it->nr = 0;
	if (base)
		it->tab[it->nr++] = base;
	it->tab[it->nr++] = own;
	if (more)
		it->tab[it->nr++] = more;
	it->cur = 0;
	it->pos = cand_first(it->tab[0], h);
}

static uint32_t cand_iter_next(struct cand_iter *it, uint64_t h)
{
	uint32_t id;

	for (;;) {
		id = cand_next(it->tab[it->cur], h, &it->pos);
		if (id || it->cur + 1 == it->nr)
			return id;
		it->pos = cand_first(it->tab[++it->cur], h);
	}
}

#define for_each_dedup_cand(d, h, it, id)                                                          \
	for (cand_iter_init(&it, (d)->base_tab, &(d)->tab, NULL, h); (id = cand_iter_next(&it, h));)

/* ---- signatures: hashes and comparisons on string-deduped records ---- */

static uint64_t hash_common(const struct btf_type *t)
{
	uint64_t h = hmix(0, t->name_off);

	h = hmix(h, t->info);
	return hmix(h, t->size);
}

static bool equal_common(const struct btf_type *a, const struct btf_type *b)
{
	return a->name_off == b->name_off && a->info == b->info && a->size == b->size;
}

/* INT and DECL_TAG: the header plus one u32. */
static uint64_t hash_int_tag(const struct btf_type *t)
{
	return hmix(hash_common(t), *(const uint32_t *)btf_type_body(t));
}

static bool equal_int_tag(const struct btf_type *a, const struct btf_type *b)
{
	return equal_common(a, b) &&
	       *(const uint32_t *)btf_type_body(a) == *(const uint32_t *)btf_type_body(b);
}

/*
 * Vlen and values are left out so that a forward enum meets its
 * definition.  C has no anonymous forward enum, so an anonymous enum
 * hashes its values too: the kernel's thousands of anonymous enums would
 * otherwise share one hash (see docs/dedup-differences.md).
 */
static uint64_t hash_enum(const struct btf_type *t)
{
	const uint32_t *w = btf_type_body(t);
	size_t i, n = 0;
	uint64_t h = hmix(0, t->name_off);

	h = hmix(h, t->info & ~0xffffu);
	h = hmix(h, t->size);
	if (t->name_off)
		return h;
	n = btf_vlen(t) * (btf_kind(t) == BTF_KIND_ENUM ? 2 : 3);
	for (i = 0; i < n; i++)
		h = hmix(h, w[i]);
	return hmix(h, btf_vlen(t));
}

static bool equal_enum(const struct btf_type *a, const struct btf_type *b)
{
	unsigned int n = btf_vlen(a);

	if (!equal_common(a, b))
		return false;
	if (btf_kind(a) == BTF_KIND_ENUM)
		return !memcmp(btf_type_body(a), btf_type_body(b), n * sizeof(struct btf_enum));
	return !memcmp(btf_type_body(a), btf_type_body(b), n * sizeof(struct btf_enum64));
}

static bool is_enum_fwd(const struct btf_type *t)
{
	unsigned int kind = btf_kind(t);

	return (kind == BTF_KIND_ENUM || kind == BTF_KIND_ENUM64) && btf_vlen(t) == 0;
}

static bool compat_enum(const struct btf_type *a, const struct btf_type *b)
{
	if (!is_enum_fwd(a) && !is_enum_fwd(b))
		return equal_enum(a, b);
	return a->name_off == b->name_off && (a->info & ~0xffffu) == (b->info & ~0xffffu) &&
	       a->size == b->size;
}

/*
 * What an equivalent member type must share: kinds only ever resolve
 * FWD -> STRUCT/UNION or ENUM -> ENUM of the same name, so the name and
 * the kind up to that folding are invariant under phase 3's equivalence.
 */
static uint64_t member_sig(const struct dedup *d, uint32_t id)
{
	const struct btf_type *t = tp(d, id);
	unsigned int kind = btf_kind(t);

	if (kind == BTF_KIND_FWD || kind == BTF_KIND_UNION)
		kind = BTF_KIND_STRUCT;
	return ((uint64_t)kind << 32) | t->name_off;
}

/*
 * Member ids are left out (they may not be canonical yet), but their
 * invariant signature goes in: without it, the kernel's many anonymous
 * unions of anonymous members would all share one hash.
 */
static uint64_t hash_struct(const struct dedup *d, const struct btf_type *t)
{
	const struct btf_member *m = btf_type_body(t);
	unsigned int i, n = btf_vlen(t);
	uint64_t h = hash_common(t);

	for (i = 0; i < n; i++) {
		h = hmix(h, m[i].name_off);
		h = hmix(h, m[i].offset);
		h = hmix(h, member_sig(d, m[i].type));
	}
	return h;
}

static bool shallow_equal_struct(const struct btf_type *a, const struct btf_type *b)
{
	const struct btf_member *ma = btf_type_body(a), *mb = btf_type_body(b);
	unsigned int i, n = btf_vlen(a);

	if (!equal_common(a, b))
		return false;
	for (i = 0; i < n; i++)
		if (ma[i].name_off != mb[i].name_off || ma[i].offset != mb[i].offset)
			return false;
	return true;
}

static uint64_t hash_array(const struct btf_type *t)
{
	const struct btf_array *arr = btf_type_body(t);
	uint64_t h = hash_common(t);

	h = hmix(h, arr->type);
	h = hmix(h, arr->index_type);
	return hmix(h, arr->nelems);
}

static bool equal_array(const struct btf_type *a, const struct btf_type *b)
{
	const struct btf_array *x = btf_type_body(a), *y = btf_type_body(b);

	return equal_common(a, b) && x->type == y->type && x->index_type == y->index_type &&
	       x->nelems == y->nelems;
}

static bool compat_array(const struct btf_type *a, const struct btf_type *b)
{
	const struct btf_array *x = btf_type_body(a), *y = btf_type_body(b);

	return equal_common(a, b) && x->nelems == y->nelems;
}

static uint64_t hash_fnproto(const struct btf_type *t)
{
	const struct btf_param *p = btf_type_body(t);
	unsigned int i, n = btf_vlen(t);
	uint64_t h = hash_common(t);

	for (i = 0; i < n; i++) {
		h = hmix(h, p[i].name_off);
		h = hmix(h, p[i].type);
	}
	return h;
}

static bool equal_fnproto(const struct btf_type *a, const struct btf_type *b)
{
	return equal_common(a, b) &&
	       !memcmp(btf_type_body(a), btf_type_body(b), btf_vlen(a) * sizeof(struct btf_param));
}

/* Parameter names only: the return and parameter types are walked. */
static bool compat_fnproto(const struct btf_type *a, const struct btf_type *b)
{
	const struct btf_param *pa = btf_type_body(a), *pb = btf_type_body(b);
	unsigned int i, n = btf_vlen(a);

	if (a->name_off != b->name_off || a->info != b->info)
		return false;
	for (i = 0; i < n; i++)
		if (pa[i].name_off != pb[i].name_off)
			return false;
	return true;
}

/*
 * LOC_PARAM bytes after the header.  A seed-layout LOC_PARAM has vlen 0
 * and 8 bytes; a merged-layout one vlen 1 or 2 and flags plus vlen words,
 * so equal info (compared first) means the same layout and length.
 */
static size_t loc_param_body_len(const struct btf_type *t)
{
	return btf_vlen(t) ? sizeof(uint32_t) * (1 + btf_vlen(t)) : sizeof(struct btf_loc_param);
}

/* LOC_PARAM: info (kflag or vlen), size and the payload. */
static uint64_t hash_loc_param(const struct btf_type *t)
{
	const uint32_t *w = btf_type_body(t);
	size_t i, n = loc_param_body_len(t) / sizeof(uint32_t);
	uint64_t h = hash_common(t);

	for (i = 0; i < n; i++)
		h = hmix(h, w[i]);
	return h;
}

static bool equal_loc_param(const struct btf_type *a, const struct btf_type *b)
{
	return equal_common(a, b) &&
	       !memcmp(btf_type_body(a), btf_type_body(b), loc_param_body_len(a));
}

/* LOC_PROTO: the whole list of LOC_PARAM ids, which vlen bounds. */
static uint64_t hash_loc_proto(const struct btf_type *t)
{
	const uint32_t *ids = btf_type_body(t);
	unsigned int i, n = btf_vlen(t);
	uint64_t h = hash_common(t);

	for (i = 0; i < n; i++)
		h = hmix(h, ids[i]);
	return h;
}

static bool equal_loc_proto(const struct btf_type *a, const struct btf_type *b)
{
	return equal_common(a, b) &&
	       !memcmp(btf_type_body(a), btf_type_body(b), btf_vlen(a) * sizeof(uint32_t));
}

/* ---- state ---- */

static void base_cands_put(struct base_cands *bc);

/* The hypothetical map's directory for ids [0, @ids). */
int hypot_reserve(struct walk *w, size_t ids)
{
	size_t len = ids / HYPOT_BLOCK_IDS + 1;
	uint32_t **dir;

	if (len <= w->hypot_dir_len)
		return 0;
	dir = realloc(w->hypot_dir, len * sizeof(*dir));
	if (!dir)
		return -ENOMEM;
	memset(dir + w->hypot_dir_len, 0, (len - w->hypot_dir_len) * sizeof(*dir));
	w->hypot_dir = dir;
	w->hypot_dir_len = len;
	return 0;
}

void hypot_free(struct walk *w)
{
	size_t i;

	for (i = 0; i < w->hypot_nr_chunks; i++)
		free(w->hypot_chunks[i]);
	free(w->hypot_chunks);
	free(w->hypot_dir);
	free(w->hypot_list);
	w->hypot_chunks = NULL;
	w->hypot_nr_chunks = w->hypot_spare_cnt = w->hypot_dir_len = 0;
	w->hypot_dir = NULL;
	w->hypot_list = NULL;
	w->hypot_cnt = w->hypot_cap = 0;
}

static void dedup_free(struct dedup *d)
{
	base_cands_put(d->base_cands);
	if (!d->in_place)
		free(d->types);
	free(d->base_tp);
	free(d->kinds);
	free(d->map);
	hypot_free(&d->w);
	free(d->cuts);
	free(d->undo);
	dedup_table_free(&d->tab);
	strset__free(d->strs);
	free(d->str_map);
}

static int check_id(uint32_t *id, void *arg)
{
	return *id < *(const uint32_t *)arg ? 0 : -EINVAL;
}

/* Below this many bytes of records, a second thread costs more than it saves. */
#define PARALLEL_MIN (1u << 20)

/*
 * Runs @fn(@arg) on a second thread for @len bytes of records, or here
 * and now for fewer (or without a thread); true: join *@th.
 */
static bool run_beside(pthread_t *th, size_t len, void *(*fn)(void *), void *arg)
{
	if (len >= PARALLEL_MIN && !pthread_create(th, NULL, fn, arg))
		return true;
	fn(arg);
	return false;
}

struct copy_job {
	void *dst;
	const void *src;
	size_t len;
};

static void *copy_part(void *arg)
{
	struct copy_job *j = arg;

	btf_mem_populate(j->dst, j->len);
	memcpy(j->dst, j->src, j->len);
	return NULL;
}

/*
 * Copying vmlinux's 130 MB of records is mostly page faults on the new
 * buffer: two threads take them at twice the rate.
 */
static void copy_records(void *dst, const void *src, size_t len)
{
	struct copy_job lo = { dst, src, len / 2 };
	struct copy_job hi = { (char *)dst + len / 2, (const char *)src + len / 2, len - len / 2 };
	pthread_t th;
	bool threaded = run_beside(&th, len, copy_part, &hi);

	copy_part(&lo);
	if (threaded)
		pthread_join(th, NULL);
}

/*
 * Room in kinds, map and the hypothetical map for @n ids.  The first
 * call may ask for more than it needs: pages never touched cost nothing.
 */
static int ids_reserve(struct dedup *d, size_t n)
{
	uint8_t *kinds;
	uint32_t *map;

	if (n <= d->ids_cap)
		return 0;
	if (d->ids_cap && n < 2 * d->ids_cap)
		n = 2 * d->ids_cap;
	kinds = realloc(d->kinds, n);
	if (kinds)
		d->kinds = kinds;
	map = realloc(d->map, n * sizeof(*map));
	if (map)
		d->map = map;
	if (!kinds || !map || hypot_reserve(&d->w, n))
		return -ENOMEM;
	btf_mem_huge(kinds, n);
	btf_mem_huge(map, n * sizeof(*map));
	d->ids_cap = n;
	return 0;
}

/* Takes in the types appended to the BTF since (in place: its arrays may have moved). */
static int dedup_refresh(struct dedup *d)
{
	if (d->in_place) {
		d->types = d->btf->types;
		d->types_cap = d->btf->types_cap;
		d->offs = d->btf->type_offs;
	}
	d->type_cnt = btf__type_cnt(d->btf);
	return ids_reserve(d, d->type_cnt);
}

/*
 * @ahead: ids will be appended (the arrays are sized for the capacity
 * the BTF reserved).  Without in_place, the records are copied when
 * the types are complete (dedup_copy()).
 */
static int dedup_init(struct dedup *d, struct btf *btf, bool in_place, bool ahead)
{
	size_t ids = btf__type_cnt(btf);
	uint32_t id;

	/* Its records are about to change: no BTF split on it may use them. */
	btf_dedup_base_free(btf);
	d->btf = btf;
	d->w.d = d;
	d->start_id = btf->start_id;
	d->done = d->str_done = d->start_id;
	d->ahead = ahead;
	d->in_place = in_place && (btf->types || ahead);
	d->offs = btf->type_offs;
	d->base_tp = malloc((d->start_id ? d->start_id : 1) * sizeof(*d->base_tp));
	if (ahead && ids < d->start_id + btf->type_offs_cap)
		ids = d->start_id + btf->type_offs_cap;
	if (!d->base_tp || ids_reserve(d, ids ? ids : 1) || dedup_refresh(d))
		return -ENOMEM;
	for (id = 0; id < d->start_id; id++) {
		d->base_tp[id] = (struct btf_type *)btf__type_by_id(btf, id);
		d->kinds[id] = btf_kind(d->base_tp[id]);
		d->map[id] = id;
	}
	return 0;
}

/* The records' offsets, if the merge deferred them and no pass found them yet. */
static int dedup_index(struct dedup *d)
{
	int err;

	if (!d->btf->offs_deferred)
		return 0;
	err = btf_index_types(d->btf);
	d->offs = d->btf->type_offs;
	return err;
}

/* The working copy of the records (unless in place), all types added. */
static int dedup_copy(struct dedup *d)
{
	struct btf *btf = d->btf;

	if (d->in_place)
		return 0;
	d->types_cap = btf->types_len ? btf->types_len : 1;
	d->types = malloc(d->types_cap);
	if (!d->types)
		return -ENOMEM;
	btf_mem_huge(d->types, d->types_cap);
	/* An empty BTF has no types buffer: memcpy(NULL) is undefined even for 0. */
	if (btf->types_len)
		copy_records(d->types, btf->types, btf->types_len);
	d->offs = btf->type_offs;
	return 0;
}

/*
 * Every kind must be known and every referenced id must exist (the
 * phases index arrays with them); the kinds and the map of the own types
 * start out.  This reads only kinds and id fields and writes only the
 * kinds and the map, so it runs beside the string phase, which rewrites
 * only name offsets: a vmlinux dedup is one 130 MB pass shorter on two
 * cores.
 */
struct id_check {
	struct dedup *d;
	uint32_t from, to; /* ids [from, to) */
	int err;
	struct cut_scan cuts; /* with d->want_cuts */
	/* The records' offsets deferred: found here, from off on up to end. */
	bool index;
	size_t off, end;
};

/* The highest id a type is or refers to. */
struct id_span {
	uint32_t type_cnt;
	uint32_t hi;
};

static int check_id_span(uint32_t *id, void *arg)
{
	struct id_span *sp = arg;

	if (*id >= sp->type_cnt)
		return -EINVAL;
	if (*id > sp->hi)
		sp->hi = *id;
	return 0;
}

/*
 * The map entry of own id @id before phase 2: VAR, DATASEC and LOCSEC
 * are final (never merged).
 */
static uint32_t map_initial(const struct dedup *d, uint32_t id)
{
	unsigned int kind = d->kinds[id];

	if (id < d->start_id || kind == BTF_KIND_VAR || kind == BTF_KIND_DATASEC ||
	    kind == BTF_KIND_LOCSEC)
		return id;
	return ID_UNPROCESSED;
}

static void *check_ids(void *arg)
{
	struct id_check *c = arg;
	struct dedup *d = c->d;
	size_t off = c->off;
	uint32_t id;

	btf_mem_populate(d->kinds + c->from, c->to - c->from);
	btf_mem_populate(d->map + c->from, (c->to - c->from) * sizeof(*d->map));
	if (c->index)
		btf_mem_populate(d->offs + c->from - d->start_id,
				 (c->to - c->from) * sizeof(*d->offs));

	c->cuts.gap = d->round_types / 16 ? d->round_types / 16 : 1;
	for (id = c->from; id < c->to; id++) {
		struct btf_type *t;
		unsigned int kind;
		struct id_span sp = { d->type_cnt, id };

		if (c->index) {
			long sz;

			t = (struct btf_type *)(d->types + off);
			sz = btf_record_size(t, d->btf->layout, c->end - off);
			if (sz < 0) {
				c->err = sz;
				break;
			}
			d->offs[id - d->start_id] = off;
			off += sz;
		} else {
			t = tp(d, id);
		}
		kind = btf_kind(t);
		if (kind == BTF_KIND_UNKN || kind >= NR_BTF_KINDS ||
		    btf_type_visit_type_ids(t, d->btf->layout,
					    d->want_cuts ? check_id_span : check_id,
					    d->want_cuts ? (void *)&sp : &d->type_cnt)) {
			c->err = -EINVAL;
			break;
		}
		if (d->want_cuts)
			cut_scan_note(&c->cuts, id, sp.hi);
		d->kinds[id] = kind;
		d->map[id] = map_initial(d, id);
	}
	if (c->index && !c->err && off != c->end)
		c->err = -EINVAL;
	return NULL;
}

/* ---- phase 1: strings ---- */

static int remap_str(uint32_t *off, void *arg)
{
	struct dedup *d = arg;
	struct btf *btf = d->btf;
	uint32_t rel;
	const char *s;
	long n;

	/* The empty string and the base's strings stay where they are. */
	if (*off == 0 || *off < btf->start_str_off)
		return 0;
	rel = *off - btf->start_str_off;
	if (rel >= btf->strs->len)
		return -EINVAL;
	if (d->str_map[rel]) {
		*off = d->str_map[rel] - 1;
		return 0;
	}
	s = btf->strs->data + rel;
	n = btf->base ? btf__find_str(btf->base, s) : -ENOENT;
	if (n == -ENOENT) {
		n = strset__add_str(d->strs, s);
		if (n >= 0)
			n += btf->start_str_off;
	}
	if (n < 0)
		return n;
	d->str_map[rel] = n + 1;
	*off = n;
	return 0;
}

/*
 * Own ids from str_done on (a rerun must not rewrite an offset twice);
 * the table's strings may have grown since the last run.
 */
static int dedup_strings(struct dedup *d)
{
	struct btf *btf = d->btf;
	size_t need = btf->strs->len ? btf->strs->len : 1;
	uint32_t id;
	int err;

	if (!d->strs)
		d->strs = btf->base ? strset__new(NULL, 0) : strset__new("", 1);
	if (!d->strs)
		return -ENOMEM;
	if (need > d->str_map_cap) {
		size_t cap = d->str_map_cap && need < 2 * d->str_map_cap ? 2 * d->str_map_cap : need;
		uint32_t *map = realloc(d->str_map, cap * sizeof(*map));

		if (!map)
			return -ENOMEM;
		memset(map + d->str_map_cap, 0, (cap - d->str_map_cap) * sizeof(*map));
		d->str_map = map;
		d->str_map_cap = cap;
	}
	for (id = d->str_done; id < d->type_cnt; id++) {
		err = btf_type_visit_str_offs(tp(d, id), d->btf->layout, remap_str, d);
		if (err)
			return err;
		d->str_done = id + 1;
	}
	return 0;
}

/* ---- hashing of base types (split BTF) ---- */

/* Signature hash of @t as the phase that dedups its kind computes it. */
static int type_hash(const struct dedup *d, const struct btf_type *t, uint64_t *h)
{
	switch ((enum btf_kind)btf_kind(t)) {
	case BTF_KIND_CONST:
	case BTF_KIND_VOLATILE:
	case BTF_KIND_RESTRICT:
	case BTF_KIND_PTR:
	case BTF_KIND_FWD:
	case BTF_KIND_TYPEDEF:
	case BTF_KIND_FUNC:
	case BTF_KIND_FLOAT:
	case BTF_KIND_TYPE_TAG:
		*h = hash_common(t);
		return 0;
	case BTF_KIND_INT:
	case BTF_KIND_DECL_TAG:
		*h = hash_int_tag(t);
		return 0;
	case BTF_KIND_ENUM:
	case BTF_KIND_ENUM64:
		*h = hash_enum(t);
		return 0;
	case BTF_KIND_STRUCT:
	case BTF_KIND_UNION:
		*h = hash_struct(d, t);
		return 0;
	case BTF_KIND_ARRAY:
		*h = hash_array(t);
		return 0;
	case BTF_KIND_FUNC_PROTO:
		*h = hash_fnproto(t);
		return 0;
	case BTF_KIND_LOC_PARAM:
		*h = hash_loc_param(t);
		return 0;
	case BTF_KIND_LOC_PROTO:
		*h = hash_loc_proto(t);
		return 0;
	case BTF_KIND_VAR:
	case BTF_KIND_DATASEC:
	case BTF_KIND_LOCSEC:
		return 1; /* never a candidate */
	case BTF_KIND_UNKN:
	case NR_BTF_KINDS:
		break;
	}
	return -EINVAL;
}

/*
 * Fills the empty table with the @n entries at tab->entries, in their
 * order.  One slot write per entry at random would miss the cache each
 * time (a vmlinux base: 95K entries, 4 MB of slots);
 * bucketed by their slot's top bits first, the writes sweep the slots
 * once.  Entries of equal hash keep their order (one bucket, in order),
 * which is all the lookups rely on.
 */
#define BULK_BUCKET_BITS 12

static int table_fill(struct cand_table *tab, size_t n)
{
	size_t nr_slots = 2048, i, shift = 0, *start;
	uint32_t *order;

	while (nr_slots < 2 * n)
		nr_slots *= 2;
	while ((nr_slots >> shift) > (1u << BULK_BUCKET_BITS))
		shift++;
	start = calloc((1u << BULK_BUCKET_BITS) + 1, sizeof(*start));
	order = malloc((n ? n : 1) * sizeof(*order));
	tab->slots = calloc(nr_slots, sizeof(*tab->slots));
	if (!start || !order || !tab->slots) {
		free(start);
		free(order);
		return -ENOMEM;
	}
	/* Each page would fault twice: read (zero page), then written. */
	btf_mem_populate(tab->slots, nr_slots * sizeof(*tab->slots));
	tab->mask = nr_slots - 1;
	tab->cnt = n;
	for (i = 0; i < n; i++)
		start[(slot_of(tab->entries[i].hash, tab->mask) >> shift) + 1]++;
	for (i = 1; i <= (1u << BULK_BUCKET_BITS); i++)
		start[i] += start[i - 1];
	for (i = 0; i < n; i++)
		order[start[slot_of(tab->entries[i].hash, tab->mask) >> shift]++] = i;
	for (i = 0; i < n; i++)
		slot_put(tab->slots, tab->mask, tab->entries[order[i]]);
	free(start);
	free(order);
	return 0;
}

/*
 * The candidates among the base's types: a function of the base alone,
 * so built once and kept with it (btf->dedup_cands) for every dedup of a
 * BTF split on it: a module's encode runs two.  Rebuilt if the base has
 * changed size since (types or members added).
 */
struct base_cands {
	struct cand_table tab;
	/* The base's size when built: types added since make it stale. */
	uint32_t type_cnt;
	size_t types_len;
	/* The base's reference and each dedup's using it. */
	unsigned int refs;
};

static void base_cands_put(struct base_cands *bc)
{
	if (!bc || --bc->refs)
		return;
	dedup_table_free(&bc->tab);
	free(bc);
}

/*
 * The base drops its table; a dedup still running on it keeps its
 * reference (two dedups split on one base, at different base sizes).
 */
void btf_dedup_base_free(struct btf *base)
{
	struct base_cands *bc = base->dedup_cands;

	base->dedup_cands = NULL;
	base_cands_put(bc);
}

static int dedup_prep_base(struct dedup *d)
{
	struct btf *base = d->btf->base;
	struct base_cands *bc;
	size_t n = 0;
	uint32_t id;
	uint64_t h;
	int err;

	if (d->start_id <= 1)
		return 0;
	base_cands_put(d->base_cands);
	d->base_cands = NULL;
	d->base_tab = NULL;
	bc = base->dedup_cands;
	if (bc && bc->type_cnt == d->start_id && bc->types_len == base->types_len)
		goto done;
	btf_dedup_base_free(base);
	bc = calloc(1, sizeof(*bc));
	if (!bc)
		return -ENOMEM;
	bc->refs = 1;
	bc->tab.entries = malloc(d->start_id * sizeof(*bc->tab.entries));
	if (!bc->tab.entries) {
		free(bc);
		return -ENOMEM;
	}
	bc->tab.cap = d->start_id;
	for (id = 1; id < d->start_id; id++) {
		err = type_hash(d, tp(d, id), &h);
		if (!err)
			bc->tab.entries[n++] = (struct cand_slot){ h, id };
		else if (err < 0)
			goto fail;
	}
	err = table_fill(&bc->tab, n);
	if (err)
		goto fail;
	bc->type_cnt = d->start_id;
	bc->types_len = base->types_len;
	base->dedup_cands = bc;
done:
	bc->refs++;
	d->base_cands = bc;
	d->base_tab = &bc->tab;
	return 0;
fail:
	base_cands_put(bc);
	return err;
}

/*
 * Own ids [@from, type_cnt): the id check beside the string phase (and
 * the base's hashing, on the first run).
 */
static int dedup_scan(struct dedup *d, uint32_t from)
{
	struct id_check beside = { .d = d, .from = from, .to = d->type_cnt }, here = { .d = d };
	bool idle = d->keep_strs && !d->btf->base;
	/* The records' bytes, about: enough to tell a whole BTF from one CU. */
	size_t len = (size_t)(d->type_cnt - from) * sizeof(struct btf_type);
	pthread_t th;
	bool threaded;
	int err = 0;

	/*
	 * With nothing else to do here (no strings, no base: the encoder's
	 * vmlinux dedup), this thread checks the second half of the ids
	 * (vmlinux: ~100 ms on one thread).  The merged records' offsets,
	 * if deferred, are found in the same pass, the halves split where a
	 * merge began (vmlinux: one 130 MB pass less, ~35 ms of CPU).
	 */
	if (idle && d->btf->offs_deferred && from == d->start_id &&
	    btf_offs_middle(d->btf, &here.from, &here.off)) {
		here.from += d->start_id;
		here.to = beside.to;
		here.end = d->btf->types_len;
		beside.to = here.from;
		beside.end = here.off;
		here.index = beside.index = true;
	} else if ((err = dedup_index(d))) {
		return err;
	} else if (idle) {
		here.to = beside.to;
		here.from = beside.to = beside.from + (beside.to - beside.from) / 2;
	}
	threaded = run_beside(&th, len, check_ids, &beside);
	if (idle)
		check_ids(&here);
	if (from == d->start_id)
		err = dedup_prep_base(d);
	if (!err && !d->keep_strs)
		err = dedup_strings(d);
	if (threaded)
		pthread_join(th, NULL);
	if (!err)
		err = beside.err ? beside.err : here.err;
	if (!err && here.index)
		btf_offs_found(d->btf);
	/* A bad id stopped the pass: the offsets, if the records allow, as before. */
	if (err && here.index)
		btf_index_types(d->btf);
	if (!err && d->want_cuts)
		cut_scan_join(d, &beside.cuts, idle ? &here.cuts : NULL);
	free(beside.cuts.cuts);
	free(here.cuts.cuts);
	return err;
}

/* ---- phase 2: primitives ---- */

/*
 * Relaxed: in a round of phase 3 on two threads, the head writes entries
 * that the other thread may read (and then does again, see
 * dedup_rounds.c).  A plain load on the machines that matter.
 */
static bool is_mapped(const struct dedup *d, uint32_t id)
{
	return __atomic_load_n(&d->map[id], __ATOMIC_RELAXED) < ID_IN_PROGRESS;
}

/* Follows the map to the canonical id (through FWD -> STRUCT links). */
static uint32_t resolve_id(const struct dedup *d, uint32_t id)
{
	while (is_mapped(d, id) && d->map[id] != id)
		id = d->map[id];
	return id;
}

/*
 * map[@id] = @v, logged for a rewind when @id was there before the run
 * in progress (a single run over all types needs no log).
 */
static void map_set(struct dedup *d, uint32_t id, uint32_t v)
{
	if (d->ahead && id < d->run_from && !d->cp_lost) {
		if (d->undo_cnt == d->undo_cap) {
			size_t cap = d->undo_cap ? 2 * d->undo_cap : 256;
			struct map_undo *u = cap <= UNDO_MAX ? realloc(d->undo, cap * sizeof(*u)) :
							       NULL;

			if (!u) {
				d->cp_lost = true;
				d->cp_set = false;
				goto set;
			}
			d->undo = u;
			d->undo_cap = cap;
		}
		d->undo[d->undo_cnt++] = (struct map_undo){ id, d->map[id] };
	}
set:
	d->map[id] = v;
}

/*
 * Fed ahead, a forward enum resolves to full enum @id.  The first time,
 * phase 3 before this run has seen it unresolved: no matter, then only
 * it and the types mapped to it resolve to @id (see the top of the
 * file); but a checkpoint goes at the start of this run.  If it resolved
 * before this run already, phase 3 has compared those types equal to
 * the other definition since, which a run over all types would not
 * have: phases 2-3 start over from the checkpoint.
 */
static void enum_fwd_resolved(struct dedup *d, uint32_t fwd_id, uint32_t id)
{
	uint32_t was = d->map[fwd_id];

	/*
	 * Another copy of the definition it resolves to: one run would
	 * point it at this copy, which is that definition's duplicate, so
	 * it resolves the same either way.  Rewinding for it made feeding
	 * quadratic (a rewind per CU with the enum).
	 */
	if (was != fwd_id && equal_enum(tp(d, resolve_id(d, was)), tp(d, id)))
		return;
	if (was == fwd_id && !d->cp_set && !d->cp_lost) {
		d->cp_set = true;
		d->cp_from = d->run_from;
		d->cp_tab_cnt = d->run_tab_cnt;
	} else if (was != fwd_id && was < d->run_from) {
		if (d->cp_set)
			d->rewind = true;
		else
			d->redo = true;
	}
	map_set(d, fwd_id, id);
}

static uint32_t dedup_enum(struct dedup *d, uint32_t id, uint64_t h)
{
	struct btf_type *t = tp(d, id);
	struct cand_iter it;
	uint32_t cand_id;

	for_each_dedup_cand(d, h, it, cand_id) {
		struct btf_type *cand = tp(d, cand_id);

		if (btf_kind(cand) != btf_kind(t))
			continue;
		if (equal_enum(t, cand))
			return cand_id;
		if (!compat_enum(t, cand))
			continue;
		if (is_enum_fwd(t))
			return cand_id;
		/* A canonical forward enum now resolves to this definition. */
		if (d->ahead)
			enum_fwd_resolved(d, cand_id, id);
		else
			d->map[cand_id] = id;
	}
	return id;
}

typedef bool (*equal_fn)(const struct btf_type *, const struct btf_type *);

/* Canonical id among the candidates of hash @h in @base, then @own, equal to @id, or @id. */
static uint32_t find_equal_in(struct dedup *d, const struct cand_table *base,
			      const struct cand_table *own, uint32_t id, uint64_t h, equal_fn equal)
{
	struct btf_type *t = tp(d, id);
	struct cand_iter it;
	uint32_t cand_id;

	for (cand_iter_init(&it, base, own, NULL, h); (cand_id = cand_iter_next(&it, h));)
		if (d->kinds[cand_id] == btf_kind(t) && equal(t, tp(d, cand_id)))
			return cand_id;
	return id;
}

static uint32_t find_equal(struct dedup *d, uint32_t id, uint64_t h, equal_fn equal)
{
	return find_equal_in(d, d->base_tab, &d->tab, id, h, equal);
}

/* 1: phase 2 dedups @kind; 0: another phase does; -EINVAL: no kind. */
static int prim_kind(unsigned int kind)
{
	switch ((enum btf_kind)kind) {
	case BTF_KIND_INT:
	case BTF_KIND_ENUM:
	case BTF_KIND_ENUM64:
	case BTF_KIND_FWD:
	case BTF_KIND_FLOAT:
	case BTF_KIND_LOC_PARAM:
		return 1;
	case BTF_KIND_PTR:
	case BTF_KIND_ARRAY:
	case BTF_KIND_STRUCT:
	case BTF_KIND_UNION:
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
	case BTF_KIND_LOC_PROTO:
	case BTF_KIND_LOCSEC:
		return 0;
	case BTF_KIND_UNKN:
	case NR_BTF_KINDS:
	default:
		break;
	}
	return -EINVAL;
}

/* @id of a kind prim_kind() says phase 2 dedups. */
static int dedup_prim_type(struct dedup *d, uint32_t id)
{
	unsigned int kind = d->kinds[id];
	const struct btf_type *t;
	uint32_t new_id = id;
	uint64_t h = 0;

	t = tp(d, id);
	if (kind == BTF_KIND_INT) {
		h = hash_int_tag(t);
		new_id = find_equal(d, id, h, equal_int_tag);
	} else if (kind == BTF_KIND_ENUM || kind == BTF_KIND_ENUM64) {
		h = hash_enum(t);
		new_id = dedup_enum(d, id, h);
	} else if (kind == BTF_KIND_LOC_PARAM) {
		h = hash_loc_param(t);
		new_id = find_equal(d, id, h, equal_loc_param);
	} else { /* FWD, FLOAT */
		h = hash_common(t);
		new_id = find_equal(d, id, h, equal_common);
	}
	d->map[id] = new_id;
	return new_id == id ? dedup_table_add(&d->tab, h, id) : 0;
}

/* ---- phase 3: structs and unions ---- */

/* A speculative walk read @val in the map entry of @id, which the head may change. */
static void log_read(struct view *v, uint32_t id, uint32_t val)
{
	struct id_pos *r = log_push((void **)&v->reads, &v->reads_cnt, &v->reads_cap, sizeof(*r));

	if (!r)
		view_fail(v, -ENOMEM);
	else
		*r = (struct id_pos){ id, v->pos, val };
}

/* FWD root @id as this walk sees it: what it resolved to, or itself. */
static __attribute__((noinline, cold)) uint32_t fwd_root(struct walk *w, uint32_t id)
{
	struct view *v = w->v;
	uint32_t to;

	if (!v)
		return id;
	to = view_fwd_find(v, id);
	if (to)
		return to;
	if (v->spec && id < v->lo)
		log_read(v, id, ID_FWD_ROOT);
	return id;
}

/* The walk reads the map entry of @id, which the head may be writing. */
static __attribute__((noinline, cold)) uint32_t part_read(struct walk *w, uint32_t id)
{
	uint32_t val = __atomic_load_n(&w->d->map[id], __ATOMIC_RELAXED);

	log_read(w->v, id, val);
	return val;
}

/*
 * resolve_id() for phase 3, through the walk's view; inlined, as it is
 * most of the comparisons' loads.
 */
static inline __attribute__((always_inline)) uint32_t w_resolve(struct walk *w, uint32_t id)
{
	const uint32_t *map = w->d->map;
	uint32_t part_lo = w->part_lo, part_len = w->part_len;

	for (;;) {
		uint32_t to;

		if (__builtin_expect(id - part_lo < part_len, 0))
			to = part_read(w, id);
		else
			to = __atomic_load_n(&map[id], __ATOMIC_RELAXED);

		if (to == id || to >= ID_FWD_ROOT) {
			if (to != ID_FWD_ROOT)
				return id;
			to = fwd_root(w, id);
			if (to == id)
				return id;
		}
		id = to;
	}
}

/*
 * map[@id] = @to for phase 3: alone, map_set(); in a round, FWD roots go
 * to the overlay, own ids to the map (logged when speculative).
 */
static void w_map_set(struct walk *w, uint32_t id, uint32_t to)
{
	struct dedup *d = w->d;
	struct view *v = w->v;
	struct undo_pos *u;

	if (!v) {
		map_set(d, id, to);
		return;
	}
	if (d->kinds[id] == BTF_KIND_FWD) {
		if (view_fwd_put(v, id, to))
			view_fail(v, -ENOMEM);
		return;
	}
	/*
	 * The speculative walk can map a struct of the head's part that it
	 * read unmapped (hypot_merge()).  That entry is the head's to write,
	 * and the head maps every struct of its part: the read logged
	 * differs from the head's entry, so this struct is done again.
	 * Anything else below lo is not this walk's: its work ends here.
	 */
	if (v->spec && id < v->lo) {
		if (id - w->part_lo >= w->part_len)
			view_fail(v, -EAGAIN);
		return;
	}
	if (v->spec || v->log_writes) {
		u = log_push((void **)&v->undo, &v->undo_cnt, &v->undo_cap, sizeof(*u));
		/* Not written: the work from here on is dropped, and this could not be undone. */
		if (!u) {
			view_fail(v, -ENOMEM);
			return;
		}
		*u = (struct undo_pos){ id, d->map[id], to, v->pos };
	}
	__atomic_store_n(&d->map[id], to, __ATOMIC_RELAXED);
}

/* A walk's candidates: the dedup's, then those of its round so far. */
#define for_each_walk_cand(w, h, it, id)                                                           \
	for (cand_iter_init(&it, (w)->d->base_tab, &(w)->d->tab, walk_adds(w), h);                 \
	     (id = cand_iter_next(&it, h));)

static const struct cand_table *walk_adds(const struct walk *w)
{
	return w->v ? &w->v->adds : NULL;
}

/* A zeroed block for the hypothetical map, NULL without memory. */
static uint32_t *hypot_block(struct walk *w)
{
	size_t n = w->hypot_dir_len < HYPOT_CHUNK_BLOCKS ? w->hypot_dir_len : HYPOT_CHUNK_BLOCKS;
	void **chunks;
	uint32_t *block;

	if (!w->hypot_spare_cnt) {
		chunks = realloc(w->hypot_chunks, (w->hypot_nr_chunks + 1) * sizeof(*chunks));
		if (!chunks)
			return NULL;
		w->hypot_chunks = chunks;
		w->hypot_spare = calloc(n, HYPOT_BLOCK_IDS * sizeof(uint32_t));
		if (!w->hypot_spare)
			return NULL;
		chunks[w->hypot_nr_chunks++] = w->hypot_spare;
		w->hypot_spare_cnt = n;
	}
	block = w->hypot_spare;
	w->hypot_spare += HYPOT_BLOCK_IDS;
	w->hypot_spare_cnt--;
	return block;
}

static int hypot_add(struct walk *w, uint32_t from, uint32_t to)
{
	uint32_t *block;

	/* Every 256 pairs: a relaxed load, cheaper than the head waiting. */
	if (!(w->hypot_cnt & 255) && w->v && w->v->give_up &&
	    __atomic_load_n(w->v->give_up, __ATOMIC_RELAXED))
		return -EAGAIN;
	if (w->hypot_cnt == w->hypot_cap) {
		size_t cap = w->hypot_cap ? w->hypot_cap * 2 : 64;
		uint32_t *list = realloc(w->hypot_list, cap * sizeof(*list));

		if (!list)
			return -ENOMEM;
		w->hypot_list = list;
		w->hypot_cap = cap;
	}
	block = w->hypot_dir[from / HYPOT_BLOCK_IDS];
	if (!block) {
		block = hypot_block(w);
		if (!block)
			return -ENOMEM;
		w->hypot_dir[from / HYPOT_BLOCK_IDS] = block;
	}
	w->hypot_list[w->hypot_cnt++] = from;
	block[from % HYPOT_BLOCK_IDS] = to + 1;
	return 0;
}

/* The hypothetical map's entry of @id. */
static inline uint32_t hypot_get(const struct walk *w, uint32_t id)
{
	const uint32_t *block = w->hypot_dir[id / HYPOT_BLOCK_IDS];

	return block ? block[id % HYPOT_BLOCK_IDS] : 0;
}

static void hypot_clear(struct walk *w)
{
	size_t i;

	for (i = 0; i < w->hypot_cnt; i++) {
		uint32_t id = w->hypot_list[i];

		w->hypot_dir[id / HYPOT_BLOCK_IDS][id % HYPOT_BLOCK_IDS] = 0;
	}
	w->hypot_cnt = 0;
	w->hypot_adjust_canon = false;
}

/*
 * The STRUCT/UNION a resolved FWD points to, or @id itself.  The kinds
 * from d->kinds: reading the record for it was a cache miss on most
 * comparisons, half of which end at the hypothetical map without it.
 */
static uint32_t resolve_fwd_id(struct walk *w, uint32_t id)
{
	const struct dedup *d = w->d;
	uint32_t r;

	if (d->kinds[id] != BTF_KIND_FWD)
		return id;
	r = w_resolve(w, id);
	return d->kinds[r] == BTF_KIND_FWD ? id : r;
}

static unsigned int fwd_kind(const struct btf_type *t)
{
	return btf_kflag(t) ? BTF_KIND_UNION : BTF_KIND_STRUCT;
}

/*
 * Compilers sometimes emit two identical array or struct types within
 * one CU; accept them as one when they are equal down to the ids.
 */
static bool identical_dups(const struct dedup *d, uint32_t id1, uint32_t id2)
{
	const struct btf_type *a = tp(d, id1), *b = tp(d, id2);
	unsigned int kind = btf_kind(a);
	const struct btf_member *ma, *mb;
	unsigned int i, n;

	if (kind != btf_kind(b))
		return false;
	if (kind == BTF_KIND_ARRAY)
		return equal_array(a, b);
	if (kind != BTF_KIND_STRUCT && kind != BTF_KIND_UNION)
		return false;
	if (!shallow_equal_struct(a, b))
		return false;
	ma = btf_type_body(a);
	mb = btf_type_body(b);
	for (i = 0, n = btf_vlen(a); i < n; i++)
		if (ma[i].type != mb[i].type)
			return false;
	return true;
}

static int is_equiv(struct walk *w, uint32_t cand_id, uint32_t canon_id);

static int is_equiv_members(struct walk *w, const struct btf_type *cand,
			    const struct btf_type *canon)
{
	const struct btf_member *a = btf_type_body(cand), *b = btf_type_body(canon);
	unsigned int i, n = btf_vlen(cand);
	int eq;

	if (!shallow_equal_struct(cand, canon))
		return 0;
	for (i = 0; i < n; i++) {
		eq = is_equiv(w, a[i].type, b[i].type);
		if (eq <= 0)
			return eq;
	}
	return 1;
}

static int is_equiv_fnproto(struct walk *w, const struct btf_type *cand,
			    const struct btf_type *canon)
{
	const struct btf_param *a = btf_type_body(cand), *b = btf_type_body(canon);
	unsigned int i, n = btf_vlen(cand);
	int eq;

	if (!compat_fnproto(cand, canon))
		return 0;
	eq = is_equiv(w, cand->type, canon->type);
	for (i = 0; eq > 0 && i < n; i++)
		eq = is_equiv(w, a[i].type, b[i].type);
	return eq;
}

static int is_equiv_array(struct walk *w, const struct btf_type *cand, const struct btf_type *canon)
{
	const struct btf_array *a = btf_type_body(cand), *b = btf_type_body(canon);
	int eq;

	if (!compat_array(cand, canon))
		return 0;
	eq = is_equiv(w, a->index_type, b->index_type);
	return eq <= 0 ? eq : is_equiv(w, a->type, b->type);
}

/* FWD on one side, something else on the other (same name). */
static int is_equiv_fwd(struct walk *w, uint32_t canon_id, const struct btf_type *cand,
			const struct btf_type *canon)
{
	unsigned int real_kind, fkind;

	if (btf_kind(cand) == BTF_KIND_FWD) {
		real_kind = btf_kind(canon);
		fkind = fwd_kind(cand);
	} else {
		real_kind = btf_kind(cand);
		fkind = fwd_kind(canon);
		/* Resolving it would change a base FWD, which is immutable. */
		if (fkind == real_kind && canon_id < w->d->start_id)
			w->hypot_adjust_canon = true;
	}
	return fkind == real_kind;
}

/*
 * Whether the graph from @cand_id is equivalent to the one from
 * @canon_id: 1 yes, 0 no, negative errno.  See phase 3 above.
 */
static int is_equiv(struct walk *w, uint32_t cand_id, uint32_t canon_id)
{
	const struct dedup *d = w->d;
	const struct btf_type *cand, *canon;
	uint32_t hypot;
	int err;

	if (w_resolve(w, cand_id) == w_resolve(w, canon_id))
		return 1;
	canon_id = resolve_fwd_id(w, canon_id);
	hypot = hypot_get(w, canon_id);
	if (hypot--)
		return hypot == cand_id || identical_dups(d, hypot, cand_id);
	err = hypot_add(w, canon_id, cand_id);
	if (err)
		return err;

	cand = tp(d, cand_id);
	canon = tp(d, canon_id);
	if (cand->name_off != canon->name_off)
		return 0;
	if (btf_kind(cand) != btf_kind(canon)) {
		if (btf_kind(cand) == BTF_KIND_FWD || btf_kind(canon) == BTF_KIND_FWD)
			return is_equiv_fwd(w, canon_id, cand, canon);
		return 0;
	}

	switch ((enum btf_kind)btf_kind(cand)) {
	case BTF_KIND_INT:
		return equal_int_tag(cand, canon);
	case BTF_KIND_ENUM:
	case BTF_KIND_ENUM64:
		return compat_enum(cand, canon);
	case BTF_KIND_FWD:
	case BTF_KIND_FLOAT:
		return equal_common(cand, canon);
	case BTF_KIND_LOC_PARAM:
		return equal_loc_param(cand, canon);
	case BTF_KIND_CONST:
	case BTF_KIND_VOLATILE:
	case BTF_KIND_RESTRICT:
	case BTF_KIND_PTR:
	case BTF_KIND_TYPEDEF:
	case BTF_KIND_FUNC:
	case BTF_KIND_TYPE_TAG:
		if (cand->info != canon->info)
			return 0;
		return is_equiv(w, cand->type, canon->type);
	case BTF_KIND_ARRAY:
		return is_equiv_array(w, cand, canon);
	case BTF_KIND_STRUCT:
	case BTF_KIND_UNION:
		return is_equiv_members(w, cand, canon);
	case BTF_KIND_FUNC_PROTO:
		return is_equiv_fnproto(w, cand, canon);
	case BTF_KIND_LOC_PROTO:
	case BTF_KIND_LOCSEC:
		return 0;
	case BTF_KIND_VAR:
	case BTF_KIND_DATASEC:
	case BTF_KIND_DECL_TAG:
	case BTF_KIND_UNKN:
	case NR_BTF_KINDS:
		break;
	}
	return -EINVAL;
}

static bool is_composite_kind(unsigned int kind)
{
	return kind == BTF_KIND_STRUCT || kind == BTF_KIND_UNION;
}

/*
 * Makes the successful hypothetical map permanent where that is safe:
 * FWDs resolve to their STRUCT/UNION in either direction, and a
 * candidate-side struct maps to a canonical one that is itself final
 * (only a shortcut; phase 3 would find it anyway).
 */
static void hypot_merge(struct walk *w)
{
	const struct dedup *d = w->d;
	size_t i;

	for (i = 0; i < w->hypot_cnt; i++) {
		uint32_t c_id = w_resolve(w, w->hypot_list[i]);
		uint32_t t_id = w_resolve(w, hypot_get(w, w->hypot_list[i]) - 1);
		unsigned int c_kind = d->kinds[c_id], t_kind = d->kinds[t_id];

		/* A base FWD may point into split types: base ids keep their numbers. */
		if (t_kind != BTF_KIND_FWD && c_kind == BTF_KIND_FWD)
			w_map_set(w, c_id, t_id);
		if (w->hypot_adjust_canon)
			continue;
		if (t_kind == BTF_KIND_FWD && c_kind != BTF_KIND_FWD)
			w_map_set(w, t_id, c_id);
		if (is_composite_kind(t_kind) && c_kind != BTF_KIND_FWD && is_mapped(d, c_id) &&
		    !is_mapped(d, t_id))
			w_map_set(w, t_id, c_id);
	}
}

int dedup_struct_type(struct walk *w, uint32_t id)
{
	struct dedup *d = w->d;
	struct view *v = w->v;
	struct hash_pos *look;
	struct btf_type *t;
	uint32_t cand_id, new_id = id;
	struct cand_iter it;
	uint64_t h;
	int eq;

	if (is_mapped(d, id) || !is_composite_kind(d->kinds[id]))
		return 0;
	t = tp(d, id);
	h = hash_struct(d, t);
	for_each_walk_cand(w, h, it, cand_id) {
		/* A FWD of colliding hash must not be picked (FWD <-> STRUCT loop). */
		if (!shallow_equal_struct(t, tp(d, cand_id)))
			continue;
		hypot_clear(w);
		eq = is_equiv(w, id, cand_id);
		if (eq < 0)
			return eq;
		if (!eq)
			continue;
		hypot_merge(w);
		if (w->hypot_adjust_canon)
			continue;
		new_id = cand_id;
		break;
	}
	if (!v) {
		d->map[id] = new_id;
		return new_id == id ? dedup_table_add(&d->tab, h, id) : 0;
	}
	/*
	 * Speculative, and no candidate of the shared table matched: one
	 * the head adds to it would have come first.
	 */
	if (v->spec && (new_id == id || it.tab[it.cur] == &v->adds)) {
		look = log_push((void **)&v->looks, &v->looks_cnt, &v->looks_cap, sizeof(*look));
		if (!look)
			return -ENOMEM;
		*look = (struct hash_pos){ h, id };
	}
	w_map_set(w, id, new_id);
	return new_id == id ? dedup_table_add(&v->adds, h, id) : 0;
}

/*
 * Phase 3b: a FWD no graph comparison resolved (say, an opaque pointer
 * in a CU that never sees the definition) resolves to the one canonical
 * STRUCT/UNION of its name and kind, if that name is unique among them,
 * base types included.
 */
static int dedup_resolve_fwds(struct dedup *d)
{
	struct cand_table names = {};
	uint32_t id, cand_id, anon_nr = 0, anon_id = 0, first_fwd;
	int err = 0;

	/* Most modules leave none: then the base's structs need no table. */
	for (first_fwd = d->start_id; first_fwd < d->type_cnt; first_fwd++)
		if (d->kinds[first_fwd] == BTF_KIND_FWD && d->map[first_fwd] == first_fwd)
			break;
	if (first_fwd == d->type_cnt)
		return 0;
	/*
	 * Anonymous ones are counted aside: in the table they would all
	 * share one hash, and inserting thousands of them (a vmlinux base)
	 * took quadratic time in the probing.
	 */
	for (id = 1; id < d->type_cnt && !err; id++) {
		uint32_t name_off;

		if (!is_composite_kind(d->kinds[id]) || d->map[id] != id)
			continue;
		name_off = tp(d, id)->name_off;
		if (!name_off) {
			anon_nr++;
			anon_id = id;
			continue;
		}
		err = dedup_table_add(&names, hmix(0, name_off), id);
	}
	for (id = first_fwd; id < d->type_cnt && !err; id++) {
		const struct btf_type *t;
		uint32_t found = anon_id, nr = anon_nr;
		size_t pos;
		uint64_t h;

		if (d->kinds[id] != BTF_KIND_FWD || d->map[id] != id)
			continue;
		t = tp(d, id);
		if (t->name_off) {
			found = nr = 0;
			h = hmix(0, t->name_off);
			/* hmix(0, x) is a bijection: equal hashes mean equal names. */
			for_each_cand(&names, h, pos, cand_id) {
				found = cand_id;
				nr++;
			}
		}
		if (nr == 1 && d->kinds[found] == fwd_kind(t))
			d->map[id] = found;
	}
	dedup_table_free(&names);
	return err;
}

/* ---- phase 4: reference kinds ---- */

/* Where a walk of phase 4 looks for candidates and adds its own. */
struct ref_walk {
	struct dedup *d;
	struct cand_table *tab;
	/*
	 * Reference kinds below this id are the other thread's: references
	 * to them stay as they are (see dedup_refs()).
	 */
	uint32_t lo;
};

static int dedup_ref_type(const struct ref_walk *rw, uint32_t id);

/* Replaces *@ref by its canonical id. */
static int dedup_ref_fields(uint32_t *ref, void *arg)
{
	int r = dedup_ref_type(arg, *ref);

	if (r < 0)
		return r;
	*ref = r;
	return 0;
}

/* The comparison of a reference kind, NULL for any other kind. */
static equal_fn ref_equal(unsigned int kind)
{
	switch ((enum btf_kind)kind) {
	case BTF_KIND_CONST:
	case BTF_KIND_VOLATILE:
	case BTF_KIND_RESTRICT:
	case BTF_KIND_PTR:
	case BTF_KIND_TYPEDEF:
	case BTF_KIND_FUNC:
	case BTF_KIND_TYPE_TAG:
		return equal_common;
	case BTF_KIND_DECL_TAG:
		return equal_int_tag;
	case BTF_KIND_ARRAY:
		return equal_array;
	case BTF_KIND_FUNC_PROTO:
		return equal_fnproto;
	case BTF_KIND_LOC_PROTO:
		return equal_loc_proto;
	case BTF_KIND_INT:
	case BTF_KIND_STRUCT:
	case BTF_KIND_UNION:
	case BTF_KIND_ENUM:
	case BTF_KIND_FWD:
	case BTF_KIND_VAR:
	case BTF_KIND_DATASEC:
	case BTF_KIND_FLOAT:
	case BTF_KIND_ENUM64:
	case BTF_KIND_LOC_PARAM:
	case BTF_KIND_LOCSEC:
	case BTF_KIND_UNKN:
	case NR_BTF_KINDS:
		break;
	}
	return NULL;
}

static int dedup_ref_type(const struct ref_walk *rw, uint32_t id)
{
	struct dedup *d = rw->d;
	struct btf_type *t;
	uint32_t new_id;
	equal_fn equal;
	uint64_t h;
	int err;

	if (id < rw->lo && ref_equal(d->kinds[id]))
		return id;
	if (d->map[id] == ID_IN_PROGRESS)
		return -ELOOP;
	if (is_mapped(d, id))
		return resolve_id(d, id);

	t = tp(d, id);
	d->map[id] = ID_IN_PROGRESS;
	equal = ref_equal(btf_kind(t));
	if (!equal)
		return -EINVAL;
	err = btf_type_visit_type_ids(t, d->btf->layout, dedup_ref_fields, (void *)rw);
	if (err)
		return err;
	err = type_hash(d, t, &h);
	if (err)
		return err < 0 ? err : -EINVAL;
	new_id = find_equal_in(d, d->base_tab, rw->tab, id, h, equal);
	d->map[id] = new_id;
	if (new_id == id && (err = dedup_table_add(rw->tab, h, id)))
		return err;
	return new_id;
}

static int dedup_refs_run(const struct ref_walk *rw, uint32_t from, uint32_t to)
{
	uint32_t id;
	int err;

	for (id = from; id < to; id++) {
		err = dedup_ref_type(rw, id);
		if (err < 0)
			return err;
	}
	return 0;
}

/*
 * Phase 4 on two threads.  At a cut (no type before it refers to it or
 * beyond: each CU of the encoder's merged BTF) the walks of the two
 * halves stay apart, and in id order each visits its types as one walk
 * over all would.  The first half runs as that walk does.  The second
 * leaves its references to the first half's reference kinds as they are
 * (the exact merge points a CU at earlier CUs' types; STRUCTs and the
 * other kinds of phases 2-3 are final already), and finds candidates
 * among its own types (and the base's) only: it maps each type to the
 * first of its class in the half, which one walk over all also picks
 * unless the class has a member in the first half or takes in another
 * once the references resolve.  Its own canonical types are then looked
 * up, in the order it found them (referred-to types first, as one walk
 * would take them), among the first half's and those of its own looked
 * up before: each that has an equal there maps to it, after its
 * references were resolved through the ones mapped before.  Types mapped
 * to one that moved follow the map on; the records of types not kept are
 * not read again.
 */
struct ref_half {
	struct ref_walk rw;
	uint32_t from, to;
	int err;
};

static void *ref_half_run(void *arg)
{
	struct ref_half *h = arg;

	h->err = dedup_refs_run(&h->rw, h->from, h->to);
	return NULL;
}

static int resolve_field(uint32_t *ref, void *arg)
{
	*ref = resolve_id(arg, *ref);
	return 0;
}

static int refs_join(struct dedup *d, const struct cand_table *second)
{
	size_t i;
	int err;

	for (i = 0; i < second->cnt; i++) {
		uint32_t id = second->entries[i].id, to;
		struct btf_type *t = tp(d, id);
		uint64_t h;

		err = btf_type_visit_type_ids(t, d->btf->layout, resolve_field, d);
		if (err)
			return err;
		err = type_hash(d, t, &h);
		if (err)
			return err < 0 ? err : -EINVAL;
		/* The base too: the second half compared unresolved references. */
		to = find_equal_in(d, d->base_tab, &d->tab, id, h, ref_equal(btf_kind(t)));
		if (to != id)
			d->map[id] = to;
		/* Equal to a later one of the half once references resolve. */
		else if ((err = dedup_table_add(&d->tab, h, id)))
			return err;
	}
	return 0;
}

/* The cut nearest the middle of the own ids, or 0. */
static uint32_t middle_cut(const struct dedup *d)
{
	uint32_t mid = d->start_id + (d->type_cnt - d->start_id) / 2;
	size_t lo = 0, hi = d->cuts_cnt;

	while (lo < hi) {
		size_t m = lo + (hi - lo) / 2;

		if (d->cuts[m] < mid)
			lo = m + 1;
		else
			hi = m;
	}
	if (lo == d->cuts_cnt || (lo && mid - d->cuts[lo - 1] < d->cuts[lo] - mid))
		lo--;
	return d->cuts_cnt ? d->cuts[lo] : 0;
}

static int dedup_refs(struct dedup *d)
{
	struct ref_walk first = { d, &d->tab };
	struct ref_half second = { { d, NULL } };
	struct cand_table tab = {};
	uint32_t cut = 0;
	pthread_t th;
	int err;

	/* With the cuts found for two threads (no base, not fed ahead). */
	if (d->cuts_cnt && !d->ahead)
		cut = middle_cut(d);
	if (cut <= d->start_id || cut >= d->type_cnt)
		return dedup_refs_run(&first, d->start_id, d->type_cnt);
	second.rw.tab = &tab;
	second.rw.lo = cut;
	second.from = cut;
	second.to = d->type_cnt;
	if (pthread_create(&th, NULL, ref_half_run, &second)) {
		err = dedup_refs_run(&first, d->start_id, d->type_cnt);
		goto out;
	}
	err = dedup_refs_run(&first, d->start_id, cut);
	pthread_join(th, NULL);
	if (!err)
		err = second.err;
	if (!err)
		err = refs_join(d, &tab);
out:
	dedup_table_free(&tab);
	return err;
}

/* ---- phases 5 and 6: compaction and remapping ---- */

/*
 * After compaction every root's map entry holds its new id | ID_NEW,
 * and every other entry still leads to its root.
 */
static uint32_t new_id_of(const struct dedup *d, uint32_t id)
{
	uint32_t v = d->map[id];

	while (!(v & ID_NEW))
		v = d->map[v];
	return v & ~ID_NEW;
}

static int remap_type_id(uint32_t *id, void *arg)
{
	const struct dedup *d = arg;

	if (*id >= d->type_cnt)
		return -EINVAL;
	*id = new_id_of(d, *id);
	return 0;
}

/*
 * Moves the canonical records to the front of d->types, fills @offs (new
 * record offsets), turns the map's roots into new ids (base ids
 * unchanged), then rewrites every id field.  Returns the new types
 * length.
 */
static long dedup_compact(struct dedup *d, uint32_t *offs, uint32_t *nr)
{
	uint32_t id, next = d->start_id;
	size_t len = 0;
	int err;

	for (id = 0; id < d->start_id; id++)
		d->map[id] = id | ID_NEW;
	for (id = d->start_id; id < d->type_cnt; id++) {
		struct btf_type *t;
		long sz;

		if (!is_mapped(d, id))
			return -EINVAL;
		if (d->map[id] != id)
			continue;
		t = tp(d, id);
		sz = btf_type_size_layout(t, d->btf->layout);
		if (sz < 0)
			return sz;
		memmove(d->types + len, t, sz);
		/* In place, offs is d->offs: entry next <= id, id read above. */
		offs[next - d->start_id] = len;
		d->map[id] = next++ | ID_NEW;
		len += sz;
	}
	*nr = next - d->start_id;
	/* tp() now takes new ids; the map still speaks old ids. */
	d->offs = offs;
	for (id = d->start_id; id < next; id++) {
		err = btf_type_visit_type_ids(tp(d, id), d->btf->layout, remap_type_id, d);
		if (err)
			return err;
	}
	return len;
}

/*
 * Old own id -> new id, as the caller's id map wants it, built over
 * d->map (one 13 MB array less at the peak, vmlinux) and taken from d.
 */
static uint32_t *build_id_map(struct dedup *d)
{
	uint32_t n = d->type_cnt - d->start_id, id;
	uint32_t *out;

	/* Tagged, an entry already written still ends the walk of a later one. */
	for (id = d->start_id; id < d->type_cnt; id++)
		d->map[id] = new_id_of(d, id) | ID_NEW;
	for (id = d->start_id; id < d->type_cnt; id++)
		d->map[id - d->start_id] = d->map[id] & ~ID_NEW;
	out = realloc(d->map, (n ? n : 1) * sizeof(*out));
	out = out ? out : d->map;
	d->map = NULL;
	return out;
}

/*
 * The struct phase compares each CU's types, which lie together, against
 * canonical ones that stay in cache: the records ahead of @id are what
 * it waits for.  Keeps 64 KB of them prefetched (the struct phase of a
 * vmlinux: 5-7% faster; the reference phase, whose walks are shorter,
 * gets slower with it).
 */
static void prefetch_window(const struct dedup *d, uint32_t id, size_t *ahead)
{
	size_t at = d->offs[id - d->start_id], want = at + (64u << 10);

	if (want > d->btf->types_len)
		want = d->btf->types_len;
	if (*ahead < at)
		*ahead = at;
	for (; *ahead < want; *ahead += 64)
		__builtin_prefetch(d->types + *ahead);
}

/*
 * Phase 3 on ids [@from, @to) as walk @w sees them: with a view, until
 * told to give up (-EAGAIN), or until its work ends or fails (v->err);
 * v->stop is the first id not done.
 */
int dedup_structs_run(struct walk *w, uint32_t from, uint32_t to)
{
	struct dedup *d = w->d;
	struct view *v = w->v;
	size_t ahead = 0;
	uint32_t id;
	int err = 0;

	for (id = from; id < to; id++) {
		if (v && (v->err || (v->give_up && __atomic_load_n(v->give_up, __ATOMIC_ACQUIRE))))
			break;
		prefetch_window(d, id, &ahead);
		if (v)
			v->pos = id;
		err = dedup_struct_type(w, id);
		if (err)
			break;
	}
	if (v)
		v->stop = id;
	return err;
}

/* Back to the state at the checkpoint: the log undone, later entries dropped. */
static int dedup_rewind(struct dedup *d)
{
	uint32_t id;

	while (d->undo_cnt) {
		d->undo_cnt--;
		d->map[d->undo[d->undo_cnt].id] = d->undo[d->undo_cnt].old;
	}
	for (id = d->cp_from; id < d->type_cnt; id++)
		d->map[id] = map_initial(d, id);
	hypot_clear(&d->w);
	d->tab.cnt = d->cp_tab_cnt;
	d->rewind = false;
	return d->tab.slots ? table_rehash(&d->tab, d->tab.mask + 1) : 0;
}

/* Primitives whose records are requested at once (phase 2). */
#define PRIM_BATCH 32

/* Phases 2 and 3 over own ids [@from, type_cnt). */
static int dedup_prims_structs(struct dedup *d, uint32_t from)
{
	uint32_t id;
	int err;

again:
	d->run_from = from;
	d->run_tab_cnt = d->tab.cnt;
	if (!d->cp_set)
		d->undo_cnt = 0;
	for (id = from; id < d->type_cnt;) {
		uint32_t batch[PRIM_BATCH], n = 0, i;
		const char *rec;

		/*
		 * The kinds say which ids are primitives (~10%); their
		 * records, spread over all of them (vmlinux: 340K in 130 MB),
		 * are requested a batch at a time: one after the other, each
		 * missed the cache (~30 ms on one CPU).
		 */
		for (; id < d->type_cnt && n < PRIM_BATCH; id++) {
			err = prim_kind(d->kinds[id]);
			if (err < 0)
				return err;
			if (!err)
				continue;
			batch[n++] = id;
			rec = (const char *)tp(d, id);
			/* An enum's values run on: its next line too. */
			__builtin_prefetch(rec);
			__builtin_prefetch(rec + 64);
		}
		for (i = 0; i < n; i++) {
			if ((err = dedup_prim_type(d, batch[i])))
				return err;
			if (!d->rewind)
				continue;
			err = dedup_rewind(d);
			if (err)
				return err;
			from = d->cp_from;
			goto again;
		}
	}
	if (d->cuts_cnt && !d->ahead && from == d->start_id)
		err = dedup_structs_rounds(d, from);
	else
		err = dedup_structs_run(&d->w, from, d->type_cnt);
	if (err)
		return err;
	d->done = d->type_cnt;
	return 0;
}

/*
 * Back to the state before phase 2, for a run over all types: what the
 * id check set, the base alone in the table.
 */
static int dedup_restart(struct dedup *d)
{
	uint32_t id;

	for (id = 0; id < d->type_cnt; id++)
		d->map[id] = map_initial(d, id);
	hypot_clear(&d->w);
	dedup_table_free(&d->tab);
	d->redo = d->rewind = d->cp_set = d->ahead = false;
	d->undo_cnt = 0;
	return dedup_prep_base(d);
}

/* Phase 1-3 for the types not fed ahead, then phases 3b and 4. */
static int dedup_types(struct dedup *d)
{
	uint32_t from = d->done;
	int err;

	err = dedup_refresh(d);
	if (!err)
		err = dedup_copy(d);
	/* The string phase turns out to be needed after all: nothing ran it. */
	if (!err && d->keep_strs && !strset__unique(d->btf->strs)) {
		d->keep_strs = false;
		d->redo = true;
		err = dedup_index(d);
		if (!err)
			err = dedup_strings(d);
	}
	if (!err)
		err = dedup_scan(d, from);
	/* A redo found in this last run too: the one over all types cannot ask for another. */
	while (!err) {
		if (d->redo) {
			from = d->start_id;
			err = dedup_restart(d);
		}
		/* Nothing fed: one run over all types. */
		if (from == d->start_id)
			d->ahead = false;
		if (!err)
			err = dedup_prims_structs(d, from);
		if (!d->redo)
			break;
	}
	if (err)
		return err;
	err = dedup_resolve_fwds(d);
	if (err)
		return err;
	return dedup_refs(d);
}

/* Swaps the deduped records and strings into @btf; cannot fail. */
static void dedup_install(struct dedup *d, long len, uint32_t *offs, uint32_t nr)
{
	struct btf *btf = d->btf;
	size_t cap = len ? len : 1;
	char *types = realloc(d->types, cap);

	if (types)
		d->types = types;
	else
		cap = d->types_cap;
	/* In place, realloc() has already dealt with the old buffer. */
	if (!d->in_place)
		free(btf->types);
	btf->types = d->types;
	btf->types_len = len;
	btf->types_cap = cap;
	d->types = NULL;
	d->in_place = false;
	if (offs != btf->type_offs) {
		free(btf->type_offs);
	} else {
		/* In place: give back what 3.3M offsets took (vmlinux). */
		uint32_t *fit = realloc(offs, (nr ? nr : 1) * sizeof(*offs));

		offs = fit ? fit : offs;
	}
	btf->type_offs = offs;
	btf->type_offs_cap = nr ? nr : 1;
	btf->nr_types = nr;
	if (d->keep_strs)
		return;
	strset__free(btf->strs);
	btf->strs = d->strs;
	d->strs = NULL;
}

/* ---- keep_strings: the kept types' strings, after the fact ---- */

/* @fn on each string offset of the types @btf owns, in id order; its first error. */
static int visit_own_str_offs(struct btf *btf, int (*fn)(uint32_t *off, void *ctx), void *ctx)
{
	uint32_t i;
	int err = 0;

	for (i = 0; i < btf->nr_types && !err; i++)
		err = btf_type_visit_str_offs(
			(struct btf_type *)((char *)btf->types + btf->type_offs[i]), btf->layout,
			fn, ctx);
	return err;
}

struct str_move {
	const struct strset *old;
	struct strset *set;
	/*
	 * Old offset -> new, where no two offsets in use have the same
	 * bytes: a table btf_merge_strs_checked() found so.  Any other
	 * table, built by adding strings, may still have a name pointing
	 * into another string (a record edited by hand): its strings are
	 * hashed.
	 */
	bool by_offset;
	struct btf_off_map map;
	bool rewrite;
};

static int move_str(uint32_t *off, void *arg)
{
	struct str_move *m = arg;
	const char *s;
	long n;

	if (!*off)
		return 0;
	if (*off >= m->old->len)
		return -EINVAL;
	if (!m->by_offset) {
		if (m->rewrite) {
			*off = strset__find_str(m->set, m->old->data + *off);
			return 0;
		}
		n = strset__add_str(m->set, m->old->data + *off);
		return n < 0 ? n : 0;
	}
	n = btf_off_map_get(&m->map, *off);
	if (m->rewrite) {
		*off = n;
		return 0;
	}
	if (n >= 0)
		return 0;
	s = m->old->data + *off;
	n = *s ? strset__append_distinct(m->set, s) : 0;
	return n < 0 ? n : btf_off_map_put(&m->map, *off, n);
}

/*
 * The string phase skipped, the table still holds every string of the
 * 3.3M types (vmlinux): give the ~34K kept ones a table of only the
 * strings they use, in the order they first use them.  In the encoder's
 * (the file's .debug_str, checked), no string in use has two offsets, so
 * each is appended the first time its offset comes up and found again
 * by offset, neither hashed nor compared (vmlinux: 10-14 -> 6-9 ms); the
 * new table is indexed at its first lookup.  Strings are collected
 * first, so a failure changes nothing: the full table is as valid, only
 * larger.
 */
static int compact_strings(struct btf *btf)
{
	struct str_move m = { btf->strs, strset__new("", 1), btf->strs->index_from > 0, {}, false };
	int err = m.set ? 0 : -ENOMEM, pass;

	for (pass = 0; pass < 2 && !err; pass++) {
		m.rewrite = pass;
		err = visit_own_str_offs(btf, move_str, &m);
	}
	btf_off_map_free(&m.map);
	if (err) {
		strset__free(m.set);
		return err;
	}
	strset__free(btf->strs);
	btf->strs = m.set;
	return 0;
}

/*
 * Whether @btf's strings are already what the string phase would make of
 * them: no string twice, each one used, in the order the types first use
 * them.  The encoder's second dedup gets such a table (compact_strings()
 * after the first, then names appended as their types were): its string
 * phase was most of that dedup's time, and gave the same table back.
 */
struct first_use {
	const struct strset *set;
	uint64_t *starts; /* bit o: a string starts at o (one already seen) */
	uint32_t next;	  /* where the next string not seen yet must start */
};

static int check_first_use(uint32_t *off, void *arg)
{
	struct first_use *u = arg;

	/* Past the table: the phase fails on it, and so does this. */
	if (*off >= u->set->len)
		return -EINVAL;
	if (*off < u->next) {
		/* Not the start of a string seen: into one, as no phase makes it. */
		return *off && !(u->starts[*off / 64] >> (*off % 64) & 1) ? -EINVAL : 0;
	}
	if (*off != u->next)
		return -EINVAL;
	u->starts[*off / 64] |= 1ull << (*off % 64);
	u->next += strnlen(u->set->data + *off, u->set->len - *off) + 1;
	return 0;
}

static bool strs_in_first_use_order(struct btf *btf)
{
	struct first_use u = { btf->strs, NULL, 1 };
	int err;

	/* A prefix set is unique only in the strings in use when it was checked. */
	if (btf->base || !strset__unique(btf->strs) || btf->strs->index_from || !btf->strs->len ||
	    btf->strs->data[0])
		return false;
	u.starts = calloc(btf->strs->len / 64 + 1, sizeof(*u.starts));
	if (!u.starts)
		return false;
	err = visit_own_str_offs(btf, check_first_use, &u);
	free(u.starts);
	return !err && u.next == btf->strs->len;
}

/* CPUs this thread may run on. */
static int cpus_free(void)
{
	cpu_set_t set;

	if (sched_getaffinity(0, sizeof(set), &set))
		return 1;
	return CPU_COUNT(&set);
}

static struct btf_dedup *dedup_new(struct btf *btf, const struct btf_dedup_opts *opts,
				    bool ahead)
{
	struct btf_dedup *dd;
	bool keep_strs;
	int err;

	if (!btf) {
		errno = EINVAL;
		return NULL;
	}
	keep_strs = opts && opts->keep_strings && !btf->base && strset__unique(btf->strs);
	/*
	 * Merged with its offsets deferred: the id check finds them, in
	 * place with nothing to read the records before it (no strings to
	 * redo); else they are needed from here on.
	 */
	if (keep_strs && opts->in_place && !ahead)
		err = btf_offs_reserve(btf);
	else
		err = btf_index_types(btf);
	if (err) {
		errno = -err;
		return NULL;
	}
	dd = calloc(1, sizeof(*dd));
	if (!dd)
		return NULL;
	dd->d.keep_strs = keep_strs;
	/* Nothing for the string phase to do, nor a compaction after. */
	if (!dd->d.keep_strs && !ahead && strs_in_first_use_order(btf))
		dd->d.keep_strs = dd->d.strs_final = true;
	dd->d.round_types = opts && opts->round_types ? opts->round_types : ROUND_TYPES;
	dd->d.want_cuts = opts && opts->jobs >= 2 && !ahead && !btf->base &&
			  btf->nr_types >= 2 * dd->d.round_types && cpus_free() >= 2;
	err = dedup_init(&dd->d, btf, opts && opts->in_place, ahead);
	if (err) {
		btf_dedup_free(dd);
		errno = -err;
		return NULL;
	}
	return dd;
}

struct btf_dedup *btf_dedup_new(struct btf *btf, const struct btf_dedup_opts *opts)
{
	return dedup_new(btf, opts, true);
}

int btf_dedup_feed(struct btf_dedup *dd)
{
	struct dedup *d = &dd->d;
	int err;

	if (!d->in_place || d->redo)
		return 0;
	err = dedup_refresh(d);
	if (!err)
		err = dedup_scan(d, d->done);
	if (!err)
		err = dedup_prims_structs(d, d->done);
	/* Bad ids or strings: the run over all types at the end reports them. */
	if (err == -EINVAL) {
		d->redo = true;
		return 0;
	}
	return err;
}

void btf_dedup_free(struct btf_dedup *dd)
{
	if (!dd)
		return;
	dedup_free(&dd->d);
	free(dd);
}

int btf_dedup_finish(struct btf_dedup *dd, uint32_t **id_map_out)
{
	struct dedup *d = &dd->d;
	struct btf *btf = d->btf;
	uint32_t *offs = NULL, *id_map = NULL, nr = 0;
	long len;
	int err;

	err = dedup_types(d);
	if (err)
		goto out;

	/* In place, the new offsets go over the old ones (compaction reads records through d->tp). */
	offs = d->in_place && btf->type_offs ? btf->type_offs :
		malloc((btf->nr_types ? btf->nr_types : 1) * sizeof(*offs));
	if (!offs) {
		err = -ENOMEM;
		goto out;
	}
	len = dedup_compact(d, offs, &nr);
	if (len < 0) {
		err = len;
		goto out;
	}
	if (id_map_out) {
		id_map = build_id_map(d);
		if (!id_map) {
			err = -ENOMEM;
			goto out;
		}
		*id_map_out = id_map;
	}
	dedup_install(d, len, offs, nr);
	offs = NULL;
	if (d->keep_strs && !d->strs_final)
		compact_strings(btf);
out:
	if (offs != btf->type_offs)
		free(offs);
	btf_dedup_free(dd);
	return err;
}

int btf__dedup(struct btf *btf, const struct btf_dedup_opts *opts)
{
	struct btf_dedup *dd = dedup_new(btf, opts, false);

	if (!dd)
		return -errno;
	return btf_dedup_finish(dd, opts ? opts->id_map : NULL);
}
