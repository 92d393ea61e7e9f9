/* SPDX-License-Identifier: GPL-2.0 */
/* btf_internal.h - what the files of btf/ share and nobody else sees. */
#ifndef BTFENC_BTF_INTERNAL_H
#define BTFENC_BTF_INTERNAL_H

#include "btf.h"

#include <errno.h>
#include <stdarg.h>
#include <string.h>

/* Largest string offset and type id the format can hold. */
#define BTF_MAX_STR_OFFSET 0x7fffffffu
#define BTF_MAX_NR_TYPES   0x7fffffffu

/*
 * Grows *@data (an array of @elem_sz elements with capacity *@cap) so that
 * @cur_cnt + @add_cnt elements fit, zeroing new space, never past
 * @max_cnt.  Returns a pointer to element @cur_cnt, or NULL.
 */
void *btf_add_mem(void **data, size_t *cap, size_t elem_sz, size_t cur_cnt, size_t max_cnt,
		  size_t add_cnt);
/*
 * The same, but only the @add_cnt elements returned are zeroed, not the
 * spare capacity: that stays untouched, so not resident.  For the big
 * arrays (a vmlinux's 3.3M types: 48 MB less).
 */
static inline void *btf_reserve_mem(void **data, size_t *cap, size_t elem_sz, size_t cur_cnt,
				    size_t max_cnt, size_t add_cnt);
/*
 * The same without zeroing, for a caller that writes every byte it gets.
 * Both are inline: a vmlinux decode appends ~20M records (a member, a
 * type, an abbreviation's attribute) one at a time; with room left, that
 * is an addition and, at a constant size, a few stores instead of two
 * calls.  btf_grow_mem_slow() grows the capacity.
 */
void *btf_grow_mem_slow(void **data, size_t *cap, size_t elem_sz, size_t cur_cnt, size_t max_cnt,
			size_t add_cnt);

static inline void *btf_grow_mem(void **data, size_t *cap, size_t elem_sz, size_t cur_cnt,
				 size_t max_cnt, size_t add_cnt)
{
	size_t need = cur_cnt + add_cnt;

	if (need <= *cap && need >= cur_cnt && need <= max_cnt)
		return (char *)*data + cur_cnt * elem_sz;
	return btf_grow_mem_slow(data, cap, elem_sz, cur_cnt, max_cnt, add_cnt);
}

static inline void *btf_reserve_mem(void **data, size_t *cap, size_t elem_sz, size_t cur_cnt,
				    size_t max_cnt, size_t add_cnt)
{
	char *p = btf_grow_mem(data, cap, elem_sz, cur_cnt, max_cnt, add_cnt);

	if (p)
		memset(p, 0, add_cnt * elem_sz);
	return p;
}

/* Maps the pages of [@p, @p + @len) for writing, in one call. */
void btf_mem_populate(void *p, size_t len);
/* Asks for huge pages for the 2 MB-aligned part of a big array. */
void btf_mem_huge(void *p, size_t len);

/* Offset + 1 (0 = empty) and the string's hash, compared before the bytes. */
struct strset_slot {
	uint32_t off1;
	uint32_t hash;
};

/*
 * A set of NUL-terminated strings in one buffer.  Adding a string already
 * present returns its offset.  The hash index is built lazily, so a set
 * loaded from a file keeps its exact bytes until something is added.
 */
struct strset {
	char *data;
	size_t len;
	size_t cap;
	struct strset_slot *index; /* open addressing, linear probing */
	size_t index_cap;
	size_t index_cnt;
	bool indexed;
	/* Loaded from a table that may repeat a string (a file's). */
	bool maybe_dups;
	/* The strings before this offset are never looked up (strset__new_prefix()). */
	size_t index_from;
};

struct strset *strset__new(const void *init, size_t init_len);
/*
 * A set whose table starts with the @init_len bytes at @init, which it
 * never looks up: a string added is found again only among the strings
 * added.  For a merge that keeps offsets into @init as they are.
 */
