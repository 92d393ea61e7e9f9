/* SPDX-License-Identifier: GPL-2.0 */
/* enc_internal.h - state shared by the files of encoder/. */
#ifndef BTFENC_ENC_INTERNAL_H
#define BTFENC_ENC_INTERNAL_H

#include "encoder.h"
#include "elf_info.h"
#include "../dwarf/dw.h"
#include "../btf/btf_internal.h" /* btf_add_mem, btf_log_printf */

#include <pthread.h>
#include <stdbool.h>

/*
 * Records merged from all CUs.  Type ids point into enc_state.all and are
 * renumbered in place when a dedup pass maps ids (enc_remap_records());
 * string offsets point into enc_state.names.
 */
struct enc_func {
	uint32_t name_off;
	uint32_t ret_type;
	uint32_t first_param; /* into enc_state.params */
	uint16_t nr_params;
	uint16_t flags;       /* DW_FUNC_* */
	uint64_t addr;
	uint32_t cu;
};

struct enc_var {
	uint32_t name_off;
	uint32_t type;
	uint64_t addr;
	uint64_t size;
	uint32_t flags; /* ENC_VAR_* */
};

enum {
	ENC_VAR_EXTERNAL = 1,
	ENC_VAR_DECLARATION = 2,
	ENC_VAR_ARTIFICIAL = 4,
	ENC_VAR_HAS_ADDR = 8,
};

struct enc_site {
	uint32_t name_off;
	uint32_t ret_type;
	uint32_t first_param;
	uint16_t nr_params;
	uint64_t addr;
	uint32_t first_loc; /* into enc_state.locs, nr_params entries */
	uint32_t shndx;     /* ET_REL: ELF section of addr, addr its offset */
};

/*
 * Reasons the seed-layout writer adds to enc_site_counts.miss after the
 * DWARF ones: a register seed 010's consumer cannot read (xmm on x86-64),
 * and a constant whose run-time value the consumer would get wrong (see
 * const_value() in locs.c).
 */
enum {
	ENC_MISS_REGISTER = DW_MISS_NR,
	ENC_MISS_RELOC_CONST,
	ENC_MISS_NR,
};

_Static_assert(ENC_MISS_NR <= 16, "enc_site_counts.miss is too small");

struct enc_state {
	const struct enc_opts *o;
	const struct btf_log *log;
	struct enc_elf_info elf;
	struct btf *base; /* --btf_base, or NULL */
	struct btf *all;  /* every type, before and after dedup */
	/*
	 * Names of the records below: dedup rewrites s->all's string table,
	 * so the records keep their strings here.  Without inline sites,
	 * split on the pool's .debug_str base (names_base) once the first CU
	 * comes: a name there keeps its offset (enc_names_setup()).
	 */
	struct btf *names;
	struct btf *names_base;
	bool names_on_base; /* the pool hands its base to names_base */
	bool names_setup;

	struct enc_func *funcs;
	size_t nr_funcs, funcs_cap;
	struct dw_param *params;
	size_t nr_params, params_cap;
	struct enc_var *vars;
	size_t nr_vars, vars_cap;
	struct enc_site *sites;
	size_t nr_sites, sites_cap;
	struct dw_loc *locs;
	size_t nr_locs, locs_cap;

	struct enc_site_counts counts;

	/*
	 * CUs split on the file's .debug_str (dw_opts.str_base): all starts
	 * with the same strings, and the merge marks those in use
	 * (btf_merge_btf_same_strs()); where all is split on a base (a
	 * module's), the offset in all of each string merged
	 * (btf_merge_btf_cached()).
	 */
	struct btf_str_marks str_marks;
	struct btf_off_map str_base_map;
	/* The same for the names of functions, parameters and variables (s->names). */
	struct btf_off_map names_base_map;

	/*
	 * The dedup of the types, run ahead: the merge feeds it each CU's
	 * types while the workers decode the next (NULL: it all runs after).
	 */
	struct btf_dedup *ahead;

	/* distilled_base: .BTF.base and the .BTF split on it (distill.c). */
	struct btf *dist_base;
	struct btf *dist_split;
};

/* merge.c: the pool's consumer, appending one CU to the state. */
int enc_merge_cu(void *ctx, uint32_t idx, struct dw_cu *cu);
/* merge.c: maps every type id in the records through @map (from dedup). */
void enc_remap_records(struct enc_state *s, const uint32_t *map, uint32_t start_id);
void enc_state_free(struct enc_state *s);

