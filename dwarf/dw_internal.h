/* SPDX-License-Identifier: GPL-2.0 */
/* dw_internal.h - what the files of dwarf/ share and nobody else sees. */
#ifndef BTFENC_DW_INTERNAL_H
#define BTFENC_DW_INTERNAL_H

#include "dw.h"

#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>

struct dw_types; /* types.c's private DIE -> BTF id map */

/*
 * die.c's reader of the CU being decoded: its unit's bytes and each
 * abbreviation's attribute layout, decoded once.  All zero: every call
 * goes to libdw.
 */
struct dw_abbrev_info;
struct dw_attr_spec;
struct dw_reader {
	Dwarf_CU *cu;
	const unsigned char *start; /* unit header */
	const unsigned char *end;   /* past the unit */
	Dwarf_Off start_off;        /* the unit header's offset in its section */
	uint16_t version;
	uint8_t addr_size;
	uint8_t offset_size;
	struct dw_abbrev_info *infos; /* by abbreviation code */
	size_t nr_infos;
	size_t used_infos; /* codes below it may have been written */
	/* .debug_abbrev, and the unit's table in it (to the section's end). */
	const unsigned char *abbrev_sec, *abbrev_lo, *abbrev_hi;
	bool abbrevs_indexed; /* infos[].attrp set */
	struct dw_attr_spec *specs;
	size_t nr_specs;
	size_t specs_cap;
	/* .debug_str as libdw reads it, for DW_FORM_strp names; NULL: libdw's. */
	const char *str_lo, *str_hi;
};

/* Per-CU decoding state, alive during one dw_cu_decode() call. */
struct dw_cu_ctx {
	struct dw_file *file;
	Dwarf *dw;
	Dwarf_Die cu_die;
	uint8_t addr_size;
	struct dw_cu *cu;
	const struct dw_opts *opts;
	const struct btf_log *log;
	struct dw_types *types;
	struct dw_reader rd;
	/* Capacities of the growing arrays in *cu. */
	size_t funcs_cap, vars_cap, params_cap, tags_cap, sites_cap, locs_cap;
};

/*
 * dwarf_dieoffset(), inline for a DIE of the reader's unit: the walk asks
 * for the offset of every type DIE and every reference (vmlinux: ~17M).
 */
static inline Dwarf_Off dw_dieoffset(const struct dw_cu_ctx *ctx, Dwarf_Die *die)
{
	const struct dw_reader *r = &ctx->rd;

	if (r->cu && die->cu == r->cu)
		return r->start_off + ((const unsigned char *)die->addr - r->start);
	return dwarf_dieoffset(die);
}

/*
 * types.c: the local BTF id of type DIE @die in ctx->cu->btf, encoding it
 * (and what it refers to) on first use.  A DIE in another CU (LTO,
 * DW_FORM_ref_addr) is encoded into this CU's BTF too.  @die NULL = void.
 * Returns 0 and sets *@id, or a negative errno.
 */
int dw_type_id(struct dw_cu_ctx *ctx, Dwarf_Die *die, uint32_t *id);

/* Offset of @s in ctx->cu->names (names of funcs, vars, params, tags). */
int dw_str(struct dw_cu_ctx *ctx, const char *s);

/*
 * The value of @die if it is a DW_TAG_LLVM_annotation named @kind
 * ("btf_type_tag", "btf_decl_tag"), else NULL.  An empty value counts as
 * none: BTF has no tag without one.
 */
const char *dw_annotation_value(struct dw_cu_ctx *ctx, Dwarf_Die *die, const char *kind);

/*
 * cu.c: appends to ctx->cu's arrays, growing them; each returns the new
 * element's index, or a negative errno.
 */
long dw_cu_add_param(struct dw_cu_ctx *ctx, const struct dw_param *p);
long dw_cu_add_site(struct dw_cu_ctx *ctx, const struct dw_site *s);
long dw_cu_add_loc(struct dw_cu_ctx *ctx, const struct dw_loc *l);

/*
 * file.c, for sites.c: looked up once per handle.  The data of
 * .debug_loclists (@dwarf5) or .debug_loc, NULL if absent or compressed;
 * the .eh_frame CFI, NULL if none (freed with the handle).
 */
