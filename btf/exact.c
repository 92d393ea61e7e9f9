// SPDX-License-Identifier: GPL-2.0
/*
 * exact.c - merges that leave out exact copies of types merged before.
 *
 * A kernel's CUs repeat each other's types: of the 3.3M records the
 * encoder's merge of vmlinux appended, 61% were exact copies of a type an
 * earlier CU had (the same record, its references to copies in turn).
 * Left out, they cost neither the fresh memory the merge writes them to
 * nor the dedup's work, and the dedup's output stays byte for byte the
 * same, on two conditions:
 *
 *  - A copy is replaced only by a type of an earlier merge.  The dedup
 *    takes types in id order (a reference type's referents first, but
 *    those are in its own CU), so it meets the earlier one first: that
 *    one decides the canonical type either way.
 *  - No two types of one merge are replaced by the same type.  The
 *    dedup's comparisons pair each type on the canonical side with one
 *    of the candidate's CU, and would find one where there were two.
 *
 * Types that reach themselves (a struct, a pointer to it) are found as
 * strongly connected components (Tarjan) and compared whole, in id order.
 */
#include "btf_internal.h"

#include <stdlib.h>

/* map[] of a type that no earlier one replaces, and of one not settled yet. */
#define EXACT_NEW     UINT32_MAX
#define EXACT_PENDING (UINT32_MAX - 1)
/*
 * A reference inside a cycle, in a cycle's hash: its position (ids stay
 * below).  In the list of components: a cycle's index.
 */
#define IN_CYCLE 0x80000000u

/*
 * A type a later merge's copies may be replaced by, in the hash table
 * itself: one cache miss to find it.
 */
struct exact_rep {
	uint32_t hash;	/* bit 0 set: a cycle */
	uint32_t id;	/* the type (0: the slot is empty); in a cycle, its first */
	uint32_t off;	/* its record in dst; in a cycle, its first in members[] */
	uint32_t claim; /* the last merge that replaced a type by it */
};

struct exact_member {
	uint32_t id, off;
};

struct btf_exact {
	/* Open addressing, linear probing. */
	struct exact_rep *slots;
	size_t mask, cnt;
	/* A cycle's types: its number of types, then each type. */
	struct exact_member *members;
	size_t nr_members, members_cap;
	uint32_t stamp;
	/* Types merged and copies left out so far. */
	uint64_t types, copies;

	/* The merge at hand, an entry per type of its source. */
	const struct btf *dst;
	uint32_t start_id;
	enum btf_loc_layout layout;
	uint32_t nr, first_id, nr_new;
	size_t cap;
	/*
	 * The components, in the order Tarjan's walk closed them (referenced
	 * ones first): a type in no cycle, or IN_CYCLE | its cycle's index.
	 */
	uint32_t *order, nr_order;
	void *recs; /* the records, names mapped, ids not */
	size_t recs_cap;
	uint32_t *offs;	     /* of type i in recs; offs[nr]: their end */
	uint32_t *map;	     /* type i -> dst id, EXACT_NEW or EXACT_PENDING */
	uint32_t *ref_first; /* refs[ref_first[i]..ref_first[i + 1]): its local references */
	uint32_t *refs;
	size_t nr_refs, refs_cap;
	uint32_t *idx, *low; /* Tarjan's; 0 is not visited */
	uint32_t *cursor;    /* the next reference of a type on the walk */
	uint32_t *walk, *stack;
	uint8_t *on_stack;
	uint32_t *cycle; /* 0, or the index of its cycle + 1 */
	uint32_t *pos;	 /* in its cycle */
	uint32_t *hash;	 /* of a type in no cycle, once hashed[] says so */
	uint8_t *hashed;
	/* The cycles: nodes[cyc_first[c]] on, in id order. */
	uint32_t *cyc_first, *cyc_hash;
	uint8_t *cyc_hashed;
	size_t nr_cycles, cycles_cap;
	uint32_t *nodes;
	uint32_t *key; /* a record with its ids mapped */
	size_t key_cap;
	/* A bad id (out of the merge's range): no type of the merge is replaced. */
	bool plain;
};

struct btf_exact *btf_exact_new(void)
{
	return calloc(1, sizeof(struct btf_exact));
}

