// SPDX-License-Identifier: GPL-2.0
/*
 * cu.c - one compile unit into a struct dw_cu.
 *
 * One walk over the CU's DIE tree (dwarf_child/dwarf_siblingof, no
 * allocation per DIE) hands type DIEs to types.c as it meets them and
 * remembers subprograms, top-level variables and inline sites in DIE
 * order.  Those are decoded only after every type has its id, so their
 * types never jump the DIE order pahole numbers types in.
 */
#include "dw_internal.h"
#include "../btf/btf_internal.h"

#include <dwarf.h>
#include <elf.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#ifndef DW_TAG_LLVM_annotation
#define DW_TAG_LLVM_annotation 0x6000
#endif

/* Deeper DIE nesting than this is treated as corrupt. */
#define DW_MAX_DEPTH 512

enum dw_deferred_kind {
	DW_DEFER_FUNC,
	DW_DEFER_VAR,
	DW_DEFER_SITE,
};

struct dw_deferred {
	Dwarf_Die die;
	enum dw_deferred_kind kind;
};

struct dw_walk {
	struct dw_cu_ctx *ctx;
	struct dw_deferred *items;
	size_t nr_items;
	size_t items_cap;
};

void dw_log_die(struct dw_cu_ctx *ctx, Dwarf_Die *die, const char *what, bool libdw_err)
{
	unsigned long long off = die ? dwarf_dieoffset(die) : 0;
	const char *cu = ctx->cu && ctx->cu->name ? ctx->cu->name : "?";

	if (libdw_err)
		btf_log_printf(ctx->log, "%s: DIE 0x%llx: %s: %s", cu, off, what, dwarf_errmsg(-1));
	else
		btf_log_printf(ctx->log, "%s: DIE 0x%llx: %s", cu, off, what);
}

/* ---- append helpers ---- */

#define DW_ADD(ctx, arr, nr, cap, elem)                                                  \
	({                                                                               \
		__typeof__(*(arr)) *slot_;                                               \
		long ret_ = -ENOMEM;                                                     \
		slot_ = btf_grow_mem((void **)&(arr), &(cap), sizeof(*slot_), (nr), UINT32_MAX, 1); \
		if (slot_) {                                                             \
			*slot_ = *(elem);                                                \
			ret_ = (nr)++;                                                   \
		}                                                                        \
		ret_;                                                                    \
	})

long dw_cu_add_param(struct dw_cu_ctx *ctx, const struct dw_param *p)
{
	return DW_ADD(ctx, ctx->cu->params, ctx->cu->nr_params, ctx->params_cap, p);
}

long dw_cu_add_site(struct dw_cu_ctx *ctx, const struct dw_site *s)
{
	return DW_ADD(ctx, ctx->cu->sites, ctx->cu->nr_sites, ctx->sites_cap, s);
}

long dw_cu_add_loc(struct dw_cu_ctx *ctx, const struct dw_loc *l)
{
	return DW_ADD(ctx, ctx->cu->locs, ctx->cu->nr_locs, ctx->locs_cap, l);
}

static long add_func(struct dw_cu_ctx *ctx, const struct dw_func *f)
{
	return DW_ADD(ctx, ctx->cu->funcs, ctx->cu->nr_funcs, ctx->funcs_cap, f);
}

static long add_var(struct dw_cu_ctx *ctx, const struct dw_var *v)
{
	return DW_ADD(ctx, ctx->cu->vars, ctx->cu->nr_vars, ctx->vars_cap, v);
}

static long add_tag(struct dw_cu_ctx *ctx, const struct dw_tag *t)
{
	return DW_ADD(ctx, ctx->cu->tags, ctx->cu->nr_tags, ctx->tags_cap, t);
}

/* ---- small DIE readers ---- */

static bool flag_integrate(struct dw_cu_ctx *ctx, Dwarf_Die *die, int name)
{
	Dwarf_Attribute attr;
	bool flag = false;

	return dw_attr_integrate(ctx, die, name, &attr) && dwarf_formflag(&attr, &flag) == 0 && flag;
}

static bool own_flag(struct dw_cu_ctx *ctx, Dwarf_Die *die, int name)
{
	Dwarf_Attribute attr;
	bool flag = false;

	return dw_attr(ctx, die, name, &attr) && dwarf_formflag(&attr, &flag) == 0 && flag;
}