struct strset *strset__new_prefix(const void *init, size_t init_len);
void strset__free(struct strset *set);
/* Offset of @s, added if absent; negative errno on failure. */
long strset__add_str(struct strset *set, const char *s);
/* Offset of @s, or -ENOENT. */
long strset__find_str(struct strset *set, const char *s);
/*
 * Appends @s, which the caller knows is not in @set (nor is "" ever
 * passed), without hashing it while @set has no index yet: the first
 * lookup indexes all strings at once.  Offset, or negative errno.
 */
long strset__append_distinct(struct strset *set, const char *s);
/*
 * No string twice: started empty (or "") and only added to since; for a
 * strset__new_prefix(), no string in use twice (btf_merge_strs_checked()),
 * which a string added later may undo (one the prefix has): that set is
 * for a dedup to compact at once.
 */
static inline bool strset__unique(const struct strset *set)
{
	return !set->maybe_dups;
}
/*
 * Adds every string of @src and sets map[o] = (offset in @set) + 1 for
 * each string starting at byte o of @src's table (a loaded table's
 * repeated copies of a string may be left out).  The order in which new
 * strings are appended follows @src's index, not its table.  Returns 0 or
 * a negative errno.
 */
int strset__add_all(struct strset *set, const struct strset *src, uint32_t *map);

struct btf {
	struct btf *base;
	uint32_t start_id;
	uint32_t start_str_off;

	/* Type records of this BTF, native byte order, back to back. */
	void *types;
	size_t types_len;
	size_t types_cap;
	uint32_t *type_offs;
	size_t type_offs_cap;
	uint32_t nr_types;
	/*
	 * Merges leave type_offs unset until btf_index_types()
	 * (btf_defer_offsets()), and note where each began: type index << 32
	 * | record offset.
	 */
	bool offs_deferred;
	uint64_t *offs_marks;
	size_t nr_offs_marks, offs_marks_cap;

	struct strset *strs;

	bool swapped;
	size_t ptr_sz;

	enum btf_loc_layout layout;
	/*
	 * The layout section read from a merged-layout file, native order,
	 * written back as read (it may describe kinds we do not know); NULL
	 * for one built here, which gets kinds.c's table.
	 */
	struct btf_layout *layout_sec;
	uint32_t layout_cnt;

	/* btf_names_in(): names at these addresses are base strings. */
	const char *names_lo, *names_hi;

	/* exact.c: merges leave out exact copies of the types merged before. */
	struct btf_exact *exact;

	/* dedup.c: this BTF's types as candidates for BTFs split on it. */
	void *dedup_cands;
};

/* Frees what dedup.c keeps with @base (btf__free() calls it). */
void btf_dedup_base_free(struct btf *base);

/*
 * A BTF without types whose strings are "" and then the @len bytes at
 * @data, the NUL-terminated strings of a .debug_str: the string at
 * @data + o has offset o + 1.  NULL if @data does not end in a NUL.
 */
struct btf *btf_new_str_base(const void *data, size_t len);
/*
 * For @btf split on a btf_new_str_base() of the @hi - @lo bytes at @lo:
 * from now on a name at an address in [@lo, @hi) takes its offset in the
 * base, with no lookup, and any other name goes to @btf's own strings
 * (the base is never searched: it has no index, and is shared between
 * threads).  -EINVAL if the base does not hold that many bytes.
 */
int btf_names_in(struct btf *btf, const char *lo, const char *hi);
/*
 * The same for the base's own copy of the strings: a name read from a BTF
 * split on the same base keeps its offset.
 */
int btf_names_in_base(struct btf *btf);
/*
 * String offset -> string offset: open addressing, each slot
 * (key + 1) << 32 | value, 0 empty.  Zeroed is empty.
 */