void btf_exact_free(struct btf_exact *x)
{
	if (!x)
		return;
	free(x->slots);
	free(x->members);
	free(x->recs);
	free(x->offs);
	free(x->map);
	free(x->ref_first);
	free(x->refs);
	free(x->idx);
	free(x->low);
	free(x->cursor);
	free(x->walk);
	free(x->stack);
	free(x->on_stack);
	free(x->cycle);
	free(x->pos);
	free(x->hash);
	free(x->hashed);
	free(x->cyc_first);
	free(x->cyc_hash);
	free(x->cyc_hashed);
	free(x->nodes);
	free(x->order);
	free(x->key);
	free(x);
}

static int grow(void *p, size_t elem, size_t n)
{
	void *q = realloc(*(void **)p, elem * (n ? n : 1));

	if (!q)
		return -ENOMEM;
	*(void **)p = q;
	return 0;
}

void *btf_exact_begin(struct btf_exact *x, size_t len, uint32_t nr)
{
	size_t cap;
	int err = 0;

	x->plain = false;
	if (!x->cycles_cap) {
		if (grow(&x->cyc_first, sizeof(uint32_t), 256) ||
		    grow(&x->cyc_hash, sizeof(uint32_t), 256) || grow(&x->cyc_hashed, 1, 256))
			return NULL;
		x->cycles_cap = 256;
	}
	if (len > x->recs_cap) {
		if (grow(&x->recs, 1, len))
			return NULL;
		x->recs_cap = len;
	}
	if (nr < x->cap) {
		x->nr = nr;
		return x->recs;
	}
	cap = (size_t)nr + nr / 2 + 16;
	err |= grow(&x->offs, sizeof(uint32_t), cap + 1);
	err |= grow(&x->map, sizeof(uint32_t), cap);
	err |= grow(&x->ref_first, sizeof(uint32_t), cap + 1);
	err |= grow(&x->idx, sizeof(uint32_t), cap);
	err |= grow(&x->low, sizeof(uint32_t), cap);
	err |= grow(&x->cursor, sizeof(uint32_t), cap);
	err |= grow(&x->walk, sizeof(uint32_t), cap);
	err |= grow(&x->stack, sizeof(uint32_t), cap);
	err |= grow(&x->on_stack, 1, cap);
	err |= grow(&x->cycle, sizeof(uint32_t), cap);
	err |= grow(&x->pos, sizeof(uint32_t), cap);
	err |= grow(&x->hash, sizeof(uint32_t), cap);
	err |= grow(&x->hashed, 1, cap);
	err |= grow(&x->nodes, sizeof(uint32_t), cap);
	err |= grow(&x->order, sizeof(uint32_t), cap);
	if (err)
		return NULL;
	x->cap = cap;
	x->nr = nr;
	return x->recs;
}

uint32_t *btf_exact_offs(struct btf_exact *x)
{
	return x->offs;
}

const uint32_t *btf_exact_map(const struct btf_exact *x)
{
	return x->map;
}

static inline uint64_t mix(uint64_t h, uint32_t w)
{
	h = (h ^ w) * 0x9e3779b97f4a7c15ull;
	return h ^ (h >> 29);
}

/* Two words a step, in two lanes: the multiplications' latency overlaps. */
static uint32_t hash_words(uint64_t h, const uint32_t *w, size_t n)
{
	uint64_t a = h ^ n, b = 0x2545f4914f6cdd1dull;
	size_t i;

	for (i = 0; i + 4 <= n; i += 4) {
		a = (a ^ (w[i] | (uint64_t)w[i + 1] << 32)) * 0x9e3779b97f4a7c15ull;
		b = (b ^ (w[i + 2] | (uint64_t)w[i + 3] << 32)) * 0xff51afd7ed558ccdull;
		a ^= a >> 29;
		b ^= b >> 31;
	}
	for (; i < n; i++)
		a = mix(a, w[i]);
	a = mix(a ^ b, (uint32_t)(b >> 32));
	return (uint32_t)(a ^ (a >> 32));
}

static inline struct btf_type *rec(const struct btf_exact *x, uint32_t i)
{
	return (struct btf_type *)((char *)x->recs + x->offs[i]);
}