static bool udata_integrate(struct dw_cu_ctx *ctx, Dwarf_Die *die, int name, Dwarf_Word *val)
{
	Dwarf_Attribute attr;

	return dw_attr_integrate(ctx, die, name, &attr) && dwarf_formudata(&attr, val) == 0;
}

/* Type id of @die's DW_AT_type, looked up through origin/specification. */
static int type_of(struct dw_cu_ctx *ctx, Dwarf_Die *die, uint32_t *id, Dwarf_Die *type)
{
	Dwarf_Attribute attr;
	Dwarf_Die tmp, *t = type ? type : &tmp;

	*id = 0;
	if (!dw_attr_integrate(ctx, die, DW_AT_type, &attr))
		return 0;
	if (!dw_formref_die(ctx, &attr, t)) {
		dw_log_die(ctx, die, "type reference to nowhere", true);
		return -EINVAL;
	}
	return dw_type_id(ctx, t, id);
}

/* Adds the btf_decl_tag annotations among @die's children to cu->tags. */
static int add_decl_tags(struct dw_cu_ctx *ctx, Dwarf_Die *die, int component, uint16_t *nr)
{
	const char *value;
	struct dw_tag tag;
	Dwarf_Die child;
	int off;
	long idx;

	if (!ctx->opts->decl_tag || !dwarf_haschildren(die) || dw_child(ctx, die, &child) != 0)
		return 0;
	do {
		value = dw_annotation_value(ctx, &child, "btf_decl_tag");
		if (!value)
			continue;
		off = dw_str(ctx, value);
		if (off < 0)
			return off;
		tag.value_off = off;
		tag.component = component;
		idx = add_tag(ctx, &tag);
		if (idx < 0)
			return idx;
		(*nr)++;
	} while (dw_sibling(ctx, &child) == 0);
	return 0;
}

/* ---- functions ---- */

/* DWARF register numbers of the integer argument registers, per arch. */
static int abi_param_reg(int machine, unsigned int idx)
{
	static const int x86_64[] = { 5, 4, 1, 2, 8, 9 };

	switch (machine) {
	case EM_X86_64:
		return idx < 6 ? x86_64[idx] : -1;
	case EM_AARCH64:
		return idx < 8 ? (int)idx : -1;
	case EM_S390:
		return idx < 5 ? (int)idx + 2 : -1;
	case EM_RISCV:
		return idx < 8 ? (int)idx + 10 : -1;
	case EM_PPC64:
		return idx < 8 ? (int)idx + 3 : -1;
	}
	return -1;
}

/*
 * The register a parameter arrives in, as pahole reads it: DW_OP_regN as
 * the first location entry, or DW_OP_entry_value(DW_OP_regN) in any
 * entry.  -1 if neither (on the stack, or computed).
 */
static int param_reg(Dwarf_Attribute *loc, int expected)
{
	Dwarf_Addr base, start, end;
	Dwarf_Attribute entry;
	Dwarf_Op *expr, *inner;
	size_t len, inner_len;
	ptrdiff_t off = 0;
	int nth = -1, reg = -1;

	while ((off = dwarf_getlocations(loc, off, &base, &start, &end, &expr, &len)) > 0) {
		nth++;
		if (len > 1 && expr[len - 1].atom == DW_OP_stack_value)
			len--;
		if (len != 1)
			continue;
		if (expr->atom >= DW_OP_reg0 && expr->atom <= DW_OP_reg31 && nth == 0) {
			reg = expr->atom - DW_OP_reg0;
			if (reg == expected)
				return reg;
		} else if (expr->atom == DW_OP_regx && nth == 0) {
			reg = expr->number;
			if (reg == expected)
				return reg;
		} else if ((expr->atom == DW_OP_entry_value || expr->atom == DW_OP_GNU_entry_value) &&
			   dwarf_getlocation_attr(loc, expr, &entry) == 0 &&
			   dwarf_getlocation(&entry, &inner, &inner_len) == 0 && inner_len == 1 &&
			   inner->atom >= DW_OP_reg0 && inner->atom <= DW_OP_reg31) {
			return inner->atom - DW_OP_reg0;
		}
	}
	return reg;
}

/*
 * Flags from where parameter @idx of a function with code lives, read
 * as pahole reads them: no location at all (a constant value) means
 * optimized out; at register-passed positions a location holding no
 * register does too, and another register than the ABI's is unexpected.
 */
