/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dedup_internal.h - what dedup.c (the phases) and dedup_rounds.c (the
 * struct phase on two threads) share: the dedup's state, the candidate
 * table, a thread's walk and its view of a round.
 */
#ifndef BTFENC_DEDUP_INTERNAL_H
#define BTFENC_DEDUP_INTERNAL_H

#include "btf_internal.h"

#define ID_UNPROCESSED UINT32_MAX
#define ID_IN_PROGRESS (UINT32_MAX - 1)
/* After compaction, a map entry holding a new id (ids are below 2^31). */
#define ID_NEW (1u << 31)

/*
 * Canonical candidates by signature hash: a multimap with open
 * addressing.  Slots hold the hash next to the id so a probe touches one
 * cache line; the entries in insertion order are kept apart so that a
 * growth re-inserts them in that order, and entries with equal hashes are
 * always visited in insertion order: the choice among several candidates
 * is deterministic.
 */
struct cand_slot {
	uint64_t hash;
	uint32_t id; /* 0 = empty: void is never a candidate */
};

struct cand_table {
	struct cand_slot *entries;
	size_t cnt;
	size_t cap;
	struct cand_slot *slots;
	size_t mask;
};

struct dedup;
struct view;

/*
 * The walks and views below are written all the time by one thread, next
 * to fields another thread reads all the time (struct dedup's arrays, the
 * other thread's walk): 64 bytes before and after keep them off each
 * other's cache lines (false sharing had made both threads 1.5x slower,
 * depending on where malloc put the dedup).
 */
#define CACHE_LINE 64

/* Entries of a block of a walk's hypothetical map: 4 KB. */
#define HYPOT_BLOCK_IDS 1024
/* Blocks per allocation at most: 2 MB, a few faults on malloc's huge pages. */
#define HYPOT_CHUNK_BLOCKS 512

/* One thread's phase 3: its comparisons' state. */
struct walk {
	char pad_head[CACHE_LINE];
	struct dedup *d;
	/*
	 * Canonical-graph id -> candidate-graph id + 1 (0: none), in blocks
	 * of HYPOT_BLOCK_IDS entries, NULL until one of a block's entries is
	 * first written.  The comparisons write a third of the blocks
	 * (vmlinux); as one array of small pages that was ~1.2K page faults
	 * per walk, each a first write (10-20 us on the VMs measured) and a
	 * TLB flush.  Blocks come from chunks of up to HYPOT_CHUNK_BLOCKS
	 * (on huge pages where malloc's heap is), and are kept (zeroed)
	 * from one comparison to the next.
	 */
	uint32_t **hypot_dir;
	size_t hypot_dir_len;
	uint32_t *hypot_spare;
	size_t hypot_spare_cnt;
	void **hypot_chunks;
	size_t hypot_nr_chunks;
	uint32_t *hypot_list;
	size_t hypot_cnt;
	size_t hypot_cap;
	/* The equivalence found would need a base FWD resolved: refuse it. */
	bool hypot_adjust_canon;
	/* In a round of the struct phase on two threads, else NULL. */
	struct view *v;
	/*
	 * Speculative: ids whose map entries the head may write meanwhile
	 * (its part of the round); reads are logged with the value read.
	 */
	uint32_t part_lo;
	uint32_t part_len;
	char pad_tail[CACHE_LINE];
};

struct dedup {
	struct btf *btf;
	uint32_t start_id;
	uint32_t type_cnt;
	/* Working copy of the own type records, and every type by id. */
	char *types;
	size_t types_cap;
	bool in_place; /* types is btf->types */
	/*
	 * Every type by id: base types by pointer, own ones by their offset
	 * in types (vmlinux: 3.3M ids, 13 MB of offsets instead of 27 MB of
	 * pointers).  Compaction rewrites offs as it moves records.
	 */
	struct btf_type **base_tp;
	uint32_t *offs;
	/*
	 * The kind of every type by id (vmlinux: 3 MB): the phases' scans
	 * over all ids test it here, not in 130 MB of records.
	 */
	uint8_t *kinds;
	uint32_t *map;
	/* Phase 3 on this thread (its hypothetical map is sized with kinds and map). */
	struct walk w;
	/*
	 * Candidates: the base's (kept with the base: dedup_prep_base(); a
	 * reference held, as the base may drop it meanwhile), own.
	 */
	struct base_cands *base_cands;
	const struct cand_table *base_tab;
	struct cand_table tab;
	/* opts->keep_strings, and it applies: no string phase. */
	bool keep_strs;
	/* The strings need no compaction either (strs_in_first_use_order()). */
	bool strs_final;
	/* String phase: the new set, and old own offset -> new offset + 1. */
	struct strset *strs;
	uint32_t *str_map;
	size_t str_map_cap;
	uint32_t str_done; /* own ids below: names rewritten */
	/* Entries of kinds and map; w's hypothetical map covers as many ids. */
	size_t ids_cap;
	/* Own ids below: phases 1-3 done (fed ahead). */
	uint32_t done;
	/* Phases 2-3 run over the types in several runs (fed ahead). */
	bool ahead;
	/* First id of the run of phases 2-3 in progress; table entries before it. */
	uint32_t run_from;
	size_t run_tab_cnt;
	/*
	 * Map entries of ids fed before the run in progress, as they were
	 * before it changed them: since the checkpoint (cp_from, where
	 * the table had cp_tab_cnt entries) when one is set, else since
	 * the run started.
	 */
	struct map_undo *undo;
	size_t undo_cnt;
	size_t undo_cap;
	uint32_t cp_from;
	size_t cp_tab_cnt;
	bool cp_set;
	bool cp_lost; /* the log outgrew its bound: no checkpoint any more */
	/* Phases 2-3 must start over: from cp_from, or (redo) over all. */
	bool rewind;
	bool redo;
	/*
	 * Phases 3 and 4 on two threads: cuts (see struct cut_scan),
	 * ascending, and the least round of phase 3.
	 */
	bool want_cuts;
	uint32_t *cuts;
	size_t cuts_cnt;
	uint32_t round_types;
};