static inline uint32_t rec_size(const struct btf_exact *x, uint32_t i)
{
	return x->offs[i + 1] - x->offs[i];
}

static int note_ref(uint32_t *id, void *arg)
{
	struct btf_exact *x = arg;
	uint32_t i = *id - x->start_id;

	if (*id < x->start_id)
		return 0;
	if (i >= x->nr)
		x->plain = true;
	else
		x->refs[x->nr_refs++] = i;
	return 0;
}

/* Each type's references to types of the merge, as local indices. */
static int find_refs(struct btf_exact *x)
{
	/* An id takes a word of a record: no more of them than words. */
	size_t most = x->offs[x->nr] / 4;
	uint32_t i;

	if (most > x->refs_cap) {
		if (grow(&x->refs, sizeof(uint32_t), most))
			return -ENOMEM;
		x->refs_cap = most;
	}
	x->nr_refs = 0;
	for (i = 0; i < x->nr; i++) {
		x->ref_first[i] = x->nr_refs;
		btf_type_visit_type_ids(rec(x, i), x->layout, note_ref, x);
	}
	x->ref_first[x->nr] = x->nr_refs;
	return 0;
}

struct key_ctx {
	const struct btf_exact *x;
	/* In a cycle's hash: references inside cycle @cycle become positions. */
	uint32_t cycle;
};

static int map_ref(uint32_t *id, void *arg)
{
	const struct key_ctx *c = arg;
	const struct btf_exact *x = c->x;
	uint32_t i = *id - x->start_id;

	if (*id < x->start_id || i >= x->nr)
		return 0;
	*id = c->cycle && x->cycle[i] == c->cycle ? IN_CYCLE | x->pos[i] : x->map[i];
	return 0;
}

/*
 * Type @i's record with its ids mapped, in *@key: in x->key, or the
 * record itself where it refers to no type of the merge.  Its size in
 * words.
 */
static long make_key(struct btf_exact *x, uint32_t i, uint32_t cycle, const uint32_t **key)
{
	struct key_ctx c = { x, cycle };
	struct btf_type *t = rec(x, i);
	long sz = rec_size(x, i);

	*key = (const uint32_t *)t;
	if (x->ref_first[i] == x->ref_first[i + 1])
		return sz / 4;
	if ((size_t)sz > x->key_cap) {
		if (grow(&x->key, 1, sz))
			return -ENOMEM;
		x->key_cap = sz;
	}
	memcpy(x->key, t, sz);
	btf_type_visit_type_ids((struct btf_type *)x->key, x->layout, map_ref, &c);
	*key = x->key;
	return sz / 4;
}

/* Whether the record at @off in dst is @key, @n words. */
static bool key_is(const struct btf_exact *x, const uint32_t *key, uint32_t off, long n)
{
	const uint32_t *r = (const uint32_t *)((const char *)x->dst->types + off);

	/* The same header (kind, vlen) first: then the same size. */
	return r[0] == key[0] && r[1] == key[1] && r[2] == key[2] &&
	       !memcmp(r + 3, key + 3, (n - 3) * 4);
}

static int table_grow(struct btf_exact *x)
{
	size_t cap = x->slots ? (x->mask + 1) * 2 : 1u << 16, i, pos;
	struct exact_rep *n = calloc(cap, sizeof(*n));

	if (!n)
		return -ENOMEM;
	for (i = 0; x->slots && i <= x->mask; i++) {
		if (!x->slots[i].id)
			continue;
		for (pos = x->slots[i].hash & (cap - 1); n[pos].id; pos = (pos + 1) & (cap - 1))
			;
		n[pos] = x->slots[i];
	}
	free(x->slots);
	x->slots = n;
	x->mask = cap - 1;
	return 0;
}

/* Room for @n more entries, at most 3/4 full. */
static int table_reserve(struct btf_exact *x, size_t n)
{
	while (!x->slots || (x->cnt + n) * 4 > (x->mask + 1) * 3)
		if (table_grow(x))
			return -ENOMEM;
	return 0;
}

/* After table_reserve(): cannot fail. */
static void table_add(struct btf_exact *x, uint32_t hash, uint32_t id, uint32_t off)
{
	size_t pos;

	for (pos = hash & x->mask; x->slots[pos].id; pos = (pos + 1) & x->mask)
		;
	x->slots[pos] = (struct exact_rep){ hash, id, off, 0 };
	x->cnt++;
}