static uint16_t param_loc_flags(struct dw_cu_ctx *ctx, Dwarf_Die *param, unsigned int idx)
{
	int expected = abi_param_reg(dw_file_machine(ctx->file), idx), actual;
	Dwarf_Attribute loc;

	/*
	 * Past the argument registers only a missing location (optimized
	 * out, or a DW_AT_const_value) counts, as in pahole master.
	 */
	if (!dw_attr(ctx, param, DW_AT_location, &loc))
		return DW_FUNC_OPTIMIZED_PARAM;
	if (expected < 0)
		return 0;
	actual = param_reg(&loc, expected);
	if (actual < 0)
		return DW_FUNC_OPTIMIZED_PARAM;
	return actual != expected ? DW_FUNC_UNEXPECTED_REG : 0;
}

/* Position of @param among the formal parameters of @origin, or -1. */
static int origin_param_idx(struct dw_cu_ctx *ctx, Dwarf_Die *origin, Dwarf_Die *param)
{
	Dwarf_Off want = dw_dieoffset(ctx, param);
	Dwarf_Die child;
	int idx = 0;

	if (dw_child(ctx, origin, &child) != 0)
		return -1;
	do {
		if (dwarf_tag(&child) != DW_TAG_formal_parameter)
			continue;
		if (dw_dieoffset(ctx, &child) == want)
			return idx;
		idx++;
	} while (dw_sibling(ctx, &child) == 0);
	return -1;
}

/* The DIE a parameter's name, type and tags come from (its origin). */
static void param_decl(struct dw_cu_ctx *ctx, Dwarf_Die *param, Dwarf_Die *decl)
{
	Dwarf_Attribute attr;

	*decl = *param;
	if (dw_attr(ctx, param, DW_AT_abstract_origin, &attr) && !dw_formref_die(ctx, &attr, decl))
		*decl = *param;
}

/*
 * The prototype as pahole builds it: from the parameters the DIE itself
 * lists (a concrete out-of-line instance may list fewer than its
 * abstract origin, or in another order: reordered), names and types
 * taken through their abstract origins.
 */
static int add_params(struct dw_cu_ctx *ctx, Dwarf_Die *die, Dwarf_Die *origin,
		      struct dw_func *f)
{
	unsigned int slot = 0;
	Dwarf_Die child, decl, type;
	Dwarf_Word size;
	struct dw_param p;
	const char *name;
	int err, off;
	long idx;

	f->first_param = ctx->cu->nr_params;
	if (dw_child(ctx, die, &child) != 0)
		return 0;
	do {
		switch (dwarf_tag(&child)) {
		case DW_TAG_unspecified_parameters:
			f->flags |= DW_FUNC_VARARGS;
			continue;
		case DW_TAG_formal_parameter:
			break;
		default:
			continue;
		}
		param_decl(ctx, &child, &decl);
		if (die != origin && origin_param_idx(ctx, origin, &decl) != f->nr_params)
			f->flags |= DW_FUNC_REORDERED;
		name = dw_diename(ctx, &decl);
		/* "" too: a FUNC with it would not load (arg without a name). */
		if (!name || !name[0])
			f->flags |= DW_FUNC_UNNAMED_PARAM;
		off = dw_str(ctx, name);
		err = off < 0 ? off : type_of(ctx, &child, &p.type, &type);
		if (err)
			return err;
		p.name_off = off;
		if (f->flags & DW_FUNC_HAS_CODE)
			f->flags |= param_loc_flags(ctx, &child, slot);
		/* A 9..16-byte value takes two argument registers. */
		size = 0;
		slot += p.type && dw_type_size(ctx, &type, &size) == 0 && size > 8 &&
				size <= 16 ? 2 : 1;
		err = add_decl_tags(ctx, &decl, f->nr_params, &f->nr_tags);
		if (err)
			return err;
		idx = dw_cu_add_param(ctx, &p);
		if (idx < 0)
			return idx;
		f->nr_params++;
	} while (dw_sibling(ctx, &child) == 0);
	return 0;
}