struct map_undo {
	uint32_t id;
	uint32_t old;
};

/*
 * While phase 3 runs on two threads (dedup_rounds.c), the map entry of a
 * canonical FWD no comparison has resolved yet: the one kind of entry a
 * thread may change that the other's walks read.  It stands for the id
 * itself.
 */
#define ID_FWD_ROOT (UINT32_MAX - 2)

/*
 * A thread's view in a round: the map and the candidate table are shared
 * and stay as they were when the round began, but for the entries of the
 * thread's own ids (from lo on).  What it would change elsewhere, FWD
 * roots it resolves and canonical structs it adds, it keeps here until
 * the round is committed.  The speculative thread also logs what it read
 * that the other thread may change (FWD roots below lo, the table's
 * hashes, the map entries of the walk's part_lo..) and its direct map
 * writes, so that its work can be kept up to the first conflict.  A map
 * entry of the walk's part it leaves to the other thread; where it would
 * write one below that, its work ends (see w_map_set()).
 */
struct ov_slot {
	uint32_t id; /* 0: empty (void is never a FWD) */
	uint32_t to;
	uint32_t pos;
};

struct id_pos {
	uint32_t id;
	uint32_t pos;
	uint32_t val; /* the map entry read */
};

struct hash_pos {
	uint64_t hash;
	uint32_t pos;
};

struct undo_pos {
	uint32_t id;
	uint32_t old;
	uint32_t to;
	uint32_t pos;
};

struct view {
	char pad_head[CACHE_LINE];
	uint32_t lo;
	bool spec;
	bool log_writes; /* writes to the map logged in undo even if not speculative */
	uint32_t pos;	 /* the own id phase 3 is at: the time of each entry below */
	struct ov_slot *ov;
	size_t ov_cnt;
	size_t ov_mask;
	struct cand_table adds;
	struct id_pos *reads;
	size_t reads_cnt;
	size_t reads_cap;
	struct hash_pos *looks;
	size_t looks_cnt;
	size_t looks_cap;
	struct undo_pos *undo;
	size_t undo_cnt;
	size_t undo_cap;
	uint32_t stop;	  /* first id not done */
	uint32_t err_pos; /* first id whose work is not kept (no memory, a write below the part) */
	int err;
	/* Speculative: set when the head is done; a long comparison gives up. */
	const bool *give_up;
	char pad_tail[CACHE_LINE];
};

/*
 * Phase 3 on two threads (rounds): rounds of at least this many types
 * unless the options say (vmlinux, exact-merged: ~160 rounds; 2048 and
 * 8192 were no faster).  Cuts between them are kept a 16th of that apart.
 */
#define ROUND_TYPES 4096

static inline struct btf_type *tp(const struct dedup *d, uint32_t id)
{
	if (id < d->start_id)
		return d->base_tp[id];
	return (struct btf_type *)(d->types + d->offs[id - d->start_id]);
}

/* Appends an element of @sz bytes to *@arr; NULL without memory. */
static inline void *log_push(void **arr, size_t *cnt, size_t *cap, size_t sz)
{
	void *e = btf_add_mem(arr, cap, sz, *cnt, SIZE_MAX / sz, 1);

	if (e)
		(*cnt)++;
	return e;
}

/* The candidate table (dedup.c). */
int dedup_table_add(struct cand_table *tab, uint64_t h, uint32_t id);
void dedup_table_free(struct cand_table *tab);
bool dedup_table_has(const struct cand_table *tab, uint64_t h);

/* Room in @w's hypothetical map for ids [0, @ids); its memory freed (dedup.c). */
int hypot_reserve(struct walk *w, size_t ids);
void hypot_free(struct walk *w);

/* Phase 3 on struct @id, or on ids [@from, @to), as walk @w sees them (dedup.c). */
int dedup_struct_type(struct walk *w, uint32_t id);
int dedup_structs_run(struct walk *w, uint32_t from, uint32_t to);

/* A view's FWD resolutions (dedup_rounds.c). */
void view_fail(struct view *v, int err);
uint32_t view_fwd_find(const struct view *v, uint32_t id);
int view_fwd_put(struct view *v, uint32_t id, uint32_t to);

/*
 * Cuts: ids no type before refers to or beyond (a CU starts there), found
 * over a range of ids as check_ids() visits them (dedup_rounds.c).  Types
 * after a cut may refer back: a CU of the encoder's exact merge refers to
 * the earlier CUs' types that replaced its copies.
 */
struct cut_scan {
	uint32_t *cuts; /* candidates, ascending */
	size_t cnt;
	size_t cap;
	uint32_t gap; /* the least distance between two */
	uint32_t hi;  /* the highest id a type of the range is or refers to */
};

void cut_scan_note(struct cut_scan *c, uint32_t id, uint32_t hi);
void cut_scan_join(struct dedup *d, struct cut_scan *first, const struct cut_scan *second);

/* Phase 3 over own ids [@from, type_cnt) on two threads (dedup_rounds.c). */
int dedup_structs_rounds(struct dedup *d, uint32_t from);

#endif