/*
 * Kinds the dedup never merges (it keeps every VAR, DATASEC and LOCSEC):
 * leaving out a copy of one would change its output.
 */
static bool never_merged(const struct btf_exact *x, uint32_t i)
{
	unsigned int kind = btf_kind(rec(x, i));

	return kind == BTF_KIND_VAR || kind == BTF_KIND_DATASEC || kind == BTF_KIND_LOCSEC;
}

/* An entry of order[]: a cycle, not a type. */
static inline bool is_cycle(uint32_t item)
{
	return item & IN_CYCLE;
}

/*
 * Whether every reference of @v out of cycle @cycle (0: none) is settled
 * and none is a new type; *@new: one is new, so @v is too.
 */
static bool refs_old(const struct btf_exact *x, uint32_t v, uint32_t cycle, bool *new)
{
	uint32_t k, m;

	for (k = x->ref_first[v]; k < x->ref_first[v + 1]; k++) {
		if (cycle && x->cycle[x->refs[k]] == cycle)
			continue;
		m = x->map[x->refs[k]];
		if (m == EXACT_NEW)
			*new = true;
		if (m >= EXACT_PENDING)
			return false;
	}
	return true;
}

/* The hash of cycle @c: its records in id order, references inside it as positions. */
static long cycle_hash(struct btf_exact *x, uint32_t c, uint32_t *hash)
{
	uint32_t i, nr = x->cyc_first[c + 1] - x->cyc_first[c];
	uint64_t h = 0x5bd1e995u + nr;
	const uint32_t *key;
	long n;

	for (i = 0; i < nr; i++) {
		n = make_key(x, x->nodes[x->cyc_first[c] + i], c + 1, &key);
		if (n < 0)
			return n;
		h = mix(h, hash_words(h, key, n));
	}
	*hash = (uint32_t)(h ^ (h >> 32)) | 1;
	return 0;
}

static void set_cycle(struct btf_exact *x, uint32_t c, uint32_t id)
{
	uint32_t i;

	for (i = x->cyc_first[c]; i < x->cyc_first[c + 1]; i++)
		x->map[x->nodes[i]] = id;
}

/*
 * Hashes component @item once what it refers to is settled, and asks for
 * the slot it will look at: done a few components ahead, so that the
 * table's cache misses overlap.  A component that refers to a new type is
 * new, and settled here.
 */
static int prepare(struct btf_exact *x, uint32_t item)
{
	uint32_t c = item & ~IN_CYCLE, i, v;
	bool new = false;
	const uint32_t *key;
	long n;

	if (!is_cycle(item)) {
		if (x->hashed[item] || x->map[item] != EXACT_PENDING)
			return 0;
		if (never_merged(x, item)) {
			x->map[item] = EXACT_NEW;
			return 0;
		}
		if (!refs_old(x, item, 0, &new)) {
			if (new)
				x->map[item] = EXACT_NEW;
			return 0;
		}
		n = make_key(x, item, 0, &key);
		if (n < 0)
			return n;
		x->hash[item] = hash_words(0, key, n) & ~1u;
		x->hashed[item] = 1;
		if (x->slots)
			__builtin_prefetch(&x->slots[x->hash[item] & x->mask]);
		return 0;
	}
	v = x->nodes[x->cyc_first[c]];
	if (x->cyc_hashed[c] || x->map[v] != EXACT_PENDING)
		return 0;
	for (i = x->cyc_first[c]; i < x->cyc_first[c + 1]; i++) {
		if (never_merged(x, x->nodes[i])) {
			set_cycle(x, c, EXACT_NEW);
			return 0;
		}
		if (!refs_old(x, x->nodes[i], c + 1, &new)) {
			if (new)
				set_cycle(x, c, EXACT_NEW);
			return 0;
		}
	}
	if ((n = cycle_hash(x, c, &x->cyc_hash[c])))
		return n;
	x->cyc_hashed[c] = 1;
	if (x->slots)
		__builtin_prefetch(&x->slots[x->cyc_hash[c] & x->mask]);
	return 0;
}