/* Entry address: low_pc, else the lowest start of DW_AT_ranges. */
static bool func_addr(struct dw_cu_ctx *ctx, Dwarf_Die *die, uint64_t *addr)
{
	Dwarf_Addr low, base, start, end, best = UINT64_MAX;
	Dwarf_Attribute attr;
	ptrdiff_t off = 0;

	/*
	 * Most subprograms have neither (declarations, abstract instances):
	 * for those libdw's two lookups cost more than the rest of their
	 * decode (vmlinux: 250K calls each); the reader answers from the
	 * abbreviation what libdw would.
	 */
	if (!dw_attr_integrate(ctx, die, DW_AT_low_pc, &attr) &&
	    !dw_attr(ctx, die, DW_AT_ranges, &attr))
		return dw_hasattr(ctx, die, DW_AT_entry_pc);
	if (dwarf_lowpc(die, &low) == 0) {
		*addr = low;
		return true;
	}
	while ((off = dwarf_ranges(die, off, &base, &start, &end)) > 0)
		if (start < best)
			best = start;
	if (best == UINT64_MAX)
		return dwarf_hasattr(die, DW_AT_entry_pc);
	*addr = best;
	return true;
}

static uint16_t func_flags(struct dw_cu_ctx *ctx, Dwarf_Die *die)
{
	Dwarf_Word inl = 0, cc = 0;
	uint16_t flags = 0;

	if (flag_integrate(ctx, die, DW_AT_external))
		flags |= DW_FUNC_EXTERNAL;
	if (own_flag(ctx, die, DW_AT_declaration))
		flags |= DW_FUNC_DECLARATION;
	if (udata_integrate(ctx, die, DW_AT_inline, &inl) &&
	    (inl == DW_INL_inlined || inl == DW_INL_declared_inlined))
		flags |= DW_FUNC_INLINED;
	if (udata_integrate(ctx, die, DW_AT_calling_convention, &cc) && cc == DW_CC_nocall)
		flags |= DW_FUNC_NOCALL;
	return flags;
}

/* The DIE holding the declared prototype: the abstract origin, if any. */
static void func_origin(struct dw_cu_ctx *ctx, Dwarf_Die *die, Dwarf_Die *origin)
{
	Dwarf_Attribute attr;
	int i;

	*origin = *die;
	for (i = 0; i < 4 && dw_attr(ctx, origin, DW_AT_abstract_origin, &attr); i++)
		if (!dw_formref_die(ctx, &attr, origin))
			break;
}

static int decode_func(struct dw_cu_ctx *ctx, Dwarf_Die *die)
{
	struct dw_func f = { .die_off = dw_dieoffset(ctx, die) };
	Dwarf_Die origin;
	int off, err;

	func_origin(ctx, die, &origin);
	f.flags = func_flags(ctx, die);
	if (func_addr(ctx, die, &f.addr))
		f.flags |= DW_FUNC_HAS_CODE;
	if ((f.flags & DW_FUNC_HAS_CODE) && !dwarf_hasattr(die, DW_AT_low_pc))
		f.flags |= DW_FUNC_RANGES_ADDR;
	off = dw_str(ctx, dw_diename(ctx, die));
	if (off < 0)
		return off;
	f.name_off = off;
	err = type_of(ctx, die, &f.ret_type, NULL);
	if (err)
		return err;
	f.first_tag = ctx->cu->nr_tags;
	err = add_decl_tags(ctx, &origin, -1, &f.nr_tags);
	if (!err)
		err = add_params(ctx, die, &origin, &f);
	if (err)
		return err;
	return add_func(ctx, &f) < 0 ? -ENOMEM : 0;
}

/* ---- variables ---- */

/* A location that is exactly one DW_OP_addr (or DW_OP_addrx). */
static bool var_addr(struct dw_cu_ctx *ctx, Dwarf_Die *die, uint64_t *addr)
{
	Dwarf_Attribute attr, result;
	Dwarf_Op *ops;
	size_t nops;

	if (!dw_attr(ctx, die, DW_AT_location, &attr) ||
	    dwarf_getlocation(&attr, &ops, &nops) != 0 || nops != 1)
		return false;
	if (ops[0].atom == DW_OP_addr) {
		*addr = ops[0].number;
		return true;
	}
	if (ops[0].atom != DW_OP_addrx && ops[0].atom != DW_OP_GNU_addr_index)
		return false;
	return dwarf_getlocation_attr(&attr, ops, &result) == 0 &&
	       dwarf_formaddr(&result, addr) == 0;
}