struct btf_off_map {
	uint64_t *slots;
	size_t mask;
	size_t cnt;
	/* Lookups and misses so far; a map that mostly misses is dropped. */
	size_t lookups;
	size_t misses;
	bool off;
};
void btf_off_map_free(struct btf_off_map *m);
/* The value of @key in @m, or -1; and @key -> @val added (not there yet). */
long btf_off_map_get(struct btf_off_map *m, uint32_t key);
int btf_off_map_put(struct btf_off_map *m, uint32_t key, uint32_t val);
/*
 * btf_merge_btf() for @src split on a btf_new_str_base(): @base_map
 * keeps the offset in @dst of each base string merged so far, for the
 * next CU.  (An array with an entry per byte of vmlinux's .debug_str was
 * 14 MB at the decode's peak; the strings merged are 49K.)  Where most
 * lookups miss (a module's .debug_str, which ld -r leaves unmerged),
 * the map is dropped and every name is looked up by its bytes.
 */
int btf_merge_btf_cached(struct btf *dst, const struct btf *src, struct btf_off_map *base_map);
/* The names of a base's table in use (btf_merge_btf_same_strs()). */
struct btf_str_marks {
	const struct btf *base; /* only compared: may be freed before the check */
	uint64_t *seen;		/* a bit per byte of the base's table */
	size_t len;		/* of the base's table */
};
/*
 * btf_merge_btf() for @src split on a btf_new_str_base() whose table the
 * first call makes @dst's own (a copy; @dst must be empty): names there
 * keep their offsets, with no lookup (vmlinux: 7.2M names, 0.2 s of the
 * merge), and each gets its bit in @m.  Only @src's own strings are
 * added.  Every call must be on CUs split on the same base.
 */
int btf_merge_btf_same_strs(struct btf *dst, const struct btf *src, struct btf_str_marks *m);
/*
 * After the last btf_merge_btf_same_strs(): names that are "" become 0;
 * then if no two strings in use have the same bytes (a file's .debug_str
 * that the linker merged), the table counts as unique, and the dedup
 * compares names by offset; if not, the dedup's string phase sorts them
 * out.  Frees @m.  0 or a negative errno.
 */
int btf_merge_strs_checked(struct btf *btf, struct btf_str_marks *m);
/*
 * The offset in @dst of string @off of @src, added if new; a string of
 * @src's btf_new_str_base() is looked up in @base_map (if any) first, and
 * kept there: what btf_merge_btf_cached() does for each name.  Negative
 * errno.
 */
long btf_merge_str_cached(struct btf *dst, const struct btf *src, uint32_t off,
			  struct btf_off_map *base_map);

/*
 * Offset of name @s (0 for NULL or ""; one in the base's range is its
 * offset there, even if empty), added if new; negative errno.
 */
int btf_add_name(struct btf *btf, const char *s);

/*
 * Makes room for @bytes of type records (and as many types as that can
 * hold) before they are added, so that the arrays never move: on the VMs
 * this was measured on, a page that realloc() moved (mremap) costs
 * 5-7 us on its next touch, and the merged vmlinux types (130 MB) then
 * cost the dedup's first pass ~150 ms.  Untouched capacity is not
 * resident.
 */
void btf_reserve_types(struct btf *btf, size_t bytes);
/*
 * The merges into @btf (btf_merge_btf*()) append records without their
 * offsets, until btf_index_types() finds them all in one pass over the
 * records, or the first pass of a dedup in place that keeps the strings
 * does (btf__dedup()): the encoder's vmlinux merge then holds 13 MB less
 * at its peak (the end of the decode).  Nothing may read @btf's types by
 * id, nor add to it otherwise, in between.
 */
void btf_defer_offsets(struct btf *btf);
/*
 * From now on, the merges into @btf (btf_merge_btf*()) leave out every
 * type that is an exact copy of a type an earlier merge added (exact.c
 * says when the dedup's output stays the same), and btf_merge_ids()
 * says where each type of the last merge went.  The merged records must
 * not change until btf_merge_exact_end(): a dedup fed ahead may run in
 * between only if it keeps the strings (on a BTF without base), or it
 * rewrites their names.  btf__add_btf() keeps every type.  -ENOMEM, or 0.
 */
int btf_merge_exact_start(struct btf *btf);
/*
 * Local index (id - start id) of the last merge's source -> id, valid
 * after a merge that succeeded and had types; NULL if not started.
 */
