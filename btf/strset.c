// SPDX-License-Identifier: GPL-2.0
/*
 * strset.c - a deduplicating string table, and the one memory growth
 * helper of btf/.
 */
#include "btf_internal.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* madvise(@advice) on the whole @align-sized blocks within [@p, @p + @len). */
static void advise_inner(void *p, size_t len, uintptr_t align, int advice)
{
	uintptr_t lo = ((uintptr_t)p + align - 1) & ~(align - 1);
	uintptr_t hi = ((uintptr_t)p + len) & ~(align - 1);

	if (hi > lo)
		madvise((void *)lo, hi - lo, advice);
}

/*
 * On the VMs this was measured on, a first write to a page costs 10-20
 * us, of which one syscall that maps the whole range in advance saves
 * about 40% (130 MB: ~100 ms).  Only for ranges the caller writes in
 * full; kernels before 5.14 refuse the advice, which is harmless.
 */
void btf_mem_populate(void *p, size_t len)
{
	advise_inner(p, len, sysconf(_SC_PAGESIZE), MADV_POPULATE_WRITE);
}

/*
 * Where a 4 KB page fault is dear (a vmlinux run on a paravirtualized VM:
 * ~70K faults at ~10 us, 0.7 s of 3 s CPU), 2 MB pages for the big arrays
 * halve the faults.  Arrays of under 4 MB are left alone: a
 * mostly empty huge page would count against the peak RSS.
 */
#define HUGE_SZ	 ((uintptr_t)2 << 20)
#define HUGE_MIN ((size_t)4 << 20)

void btf_mem_huge(void *p, size_t len)
{
	if (len >= HUGE_MIN)
		advise_inner(p, len, HUGE_SZ, MADV_HUGEPAGE);
}

static void *grow_mem(void **data, size_t *cap, size_t elem_sz, size_t cur_cnt, size_t max_cnt,
		      size_t add_cnt, bool zero_spare)
{
	size_t new_cnt, need = cur_cnt + add_cnt;
	void *p;

	if (need > max_cnt || need < cur_cnt)
		return NULL;
	if (need <= *cap)
		return (char *)*data + cur_cnt * elem_sz;

	/* Grow by 1.5x, at least 16 elements, as libbpf does. */
	new_cnt = *cap + *cap / 2;
	if (new_cnt < 16)
		new_cnt = 16;
	if (new_cnt > max_cnt)
		new_cnt = max_cnt;
	if (new_cnt < need)
		new_cnt = need;
	p = realloc(*data, new_cnt * elem_sz);
	if (!p)
		return NULL;
	btf_mem_huge(p, new_cnt * elem_sz);
	if (zero_spare)
		memset((char *)p + *cap * elem_sz, 0, (new_cnt - *cap) * elem_sz);
	*data = p;
	*cap = new_cnt;
	return (char *)p + cur_cnt * elem_sz;
}

void *btf_add_mem(void **data, size_t *cap, size_t elem_sz, size_t cur_cnt, size_t max_cnt,
		  size_t add_cnt)
{
	return grow_mem(data, cap, elem_sz, cur_cnt, max_cnt, add_cnt, true);
}

void *btf_grow_mem_slow(void **data, size_t *cap, size_t elem_sz, size_t cur_cnt, size_t max_cnt,
			size_t add_cnt)
{
	return grow_mem(data, cap, elem_sz, cur_cnt, max_cnt, add_cnt, false);
}

/*
 * Hash of the @n bytes at @s, 8 at a time (the per-CU string sets of a
 * vmlinux decode take ~15M lookups).  Only the index uses it: offsets
 * follow insertion order whatever the hash.
 */
static uint32_t str_hash(const char *s, size_t n)
{
	uint64_t h = 0x9e3779b97f4a7c15ull ^ n, w;

	for (; n >= 8; s += 8, n -= 8) {
		memcpy(&w, s, 8);
		h = (h ^ w) * 0xff51afd7ed558ccdull;
		h ^= h >> 32;
	}
	w = 0;
	memcpy(&w, s, n);
	h = (h ^ w) * 0xc4ceb9fe1a85ec53ull;
	h ^= h >> 29;
	return (uint32_t)(h ^ (h >> 32));
}

struct strset *strset__new(const void *init, size_t init_len)
{
	struct strset *set = calloc(1, sizeof(*set));

	if (!set)
		return NULL;
	if (init_len) {
		set->data = malloc(init_len);
		if (!set->data) {
			free(set);
			return NULL;
		}
		memcpy(set->data, init, init_len);
		set->len = set->cap = init_len;
		set->maybe_dups = init_len > 1;
	}
	return set;
}

struct strset *strset__new_prefix(const void *init, size_t init_len)
{
	struct strset *set = strset__new(init, init_len);

	if (set)
		set->index_from = init_len;
	return set;
}

void strset__free(struct strset *set)
{
	if (!set)
		return;
	free(set->data);
	free(set->index);
	free(set);
}