static int decode_var(struct dw_cu_ctx *ctx, Dwarf_Die *die)
{
	struct dw_var v = { 0 };
	Dwarf_Die type, spec;
	Dwarf_Attribute attr;
	Dwarf_Word size = 0;
	int off, err;

	off = dw_str(ctx, dw_diename(ctx, die));
	if (off < 0)
		return off;
	v.name_off = off;
	err = type_of(ctx, die, &v.type, &type);
	if (err)
		return err;
	if (v.type && dw_type_size(ctx, &type, &size) == 0)
		v.size = size;
	v.has_addr = var_addr(ctx, die, &v.addr);
	v.external = flag_integrate(ctx, die, DW_AT_external);
	v.declaration = own_flag(ctx, die, DW_AT_declaration);
	v.artificial = own_flag(ctx, die, DW_AT_artificial);
	v.first_tag = ctx->cu->nr_tags;
	err = add_decl_tags(ctx, die, -1, &v.nr_tags);
	/* Tags written on the declaration a definition completes. */
	if (!err && dw_attr(ctx, die, DW_AT_specification, &attr) && dw_formref_die(ctx, &attr, &spec))
		err = add_decl_tags(ctx, &spec, -1, &v.nr_tags);
	if (err)
		return err;
	return add_var(ctx, &v) < 0 ? -ENOMEM : 0;
}

/* ---- the walk ---- */

static int defer(struct dw_walk *w, Dwarf_Die *die, enum dw_deferred_kind kind)
{
	struct dw_deferred *d;

	d = btf_reserve_mem((void **)&w->items, &w->items_cap, sizeof(*d), w->nr_items, SIZE_MAX, 1);
	if (!d)
		return -ENOMEM;
	d->die = *die;
	d->kind = kind;
	w->nr_items++;
	return 0;
}

/* Children that can hold no type, function, variable or inline site. */
static bool is_leaf(int tag)
{
	switch (tag) {
	case DW_TAG_member:
	case DW_TAG_formal_parameter:
	case DW_TAG_enumerator:
	case DW_TAG_subrange_type:
	case DW_TAG_unspecified_parameters:
	case DW_TAG_call_site:
	case DW_TAG_GNU_call_site:
	case DW_TAG_call_site_parameter:
	case DW_TAG_GNU_call_site_parameter:
	case DW_TAG_label:
	case DW_TAG_variable:
	case DW_TAG_LLVM_annotation:
		return true;
	}
	return false;
}

static int walk(struct dw_walk *w, Dwarf_Die *parent, bool top, int depth, bool *annots);

/* A STRUCT/UNION/class: nested types first, its members read on the way. */
static int walk_struct(struct dw_walk *w, Dwarf_Die *die, int depth)
{
	size_t mark = dw_types_struct_begin(w->ctx);
	bool annots = false;
	int err;

	/* Nested types first: pahole numbers them before their parent. */
	err = walk(w, die, false, depth + 1, &annots);
	return err ? err : dw_types_struct_end(w->ctx, die, mark, annots);
}

/* @annots: @parent is a struct; its members go to types.c. */
static int walk(struct dw_walk *w, Dwarf_Die *parent, bool top, int depth, bool *annots)
{
	const struct dw_opts *opts = w->ctx->opts;
	Dwarf_Die child;
	int tag, err = 0;

	if (depth > DW_MAX_DEPTH) {
		dw_log_die(w->ctx, parent, "DIE tree too deep", false);
		return -ELOOP;
	}
	if (!dwarf_haschildren(parent) || dw_child(w->ctx, parent, &child) != 0)
		return 0;
	do {
		tag = dwarf_tag(&child);
		if (annots && tag == DW_TAG_member) {
			err = dw_types_struct_member(w->ctx, &child);
		} else if (annots && tag == DW_TAG_LLVM_annotation) {
			*annots = true;
		} else if (dw_is_type_tag(tag)) {
			if (tag == DW_TAG_structure_type || tag == DW_TAG_union_type ||
			    tag == DW_TAG_class_type)
				err = walk_struct(w, &child, depth);
			else
				err = dw_types_reserve(w->ctx, &child);
		} else if (tag == DW_TAG_subprogram) {
			err = defer(w, &child, DW_DEFER_FUNC);
			if (!err)
				err = walk(w, &child, false, depth + 1, NULL);
		} else if (tag == DW_TAG_variable) {
			if (top)
				err = defer(w, &child, DW_DEFER_VAR);
		} else if (tag == DW_TAG_inlined_subroutine) {
			if (opts->collect_inlines)
				err = defer(w, &child, DW_DEFER_SITE);
			if (!err)
				err = walk(w, &child, false, depth + 1, NULL);
		} else if (!is_leaf(tag)) {
			err = walk(w, &child, tag == DW_TAG_namespace && top, depth + 1, NULL);
		}
		if (err)
			return err;
	} while (dw_sibling(w->ctx, &child) == 0);
	return 0;
}