/*
 * funcs.c: chooses functions (pahole's rules) and appends FUNC_PROTO+FUNC.
 * Which functions are candidates, by name, is worked out on a thread of
 * its own from enc_funcs_order_start() on, while the types are deduped
 * (at once, without a thread); enc_add_funcs() waits for it.
 * enc_funcs_order_free() in any case.
 */
/* A function whose name has ELF symbols, and those symbols. */
struct enc_func_cand {
	const struct enc_elf_sym *syms; /* enc_elf_find_funcs() of its name */
	uint32_t nr_syms;
	uint32_t idx; /* in s->funcs */
};

struct enc_func_order {
	struct enc_state *s;
	struct enc_func_cand *cands;
	uint32_t n;
	int err;
	pthread_t th;
	bool threaded;
};
void enc_funcs_order_start(struct enc_state *s, struct enc_func_order *fo);
int enc_add_funcs(struct enc_state *s, struct enc_func_order *fo);
void enc_funcs_order_free(struct enc_func_order *fo);
/*
 * kfuncs.c (decl_tag_kfuncs): the kfuncs marked in .BTF_ids kfunc sets.
 * enc_kfuncs_load() sets *@out (no kfuncs: an empty set) or returns a
 * negative errno (logged).
 */
struct enc_kfuncs;
int enc_kfuncs_load(const struct enc_state *s, struct enc_kfuncs **out);
void enc_kfuncs_free(struct enc_kfuncs *k);
/* Whether @name is a kfunc of @k (may be NULL); its KF_* flags in *@flags. */
bool enc_kfunc_find(const struct enc_kfuncs *k, const char *name, uint32_t *flags);
/*
 * With the attributes feature, rewrites @types (return, first and second
 * parameter of a prototype with @nr_slots parameters) as the KF_ARENA_*
 * bits of @flags ask: new PTRs to "address_space(1)" type attributes.
 */
int enc_kfunc_arena_types(struct enc_state *s, const char *func, uint32_t flags,
			  uint32_t nr_slots, uint32_t types[3]);
/* Appends the DECL_TAGs of a kfunc's FUNC @func_id (with decl_tag on). */
int enc_kfunc_tag(struct enc_state *s, uint32_t flags, int func_id);
/* vars.c: appends VARs and DATASECs. */
int enc_add_vars(struct enc_state *s);
/* locs.c: appends FUNC_PROTOs, LOC_PARAMs, LOC_PROTOs and LOCSECs for
 * the sites to @dst (s->all itself, or a BTF split on it). */
int enc_add_sites(struct enc_state *s, struct btf *dst);
/* locs_merged.c: the same sites in the merged layout (feature "layout"). */
int enc_add_sites_merged(struct enc_state *s, struct btf *dst);
/*
 * The merged layout's type order (bpf-next): @btf's own types sorted by
 * name (btf__sort_by_name), records remapped when @btf is s->all, and the
 * entries of each LOCSEC sorted again by (func, offset, loc_proto).
 */
int enc_sort_merged(struct enc_state *s, struct btf *btf);

/*
 * distill.c: with --btf_base, fills s->dist_base and s->dist_split from
 * s->all and validates them; refuses @has_extra (.BTF.extra is split on
 * the undistilled .BTF).  Without a base it does nothing, as pahole.
 */
int enc_distill(struct enc_state *s, bool has_extra);

/* A byte-string -> id map, to avoid adding the same record many times. */
struct enc_memo;
struct enc_memo *enc_memo_new(void);
void enc_memo_free(struct enc_memo *m);
/* The id stored for @key, or 0; enc_memo_put() stores one. */
uint32_t enc_memo_get(struct enc_memo *m, const void *key, size_t len);
int enc_memo_put(struct enc_memo *m, const void *key, size_t len, uint32_t id);

/* Counts @site in dwarf_complete unless DWARF lost a parameter's location there. */
static inline void enc_count_dwarf_complete(struct enc_state *s, const struct enc_site *site)
{
	unsigned int i;

	for (i = 0; i < site->nr_params; i++)
		if (dw_loc_lost(&s->locs[site->first_loc + i]))
			return;
	s->counts.dwarf_complete++;
}

#endif /* BTFENC_ENC_INTERNAL_H */