/* Slot holding @s (hash @h), or the empty slot where it would go. */
static struct strset_slot *index_slot(struct strset *set, const char *s, uint32_t h)
{
	size_t mask = set->index_cap - 1;
	size_t i = h & mask;

	for (;; i = (i + 1) & mask) {
		struct strset_slot *slot = &set->index[i];

		if (!slot->off1)
			return slot;
		if (slot->hash == h && !strcmp(set->data + slot->off1 - 1, s))
			return slot;
	}
}

/* An index of at least @cap slots (a power of two, 256 at the least). */
static int index_resize(struct strset *set, size_t cap)
{
	size_t old_cap = set->index_cap, i;
	struct strset_slot *old = set->index;

	/*
	 * Small: a CU's own strings (names gcc writes inline, the rest are
	 * .debug_str offsets) are a few dozen, and each of vmlinux's CUs has
	 * two sets (4096 slots: 140 MB of calloc() zeroing in all).
	 */
	set->index_cap = 256;
	while (set->index_cap < cap)
		set->index_cap *= 2;
	set->index = calloc(set->index_cap, sizeof(*set->index));
	if (!set->index) {
		set->index = old;
		set->index_cap = old_cap;
		return -ENOMEM;
	}
	btf_mem_huge(set->index, set->index_cap * sizeof(*set->index));
	/* Rehash without comparing strings: they are all distinct. */
	for (i = 0; i < old_cap; i++) {
		size_t j;

		if (!old[i].off1)
			continue;
		for (j = old[i].hash & (set->index_cap - 1); set->index[j].off1;
		     j = (j + 1) & (set->index_cap - 1))
			;
		set->index[j] = old[i];
	}
	free(old);
	return 0;
}

static int index_grow(struct strset *set)
{
	return index_resize(set, set->index_cap * 2);
}

/* How far ahead the index is prefetched: a slot, then its string. */
#define SLOT_AHEAD 16
#define STR_AHEAD  8

struct pending_str {
	uint32_t off; /* in the table being added */
	uint32_t len; /* without the NUL */
	uint32_t hash;
};

/*
 * Before the insert of @p[@i] of @nr: an insert into an index of a few
 * MB misses the cache twice (slot, then string), so both are requested
 * well before they are needed.
 */
static inline void prefetch_ahead(const struct strset *set, const struct pending_str *p, size_t i,
				  size_t nr, size_t mask)
{
	const struct strset_slot *slot;

	if (i + SLOT_AHEAD < nr)
		__builtin_prefetch(&set->index[p[i + SLOT_AHEAD].hash & mask]);
	if (i + STR_AHEAD < nr) {
		slot = &set->index[p[i + STR_AHEAD].hash & mask];
		if (slot->off1)
			__builtin_prefetch(set->data + slot->off1 - 1);
	}
}

/* Indexes every string of a loaded table; the first copy of a duplicate wins. */
static int index_build(struct strset *set)
{
	struct pending_str *p = NULL;
	size_t off = set->index_from, nr = 0, cap = 0, i, mask;

	/*
	 * The strings and their hashes first, then the index sized once for
	 * them (a vmlinux base's 2.5 MB took seven doublings, each rehashing
	 * all before it) and filled with its slots requested ahead: each
	 * insert missed the cache (a module's encode: a fifth of its time).
	 */
	while (off < set->len) {
		size_t n = strnlen(set->data + off, set->len - off);

		if (off + n >= set->len)
			break; /* unterminated tail: not a string */
		if (!btf_grow_mem((void **)&p, &cap, sizeof(*p), nr, UINT32_MAX, 1)) {
			free(p);
			return -ENOMEM;
		}
		p[nr].off = off;
		p[nr].len = n;
		p[nr].hash = str_hash(set->data + off, n);
		nr++;
		off += n + 1;
	}
	if (nr && index_resize(set, 2 * (nr + 1))) {
		free(p);
		return -ENOMEM;
	}
	/* Each page would fault twice: read (zero page), then written. */
	btf_mem_populate(set->index, set->index_cap * sizeof(*set->index));
	mask = set->index_cap - 1;
	for (i = 0; i < nr; i++) {
		struct strset_slot *slot;

		prefetch_ahead(set, p, i, nr, mask);
		slot = index_slot(set, set->data + p[i].off, p[i].hash);
		if (!slot->off1) {
			slot->off1 = p[i].off + 1;
			slot->hash = p[i].hash;
			set->index_cnt++;
		}
	}
	free(p);
	set->indexed = true;
	return 0;
}

long strset__find_str(struct strset *set, const char *s)
{
	struct strset_slot *slot;

	if (!set->indexed && index_build(set))
		return -ENOMEM;
	if (!set->index_cap)
		return -ENOENT;
	slot = index_slot(set, s, str_hash(s, strlen(s)));
	return slot->off1 ? (long)slot->off1 - 1 : -ENOENT;
}