static int decode_deferred(struct dw_cu_ctx *ctx, struct dw_walk *w)
{
	struct dw_deferred *d;
	size_t i;
	int err = 0;

	for (i = 0; i < w->nr_items && !err; i++) {
		d = &w->items[i];
		switch (d->kind) {
		case DW_DEFER_FUNC:
			err = decode_func(ctx, &d->die);
			break;
		case DW_DEFER_VAR:
			err = decode_var(ctx, &d->die);
			break;
		case DW_DEFER_SITE:
			err = dw_site_collect(ctx, &d->die);
			break;
		}
	}
	return err;
}

/*
 * The CU's BTF: split on dw_opts.str_base where this handle reads the
 * same .debug_str (a name there is then an offset, not a lookup).
 */
static struct btf *str_btf(struct dw_cu_ctx *ctx)
{
	const unsigned char *lo, *hi;
	struct btf *btf;

	if (!ctx->opts->str_base || !dw_file_str_bytes(ctx->file, &lo, &hi))
		return btf__new_empty();
	btf = btf__new_empty_split(ctx->opts->str_base);
	if (btf && btf_names_in(btf, (const char *)lo, (const char *)hi)) {
		btf__free(btf);
		return btf__new_empty();
	}
	return btf;
}

static int cu_setup(struct dw_cu_ctx *ctx, uint32_t idx)
{
	struct dw_cu *cu = ctx->cu;
	const char *name;
	Dwarf_Word lang = 0;
	int err;

	err = dw_file_cu_die(ctx->file, idx, &ctx->dw, &ctx->cu_die);
	if (err) {
		btf_log_printf(ctx->log, "CU %u: cannot read unit DIE: %s", idx, dwarf_errmsg(-1));
		return err;
	}
	dw_reader_init(&ctx->rd, ctx->file, &ctx->cu_die);
	if (ctx->types)
		dw_types_reset(ctx->types);
	name = dw_diename(ctx, &ctx->cu_die);
	cu->name = strdup(name ? name : "");
	cu->btf = str_btf(ctx);
	/* Names in .debug_str are offsets there too (dw_str()). */
	cu->names = str_btf(ctx);
	if (!cu->name || !cu->btf || !cu->names || !ctx->types)
		return -ENOMEM;
	btf__set_pointer_size(cu->btf, dw_file_pointer_size(ctx->file));
	ctx->addr_size = dw_file_pointer_size(ctx->file);
	if (udata_integrate(ctx, &ctx->cu_die, DW_AT_language, &lang))
		cu->lang = lang;
	return 0;
}

int dw_cu_decode(struct dw_file *f, uint32_t idx, const struct dw_opts *opts, struct dw_cu *cu,
		 const struct btf_log *log)
{
	struct dw_scratch *s = dw_file_scratch(f);
	struct dw_cu_ctx ctx = { .file = f, .cu = cu, .opts = opts, .log = log };
	struct dw_walk w = { .ctx = &ctx, .items = s->items, .items_cap = s->items_cap };
	int err;

	if (!s->types)
		s->types = dw_types_new();
	ctx.types = s->types;
	ctx.rd = s->rd;
	err = cu_setup(&ctx, idx);
	if (err)
		goto out;
	if (opts->skip_rust && cu->lang == DW_LANG_Rust) {
		cu->skipped = true;
		goto out;
	}
	err = walk(&w, &ctx.cu_die, true, 0, NULL);
	if (!err)
		err = dw_types_encode(&ctx);
	if (!err)
		err = decode_deferred(&ctx, &w);
	if (!err)
		err = dw_types_finish(&ctx);
out:
	s->items = w.items;
	s->items_cap = w.items_cap;
	s->rd = ctx.rd;
	return err;
}

void dw_scratch_free(struct dw_scratch *s)
{
	dw_types_free(s->types);
	dw_reader_free(&s->rd);
	free(s->items);
	memset(s, 0, sizeof(*s));
}

void dw_cu_release(struct dw_cu *cu)
{
	if (!cu)
		return;
	btf__free(cu->btf);
	btf__free(cu->names);
	free(cu->name);
	free(cu->funcs);
	free(cu->vars);
	free(cu->params);
	free(cu->tags);
	free(cu->sites);
	free(cu->locs);
	memset(cu, 0, sizeof(*cu));
}