/* Then, nearer: the record in dst the first slot's type would be compared with. */
static void prefetch_record(const struct btf_exact *x, uint32_t item)
{
	uint32_t hash;
	const struct exact_rep *r;

	if (!x->slots || is_cycle(item) || !x->hashed[item])
		return;
	hash = x->hash[item];
	r = &x->slots[hash & x->mask];
	if (r->id && r->hash == hash)
		__builtin_prefetch((const char *)x->dst->types + r->off);
}

/* Type @v, in no cycle: replaced by an earlier type equal to it, if any. */
static int resolve_one(struct btf_exact *x, uint32_t v)
{
	uint32_t hash = x->hash[v];
	const uint32_t *key;
	size_t pos;
	long n = 0;

	for (pos = hash & x->mask; x->slots[pos].id; pos = (pos + 1) & x->mask) {
		struct exact_rep *r = &x->slots[pos];

		if (r->hash != hash || r->claim == x->stamp)
			continue;
		if (!n && (n = make_key(x, v, 0, &key)) < 0)
			return n;
		if (!key_is(x, key, r->off, n))
			continue;
		r->claim = x->stamp;
		x->map[v] = r->id;
		return 0;
	}
	x->map[v] = EXACT_NEW;
	return 0;
}

/* Whether cycle @c, its types mapped to those of @r in order, equals @r's types. */
static long cycle_is(struct btf_exact *x, uint32_t c, const struct exact_rep *r)
{
	const uint32_t *node = x->nodes + x->cyc_first[c];
	uint32_t i, nr = x->cyc_first[c + 1] - x->cyc_first[c];
	const uint32_t *key;
	long n;

	if (x->members[r->off - 1].id != nr)
		return 0;
	for (i = 0; i < nr; i++)
		x->map[node[i]] = x->members[r->off + i].id;
	for (i = 0; i < nr; i++) {
		n = make_key(x, node[i], 0, &key);
		if (n < 0)
			return n;
		if (!key_is(x, key, x->members[r->off + i].off, n))
			return 0;
	}
	return 1;
}

/* Cycle @c: replaced by an earlier cycle equal to it, if any. */
static int resolve_cycle(struct btf_exact *x, uint32_t c)
{
	uint32_t hash = x->cyc_hash[c];
	size_t pos;
	long ok;

	for (pos = hash & x->mask; x->slots[pos].id; pos = (pos + 1) & x->mask) {
		struct exact_rep *r = &x->slots[pos];

		if (r->hash != hash || r->claim == x->stamp)
			continue;
		ok = cycle_is(x, c, r);
		if (ok < 0)
			return ok;
		if (ok) {
			r->claim = x->stamp;
			return 0;
		}
	}
	set_cycle(x, c, EXACT_NEW);
	return 0;
}

/* Component @item, hashed: replaced by earlier types equal to it, or new. */
static int resolve(struct btf_exact *x, uint32_t item)
{
	uint32_t c = item & ~IN_CYCLE;

	if (!is_cycle(item)) {
		if (x->map[item] != EXACT_PENDING)
			return 0;
		if (x->slots)
			return resolve_one(x, item);
		x->map[item] = EXACT_NEW;
		return 0;
	}
	if (x->map[x->nodes[x->cyc_first[c]]] != EXACT_PENDING)
		return 0;
	if (x->slots)
		return resolve_cycle(x, c);
	set_cycle(x, c, EXACT_NEW);
	return 0;
}

/* How many components ahead prepare() and prefetch_record() look. */
#define AHEAD 8