Elf_Data *dw_file_loc_data(struct dw_file *f, bool dwarf5);
/*
 * file.c, for die.c: the bytes libdw reads .debug_info from (relocated,
 * decompressed), looked up once per handle; false if not found.
 */
bool dw_file_info_bytes(struct dw_file *f, const unsigned char **lo, const unsigned char **hi);
/* The same for .debug_str (cu.c: dw_opts.str_base). */
bool dw_file_str_bytes(struct dw_file *f, const unsigned char **lo, const unsigned char **hi);
/* And for .debug_abbrev (die.c reads the attribute lists from it). */
bool dw_file_abbrev_bytes(struct dw_file *f, const unsigned char **lo, const unsigned char **hi);
/*
 * sites.c's memo of the subprogram holding the last site: DIE offsets
 * [lo, hi) are inside @sub, a top-level subprogram with no nested
 * subprogram of its own.  hi == 0: empty.
 */
struct dw_sub_memo {
	Dwarf_Die sub;
	Dwarf_Off lo, hi;
};
struct dw_sub_memo *dw_file_sub_memo(struct dw_file *f);
/*
 * cu.c's working memory, kept with the handle (one thread uses a handle)
 * from CU to CU: a worker decodes hundreds, and growing these afresh for
 * each cost reallocs and page faults.  file.c frees it with the handle.
 */
struct dw_deferred;
struct dw_scratch {
	struct dw_types *types;
	struct dw_reader rd;
	struct dw_deferred *items;
	size_t items_cap;
};
struct dw_scratch *dw_file_scratch(struct dw_file *f);
void dw_scratch_free(struct dw_scratch *s);
Dwarf_CFI *dw_file_eh_cfi(struct dw_file *f);

/*
 * sites.c: records one DW_TAG_inlined_subroutine DIE @die as a dw_site
 * (its origin's prototype, its address, one dw_loc per prototype
 * parameter).  cu.c calls it for every such DIE at any depth, nested ones
 * included, in DIE order.  A site it cannot use (no origin, no address) is
 * skipped, returning 0; a negative errno only for allocation failure.
 */
int dw_site_collect(struct dw_cu_ctx *ctx, Dwarf_Die *die);

/*
 * loc.c: maps one DWARF location expression, valid at the site, to a
 * dw_loc of the given value size (@size bytes, negative = signed).  Pure:
 * no libdw state beyond the ops, so it is fuzzable.  Frame-base relative
 * expressions come out as DW_LOC_FBREG for the caller to resolve.
 */
void dw_loc_from_expr(const Dwarf_Op *ops, size_t nops, int size, struct dw_loc *out);

/*
 * file.c: the Dwarf handle of @f and the unit DIE of CU @idx, for cu.c.
 * Returns 0, -ERANGE or -EINVAL.
 */
int dw_file_cu_die(struct dw_file *f, uint32_t idx, Dwarf **dw, Dwarf_Die *cudie);

/*
 * die.c: for DIEs of ctx's CU, what libdw's dwarf_child(), dwarf_siblingof()
 * (on @die itself), dwarf_attr(), dwarf_getattrs() (0 or -1),
 * dwarf_attr_integrate() and dwarf_diename() give, without libdw's
 * rescans; anything else is passed to those.  dw_reader_init() takes a
 * zeroed reader, or one a unit before used (its memory is reused).
 */
void dw_reader_init(struct dw_reader *r, struct dw_file *f, Dwarf_Die *cu_die);
void dw_reader_free(struct dw_reader *r);
int dw_child(struct dw_cu_ctx *ctx, Dwarf_Die *die, Dwarf_Die *child);
int dw_sibling(struct dw_cu_ctx *ctx, Dwarf_Die *die);
/*
 * dwarf_peel_type() and dwarf_aggregate_size() that also look through the
 * stubs gcc -fdebug-types-section leaves for types it moved to type units
 * (libdw stops there): behind typedefs and qualifiers, as array elements.
 * 0 or -1, as libdw's.
 */
int dw_peel_type(struct dw_cu_ctx *ctx, Dwarf_Die *t);
int dw_type_size(struct dw_cu_ctx *ctx, Dwarf_Die *t, Dwarf_Word *size);
/*
 * For a stub with DW_AT_signature, the type-unit DIE it stands for in
 * *@type (which may be @die): 1, -1 if no unit has it; 0 for any other DIE.
 */