const uint32_t *btf_merge_ids(const struct btf *btf);
/*
 * Where id @id of a merge's source (its types from @start_id, @nr of
 * them) went: map[id - start_id] where the merge left out copies, else
 * @id + @delta.  Ids below @start_id (void) stay; an id past the source's
 * types moves by @delta, for validation to find.
 */
static inline uint32_t btf_merged_id(const uint32_t *map, uint32_t start_id, uint32_t nr,
				     uint32_t delta, uint32_t id)
{
	if (id < start_id)
		return id;
	return map && id - start_id < nr ? map[id - start_id] : id + delta;
}
/* Ends it: how many types the merges took in, and how many they left out. */
void btf_merge_exact_end(struct btf *btf, uint64_t *types, uint64_t *copies);
/* In two halves on two threads when there are many (where a merge began). */
int btf_index_types(struct btf *btf);
/*
 * The same in parts, for a pass that reads every record anyway (the
 * dedup's id check): room for the offsets; where the merge nearest the
 * middle type began (false: no such merge), for a second part; and the
 * offsets all written.
 */
int btf_offs_reserve(struct btf *btf);
/*
 * The size of the record at @t, with @room bytes from it to the end of
 * the records; -EINVAL where it does not fit (a pass finding offsets).
 */
static inline long btf_record_size(const struct btf_type *t, enum btf_loc_layout layout,
				   size_t room)
{
	long sz;

	if (room < sizeof(*t))
		return -EINVAL;
	sz = btf_type_size_layout(t, layout);
	return sz < 0 || (size_t)sz > room ? -EINVAL : sz;
}
bool btf_offs_middle(const struct btf *btf, uint32_t *idx, size_t *off);
void btf_offs_found(struct btf *btf);
/*
 * btf__add_btf() for the encoder's merge of a CU: every string of @src's
 * table goes into @dst in one prefetched pass, used or not (the merged
 * BTF is deduplicated, which keeps only the strings types use).  Plain
 * btf__add_btf() when either side is split BTF.
 */
int btf_merge_btf(struct btf *dst, const struct btf *src);
/*
 * Reserves @size bytes for a new record at the end of the type data,
 * zeroed.  Inline for the same reason as btf_reserve_mem().
 */
static inline void *btf_add_type_mem(struct btf *btf, size_t size)
{
	return btf_reserve_mem(&btf->types, &btf->types_cap, 1, btf->types_len, UINT32_MAX, size);
}
/* Records the type reserved last (@size bytes) and returns its id. */
int btf_commit_type(struct btf *btf, size_t size);
/* Last type this BTF owns, or NULL. */
struct btf_type *btf_last_type(struct btf *btf);

#include "visit.h"

/*
 * exact.c, for add_btf(): the merge at hand's @nr records (@len bytes) go
 * to btf_exact_begin()'s buffer, names mapped, each at its offset in
 * btf_exact_offs(); btf_exact_plan() finds the types that are copies of
 * types merged before, gives every other one the next id of @dst in
 * order (btf_exact_map(): local index -> id in @dst) and returns their
 * bytes (*@nr_new of them); once they are appended at @off,
 * btf_exact_register() lets later merges find them.
 */
struct btf_exact;
struct btf_exact *btf_exact_new(void);
void btf_exact_free(struct btf_exact *x);
void *btf_exact_begin(struct btf_exact *x, size_t len, uint32_t nr);
uint32_t *btf_exact_offs(struct btf_exact *x);
const uint32_t *btf_exact_map(const struct btf_exact *x);
long btf_exact_plan(struct btf_exact *x, const struct btf *dst, uint32_t start_id,
		    enum btf_loc_layout layout, uint32_t *nr_new);
void btf_exact_register(struct btf_exact *x, const struct btf *dst, size_t off);
void btf_exact_counts(const struct btf_exact *x, uint64_t *types, uint64_t *copies);

/* Swaps the byte order of one record in place; @t's header is native. */
void btf_bswap_type_body(struct btf_type *t, enum btf_loc_layout layout);
void btf_bswap_type_hdr(struct btf_type *t);

/* Formats one line and hands it to @log (no-op if @log is NULL). */
void btf_log_printf(const struct btf_log *log, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif /* BTFENC_BTF_INTERNAL_H */