/* Every component in the order they closed: what each refers to is settled first. */
static int resolve_all(struct btf_exact *x)
{
	uint32_t j, n = x->nr_order;
	int err = 0;

	for (j = 0; j < AHEAD && j < n && !err; j++)
		err = prepare(x, x->order[j]);
	for (j = 0; j < n && !err; j++) {
		if (j + AHEAD < n && (err = prepare(x, x->order[j + AHEAD])))
			break;
		if (j + AHEAD / 2 < n)
			prefetch_record(x, x->order[j + AHEAD / 2]);
		/* Not hashed ahead: what it refers to was settled since. */
		if (!(err = prepare(x, x->order[j])))
			err = resolve(x, x->order[j]);
	}
	return err;
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

/* The component of @v, just closed: the stack from @sp on. */
static int close_component(struct btf_exact *x, uint32_t v, uint32_t sp, uint32_t top)
{
	uint32_t *node = x->stack + sp, *out, nr = top - sp, c, i, k, lo, hi;
	bool self = false;

	for (i = 0; i < nr; i++)
		x->on_stack[node[i]] = 0;
	if (nr == 1) {
		for (k = x->ref_first[v]; k < x->ref_first[v + 1]; k++)
			self |= x->refs[k] == v;
		if (!self) {
			x->order[x->nr_order++] = v;
			return 0;
		}
	}
	if (x->nr_cycles + 2 > x->cycles_cap) {
		size_t cap = x->cycles_cap * 2 + 256;

		if (grow(&x->cyc_first, sizeof(uint32_t), cap) ||
		    grow(&x->cyc_hash, sizeof(uint32_t), cap) || grow(&x->cyc_hashed, 1, cap))
			return -ENOMEM;
		x->cycles_cap = cap;
	}
	c = x->nr_cycles++;
	lo = hi = v;
	for (i = 0; i < nr; i++) {
		x->cycle[node[i]] = c + 1;
		lo = node[i] < lo ? node[i] : lo;
		hi = node[i] > hi ? node[i] : hi;
	}
	/* nodes[] holds the cycles' types back to back: at most nr of them. */
	out = x->nodes + x->cyc_first[c];
	x->cyc_first[c + 1] = x->cyc_first[c] + nr;
	/* In id order: picked out of their range where that is short. */
	if (hi - lo < 16 * nr) {
		for (i = lo, k = 0; i <= hi; i++)
			if (x->cycle[i] == c + 1)
				out[k++] = i;
	} else {
		memcpy(out, node, nr * sizeof(*node));
		qsort(out, nr, sizeof(*out), cmp_u32);
	}
	for (i = 0; i < nr; i++)
		x->pos[out[i]] = i;
	x->cyc_hashed[c] = 0;
	x->order[x->nr_order++] = IN_CYCLE | c;
	return 0;
}

/*
 * Tarjan's walk, without recursion (a CU's types can nest thousands
 * deep).  Components close referenced ones first, so every reference out
 * of a component is settled when it is compared.
 */
static int find_components(struct btf_exact *x)
{
	uint32_t next = 0, sp = 0, s, v, w, depth;
	int err;

	memset(x->idx, 0, x->nr * sizeof(*x->idx));
	memset(x->hashed, 0, x->nr);
	for (s = 0; s < x->nr; s++)
		x->map[s] = EXACT_PENDING;
	x->nr_order = 0;
	memset(x->on_stack, 0, x->nr);
	/* close_component() picks a cycle's types out of a range by it. */
	memset(x->cycle, 0, x->nr * sizeof(*x->cycle));
	x->nr_cycles = 0;
	x->cyc_first[0] = 0;
	for (s = 0; s < x->nr; s++) {
		if (x->idx[s])
			continue;
		/* A type that refers to none of the merge's is a component of its own. */
		if (x->ref_first[s] == x->ref_first[s + 1]) {
			x->idx[s] = ++next;
			x->order[x->nr_order++] = s;
			continue;
		}
		depth = 0;
		x->walk[depth++] = s;
		x->cursor[s] = x->ref_first[s];
		x->idx[s] = x->low[s] = ++next;
		x->stack[sp++] = s;
		x->on_stack[s] = 1;
		while (depth) {
			v = x->walk[depth - 1];
			if (x->cursor[v] < x->ref_first[v + 1]) {
				w = x->refs[x->cursor[v]++];
				if (!x->idx[w] && x->ref_first[w] == x->ref_first[w + 1]) {
					x->idx[w] = ++next;
					x->order[x->nr_order++] = w;
				} else if (!x->idx[w]) {
					x->idx[w] = x->low[w] = ++next;
					x->cursor[w] = x->ref_first[w];
					x->stack[sp++] = w;
					x->on_stack[w] = 1;
					x->walk[depth++] = w;
				} else if (x->on_stack[w] && x->idx[w] < x->low[v]) {
					x->low[v] = x->idx[w];
				}
				continue;
			}
			depth--;
			if (x->low[v] == x->idx[v]) {
				uint32_t top = sp;

				while (x->stack[--sp] != v)
					;
				err = close_component(x, v, sp, top);
				if (err)
					return err;
			}
			if (depth && x->low[v] < x->low[x->walk[depth - 1]])
				x->low[x->walk[depth - 1]] = x->low[v];
		}
	}
	return 0;
}

long btf_exact_plan(struct btf_exact *x, const struct btf *dst, uint32_t start_id,
		    enum btf_loc_layout layout, uint32_t *nr_new)
{
	uint32_t i, c, id = btf__type_cnt(dst);
	size_t len = 0, entries = 0, members = 0;
	int err;

	x->stamp++;
	x->first_id = id;
	x->dst = dst;
	x->start_id = start_id;
	x->layout = layout;
	err = find_refs(x);
	if (!err && !x->plain)
		err = find_components(x);
	if (!err && !x->plain)
		err = resolve_all(x);
	if (err)
		return err;
	if (x->plain)
		for (i = 0; i < x->nr; i++)
			x->map[i] = EXACT_NEW;
	for (i = 0; i < x->nr; i++) {
		if (x->map[i] != EXACT_NEW)
			continue;
		x->map[i] = id++;
		len += rec_size(x, i);
	}
	*nr_new = x->nr_new = id - x->first_id;
	if (x->plain)
		return len;
	/*
	 * The new cycles' hashes, as a later merge's copies will compute
	 * them; and room for every new type, so that btf_exact_register()
	 * cannot fail once the records are appended.
	 */
	for (c = 0; c < x->nr_cycles; c++) {
		if (x->map[x->nodes[x->cyc_first[c]]] < x->first_id)
			continue;
		entries++;
		members += x->cyc_first[c + 1] - x->cyc_first[c] + 1;
		if (!x->cyc_hashed[c] && (err = cycle_hash(x, c, &x->cyc_hash[c])))
			return err;
	}
	for (i = 0; i < x->nr; i++)
		entries += x->map[i] >= x->first_id && !x->cycle[i];
	if (table_reserve(x, entries))
		return -ENOMEM;
	if (x->nr_members + members > x->members_cap) {
		size_t cap = (x->nr_members + members) * 2;

		if (grow(&x->members, sizeof(*x->members), cap))
			return -ENOMEM;
		x->members_cap = cap;
	}
	return len;
}

void btf_exact_register(struct btf_exact *x, const struct btf *dst, size_t off)
{
	const uint32_t *words;
	uint32_t i, c, k, nr;

	x->types += x->nr;
	x->copies += x->nr - x->nr_new;
	if (x->plain)
		return;
	/*
	 * The new types' records, in dst from @off on, in local order; low[]
	 * (the walk is over) takes each one's offset there.
	 */
	for (i = 0; i < x->nr; i++) {
		if (x->map[i] < x->first_id)
			continue;
		x->low[i] = off;
		off += rec_size(x, i);
		if (x->cycle[i])
			continue;
		/* Its record in dst is the key a later copy will make. */
		if (!x->hashed[i]) {
			words = (const uint32_t *)((const char *)dst->types + x->low[i]);
			x->hash[i] = hash_words(0, words, rec_size(x, i) / 4) & ~1u;
		}
		table_add(x, x->hash[i], x->map[i], x->low[i]);
	}
	for (c = 0; c < x->nr_cycles; c++) {
		const uint32_t *node = x->nodes + x->cyc_first[c];

		nr = x->cyc_first[c + 1] - x->cyc_first[c];
		if (x->map[node[0]] < x->first_id)
			continue;
		x->members[x->nr_members++] = (struct exact_member){ nr, 0 };
		for (k = 0; k < nr; k++)
			x->members[x->nr_members + k] =
				(struct exact_member){ x->map[node[k]], x->low[node[k]] };
		table_add(x, x->cyc_hash[c], x->map[node[0]], x->nr_members);
		x->nr_members += nr;
	}
}

void btf_exact_counts(const struct btf_exact *x, uint64_t *types, uint64_t *copies)
{
	*types = x->types;
	*copies = x->copies;
}