/* Appends @s (@n bytes with its NUL, hash @h) at the empty @slot. */
static long append_str(struct strset *set, struct strset_slot *slot, const char *s, size_t n,
		       uint32_t h)
{
	long off = set->len;
	/* @s may be a suffix of a string in set->data, which can move. */
	bool inside = set->data && s >= set->data && s < set->data + set->len;
	size_t rel = inside ? (size_t)(s - set->data) : 0;
	char *p;

	p = btf_add_mem((void **)&set->data, &set->cap, 1, set->len, BTF_MAX_STR_OFFSET, n);
	if (!p)
		return -ENOMEM;
	memcpy(p, inside ? set->data + rel : s, n);
	set->len += n;
	slot->off1 = off + 1;
	slot->hash = h;
	set->index_cnt++;
	return off;
}

long strset__add_str(struct strset *set, const char *s)
{
	size_t n = strlen(s) + 1;
	struct strset_slot *slot;
	uint32_t h = str_hash(s, n - 1);

	/* A prefix starts with "", never looked up. */
	if (n == 1 && set->index_from && !set->data[0])
		return 0;
	if (!set->indexed && index_build(set))
		return -ENOMEM;
	if ((set->index_cnt + 1) * 2 > set->index_cap && index_grow(set))
		return -ENOMEM;
	slot = index_slot(set, s, h);
	if (slot->off1)
		return slot->off1 - 1;
	return append_str(set, slot, s, n, h);
}

long strset__append_distinct(struct strset *set, const char *s)
{
	size_t n = strlen(s) + 1;
	long off = set->len;
	char *p;

	/* @s inside the table would move with it: the general way. */
	if (set->indexed || (set->data && s >= set->data && s < set->data + set->len))
		return strset__add_str(set, s);
	p = btf_add_mem((void **)&set->data, &set->cap, 1, set->len, BTF_MAX_STR_OFFSET, n);
	if (!p)
		return -ENOMEM;
	memcpy(p, s, n);
	set->len += n;
	return off;
}

/*
 * The strings of @src to add, with their hashes: a builder's from its
 * index; a loaded table's in offset order, indexed or not, so that the
 * merged order never depends on how its index happened to be sized.
 */
static int collect_strs(const struct strset *src, struct pending_str **out, size_t *nr_out)
{
	const char *tab = src->data;
	struct pending_str *p = NULL;
	size_t nr = 0, cap = 0, off, i;

	if (src->indexed && !src->maybe_dups && !src->index_from) {
		/* A builder's set: its index has every string and its hash. */
		p = malloc((src->index_cnt ? src->index_cnt : 1) * sizeof(*p));
		if (!p)
			return -ENOMEM;
		for (i = 0; i < src->index_cap && nr < src->index_cnt; i++) {
			if (!src->index[i].off1)
				continue;
			p[nr].off = src->index[i].off1 - 1;
			p[nr].len = UINT32_MAX; /* measured if it is new */
			p[nr].hash = src->index[i].hash;
			nr++;
		}
		goto out;
	}
	for (off = 1; off < src->len;) {
		size_t n = strnlen(tab + off, src->len - off);

		if (off + n >= src->len)
			break; /* unterminated tail: not a string */
		if (!btf_grow_mem((void **)&p, &cap, sizeof(*p), nr, UINT32_MAX, 1)) {
			free(p);
			return -ENOMEM;
		}
		p[nr].off = off;
		p[nr].len = n;
		p[nr].hash = str_hash(tab + off, n);
		nr++;
		off += n + 1;
	}
out:
	*out = p;
	*nr_out = nr;
	return 0;
}

int strset__add_all(struct strset *set, const struct strset *src, uint32_t *map)
{
	const char *tab = src->data;
	struct pending_str *p = NULL;
	size_t nr = 0, i, mask;
	int err;

	if (!set->indexed && index_build(set))
		return -ENOMEM;
	err = collect_strs(src, &p, &nr);
	if (err)
		return err;
	/* Room for all of them now: the index does not move under the prefetches. */
	while ((set->index_cnt + nr + 1) * 2 > set->index_cap)
		if (index_grow(set)) {
			err = -ENOMEM;
			goto out;
		}
	mask = set->index_cap - 1;
	for (i = 0; i < nr; i++) {
		struct strset_slot *slot;
		long got;

		/* A merge looks up every string of a CU in a table of a few MB. */
		prefetch_ahead(set, p, i, nr, mask);
		slot = index_slot(set, tab + p[i].off, p[i].hash);
		if (slot->off1) {
			got = (long)slot->off1 - 1;
		} else {
			if (p[i].len == UINT32_MAX)
				p[i].len = strlen(tab + p[i].off);
			got = append_str(set, slot, tab + p[i].off, p[i].len + 1, p[i].hash);
		}
		if (got < 0) {
			err = got;
			goto out;
		}
		map[p[i].off] = got + 1;
	}
out:
	free(p);
	return err;
}