int dw_signature_type(struct dw_cu_ctx *ctx, Dwarf_Die *die, Dwarf_Die *type);
Dwarf_Attribute *dw_attr(struct dw_cu_ctx *ctx, Dwarf_Die *die, unsigned int name,
			 Dwarf_Attribute *attr);
/* dwarf_hasattr(): whether the abbreviation lists @name (values unread). */
bool dw_hasattr(struct dw_cu_ctx *ctx, Dwarf_Die *die, unsigned int name);
/*
 * dwarf_formref_die() (the DIE leaves its abbreviation unread, as libdw's
 * does): a reference within the reader's unit is added to the unit's
 * start here, without libdw's per-call checks (vmlinux: 10M of them).
 */
Dwarf_Die *dw_formref_die(struct dw_cu_ctx *ctx, Dwarf_Attribute *attr, Dwarf_Die *out);
int dw_getattrs(struct dw_cu_ctx *ctx, Dwarf_Die *die, int (*fn)(Dwarf_Attribute *, void *),
		void *arg);

/*
 * A DW_TAG_member as the BTF member it makes: name, type, and the byte
 * offset, bit size and bit offset as constants (has_* say which are
 * there).
 */
struct dw_member_attrs {
	const char *name;     /* NULL: none */
	Dwarf_Attribute type; /* .valp NULL: none */
	uint64_t byte_off, bit_size, data_bit_off;
	bool has_byte_off, has_bit_size, has_data_bit_off;
	bool has_children;
};

/*
 * die.c: reads member @die straight from its bytes when every attribute
 * is one of those above in a plain form (a name by DW_FORM_strp or
 * inline, a reference within the unit, a constant) or a declaration
 * coordinate; false for anything else (a static member, DWARF 2
 * bitfields, a location expression), which the caller reads through
 * libdw's attributes.  vmlinux: 6.2M of its 6.5M members (clang's
 * DWARF 5 names by DW_FORM_strx are not read here).
 */
bool dw_member_attrs(struct dw_cu_ctx *ctx, Dwarf_Die *die, struct dw_member_attrs *m);
Dwarf_Attribute *dw_attr_integrate(struct dw_cu_ctx *ctx, Dwarf_Die *die, unsigned int name,
				   Dwarf_Attribute *attr);
const char *dw_diename(struct dw_cu_ctx *ctx, Dwarf_Die *die);

/* cu.c: one line "DIE 0x<off>: <what>" (plus dwarf_errmsg()) to ctx->log. */
void dw_log_die(struct dw_cu_ctx *ctx, Dwarf_Die *die, const char *what, bool libdw_err);

/*
 * types.c, driven by cu.c's walk.  Ids follow pahole: every type DIE of
 * the CU in DIE order (nested types before the type holding them), then
 * the array index int if the CU lacks "int", then decl tags of structs,
 * unions, members and typedefs.  dw_types_reserve() takes the type DIEs
 * in that order and fixes their ids; dw_types_encode() emits them;
 * dw_types_finish() checks for reference cycles.
 */
struct dw_types *dw_types_new(void);
void dw_types_free(struct dw_types *t);
/* Empties @t for the next CU, keeping its memory. */
void dw_types_reset(struct dw_types *t);
int dw_types_reserve(struct dw_cu_ctx *ctx, Dwarf_Die *die);
int dw_types_encode(struct dw_cu_ctx *ctx);
int dw_types_finish(struct dw_cu_ctx *ctx);
/*
 * The walk of a STRUCT/UNION/class DIE: _begin() before its children,
 * _member() for each DW_TAG_member child (read once, kept for emission),
 * _end() after them instead of dw_types_reserve(); @annots: it has an
 * annotation child.
 */
size_t dw_types_struct_begin(struct dw_cu_ctx *ctx);
int dw_types_struct_member(struct dw_cu_ctx *ctx, Dwarf_Die *die);
int dw_types_struct_end(struct dw_cu_ctx *ctx, Dwarf_Die *die, size_t mark, bool annots);
/* True for the DIE tags that dw_types_reserve() wants. */
bool dw_is_type_tag(int tag);

#endif /* BTFENC_DW_INTERNAL_H */
