// SPDX-License-Identifier: GPL-2.0
/*
 * sites.c - one DW_TAG_inlined_subroutine to a dw_site: the inlined
 * function's prototype, the site address, and where each parameter is
 * at that address (DESIGN.md section 4).
 *
 *   DW_TAG_subprogram "foo" (DW_AT_inline)        <- prototype
 *     DW_TAG_formal_parameter "a"   <0x100>
 *     DW_TAG_formal_parameter "b"   <0x10c>
 *   ...
 *   DW_TAG_inlined_subroutine  abstract_origin -> foo, entry_pc 0x1234
 *     DW_TAG_formal_parameter  abstract_origin <0x10c>, location list
 *     DW_TAG_formal_parameter  abstract_origin <0x100>, DW_OP_reg5
 *
 * Parameters are matched by origin, not by position: gcc emits the
 * concrete children in any order and drops the ones it has nothing for.
 */
#include "dw_internal.h"

#include <dwarf.h>
#include <errno.h>
#include <gelf.h>
#include <stdlib.h>
#include <string.h>

/* Bound on abstract_origin/specification hops: a loop is bad DWARF. */
#define DW_ORIGIN_HOPS 8
/* Longest expression normalized on the stack; longer ones on the heap. */
#define DW_MAX_OPS 16

/* One declared parameter of the inlined function. */
struct site_param {
	Dwarf_Die die;
	Dwarf_Off origin;   /* offset at the end of its abstract_origin chain */
	bool varargs;       /* DW_TAG_unspecified_parameters */
	struct dw_param p;
};

struct site_proto {
	struct site_param *params;
	size_t nr, cap;
};

/* The DIE @die's attribute @name refers to. */
static bool ref_die(Dwarf_Die *die, int name, Dwarf_Die *out)
{
	Dwarf_Attribute attr;

	return dwarf_attr(die, name, &attr) && dwarf_formref_die(&attr, out);
}

/* The offset at the end of @die's abstract_origin chain. */
static Dwarf_Off origin_off(Dwarf_Die *die)
{
	Dwarf_Die cur = *die, next;
	int hops;

	for (hops = 0; hops < DW_ORIGIN_HOPS; hops++) {
		if (!ref_die(&cur, DW_AT_abstract_origin, &next))
			break;
		cur = next;
	}
	return dwarf_dieoffset(&cur);
}

static bool has_params(Dwarf_Die *die)
{
	Dwarf_Die child;

	if (dwarf_child(die, &child) != 0)
		return false;
	do {
		if (dwarf_tag(&child) == DW_TAG_formal_parameter ||
		    dwarf_tag(&child) == DW_TAG_unspecified_parameters)
			return true;
	} while (dwarf_siblingof(&child, &child) == 0);
	return false;
}

/*
 * The subprogram the site inlines.  DW_AT_abstract_origin may point into
 * another CU (DW_FORM_ref_addr, LTO), and from there on through further
 * abstract_origin or specification links (LTO's abstract copy of an early
 * DIE, C++ out-of-class definitions).  The name is looked up along that
 * chain; the parameter list is the first DIE on it that declares any.
 */
static bool site_origin(Dwarf_Die *die, Dwarf_Die *origin, Dwarf_Die *params)
{
	Dwarf_Die cur, next;
	const char *name;
	int hops;

	if (!ref_die(die, DW_AT_abstract_origin, origin) || dwarf_tag(origin) != DW_TAG_subprogram)
		return false;
	/* Nameless (or named ""): no FUNC or LOCSEC entry could name it. */
	name = dwarf_diename(origin);
	if (!name || !name[0])
		return false;
	cur = *origin;
	for (hops = 0; hops < DW_ORIGIN_HOPS; hops++) {
		if (has_params(&cur))
			break;
		if (!ref_die(&cur, DW_AT_abstract_origin, &next) &&
		    !ref_die(&cur, DW_AT_specification, &next))
			break;
		cur = next;
	}
	*params = has_params(&cur) ? cur : *origin;
	return true;
}

static bool lowest_range(Dwarf_Die *die, Dwarf_Addr *addr)
{
	Dwarf_Addr base, start, end, best = UINT64_MAX;
	ptrdiff_t off = 0;

	/*
	 * Empty ranges count: gcc gives an inline whose code all merged into
	 * its caller's only [a, a) ranges, as it gives others low_pc with
	 * high_pc 0.  A probe at a still sees the parameters.
	 */
	while ((off = dwarf_ranges(die, off, &base, &start, &end)) > 0)
		if (start < best)
			best = start;
	if (best == UINT64_MAX)
		return false;
	*addr = best;
	return true;
}

/*
 * The site address a tracer probes.  DW_AT_entry_pc when present: for a
 * site split over several ranges the first instruction of the inlined
 * code need not be the lowest address.  DWARF 5 lets entry_pc be a
 * constant, an offset from the site's low address.  Without entry_pc,
 * low_pc, else the lowest start of DW_AT_ranges.
 */
static bool site_addr(Dwarf_Die *die, Dwarf_Addr *addr)
{
	Dwarf_Attribute attr;
	Dwarf_Addr low;
	Dwarf_Word delta;
	bool has_low;

	has_low = dwarf_lowpc(die, &low) == 0 || lowest_range(die, &low);
	if (!dwarf_attr(die, DW_AT_entry_pc, &attr))
		goto no_entry;
	switch (dwarf_whatform(&attr)) {
	case DW_FORM_data1:
	case DW_FORM_data2:
	case DW_FORM_data4:
	case DW_FORM_data8:
	case DW_FORM_udata:
		if (!has_low || dwarf_formudata(&attr, &delta) != 0)
			goto no_entry;
		*addr = low + delta;
		return true;
	default:
		if (dwarf_formaddr(&attr, addr) == 0)
			return true;
	}
no_entry:
	*addr = low;
	return has_low;
}

/* Byte size of the value of type @t (peeled), 0 when it has none. */
static int type_size(struct dw_cu_ctx *ctx, Dwarf_Die *t)
{
	Dwarf_Attribute attr;
	Dwarf_Word size;

	switch (dwarf_tag(t)) {
	case DW_TAG_pointer_type:
	case DW_TAG_reference_type:
	case DW_TAG_rvalue_reference_type:
		if (!dwarf_attr(t, DW_AT_byte_size, &attr) || dwarf_formudata(&attr, &size) != 0)
			size = ctx->addr_size;
		break;
	default:
		if (dw_type_size(ctx, t, &size) != 0)
			size = 0;
	}
	return size <= INT8_MAX ? (int)size : INT8_MAX + 1;
}

static bool base_signed(Dwarf_Die *t)
{
	Dwarf_Attribute attr;
	Dwarf_Word enc;

	if (!dwarf_attr(t, DW_AT_encoding, &attr) || dwarf_formudata(&attr, &enc) != 0)
		return false;
	return enc == DW_ATE_signed || enc == DW_ATE_signed_char;
}

/* An enum is signed when its underlying type is, or a value is negative. */
static bool enum_signed(Dwarf_Die *t)
{
	Dwarf_Die under, child;
	Dwarf_Attribute attr;
	Dwarf_Sword v;

	if (ref_die(t, DW_AT_type, &under) && dwarf_peel_type(&under, &under) == 0)
		return base_signed(&under);
	if (dwarf_child(t, &child) != 0)
		return false;
	do {
		if (dwarf_attr(&child, DW_AT_const_value, &attr) &&
		    dwarf_whatform(&attr) == DW_FORM_sdata &&
		    dwarf_formsdata(&attr, &v) == 0 && v < 0)
			return true;
	} while (dwarf_siblingof(&child, &child) == 0);
	return false;
}

/*
 * Value size of parameter @param for a LOC_PARAM: bytes of its type with
 * typedefs and qualifiers peeled, negative for signed integers, enums and
 * chars.  0 = unknown (no type).
 */
static int value_size(struct dw_cu_ctx *ctx, Dwarf_Die *param)
{
	Dwarf_Attribute attr;
	Dwarf_Die t;
	bool sign = false;
	int size;

	if (!dwarf_attr_integrate(param, DW_AT_type, &attr) || !dwarf_formref_die(&attr, &t) ||
	    dw_peel_type(ctx, &t) != 0)
		return 0;
	size = type_size(ctx, &t);
	if (dwarf_tag(&t) == DW_TAG_base_type)
		sign = base_signed(&t);
	else if (dwarf_tag(&t) == DW_TAG_enumeration_type)
		sign = enum_signed(&t);
	return sign ? -size : size;
}

/* BTF name and type of a prototype parameter, or the return type. */
static int proto_type(struct dw_cu_ctx *ctx, Dwarf_Die *die, uint32_t *id)
{
	Dwarf_Attribute attr;
	Dwarf_Die t;

	*id = 0;
	if (!dwarf_attr_integrate(die, DW_AT_type, &attr))
		return dw_type_id(ctx, NULL, id);
	if (!dwarf_formref_die(&attr, &t))
		return -EINVAL;
	return dw_type_id(ctx, &t, id);
}

static int proto_push(struct site_proto *proto, Dwarf_Die *die, bool varargs)
{
	struct site_param *sp;

	if (proto->nr == proto->cap) {
		size_t cap = proto->cap ? proto->cap * 2 : 8;

		sp = realloc(proto->params, cap * sizeof(*sp));
		if (!sp)
			return -ENOMEM;
		proto->params = sp;
		proto->cap = cap;
	}
	sp = &proto->params[proto->nr++];
	memset(sp, 0, sizeof(*sp));
	sp->die = *die;
	sp->varargs = varargs;
	sp->origin = varargs ? 0 : origin_off(die);
	return 0;
}

/*
 * The declared parameters of @fn in order, with their BTF types.  A
 * trailing DW_TAG_unspecified_parameters becomes the unnamed void
 * parameter BTF uses for "...": it never has a location.
 */
static int proto_collect(struct dw_cu_ctx *ctx, Dwarf_Die *fn, struct site_proto *proto)
{
	struct site_param *sp;
	Dwarf_Die child;
	int err, tag, off;

	if (dw_child(ctx, fn, &child) != 0)
		return 0;
	do {
		tag = dwarf_tag(&child);
		if (tag != DW_TAG_formal_parameter && tag != DW_TAG_unspecified_parameters)
			continue;
		err = proto_push(proto, &child, tag == DW_TAG_unspecified_parameters);
		if (err)
			return err;
		sp = &proto->params[proto->nr - 1];
		if (sp->varargs)
			continue;
		off = dw_str(ctx, dwarf_diename(&child));
		if (off < 0)
			return off;
		sp->p.name_off = off;
		err = proto_type(ctx, &child, &sp->p.type);
		if (err)
			return err;
	} while (dw_sibling(ctx, &child) == 0);
	return 0;
}

/* The site's DW_TAG_formal_parameter child standing for @sp, if any. */
static bool concrete_param(Dwarf_Die *site, const struct site_param *sp, Dwarf_Die *out)
{
	Dwarf_Die child;

	if (sp->varargs || dwarf_child(site, &child) != 0)
		return false;
	do {
		if (dwarf_tag(&child) == DW_TAG_formal_parameter &&
		    origin_off(&child) == sp->origin) {
			*out = child;
			return true;
		}
	} while (dwarf_siblingof(&child, &child) == 0);
	return false;
}

static void set_miss(struct dw_loc *out, int size, enum dw_loc_miss why)
{
	memset(out, 0, sizeof(*out));
	out->kind = DW_LOC_NONE;
	out->reason = why;
	out->size = size >= INT8_MIN && size <= INT8_MAX ? size : 0;
}

/*
 * DW_AT_const_value, through the same mapping as an expression so the
 * size rules are one: a block is an implicit value, a number a constant.
 * DW_FORM_dataN carries no sign; for a signed type it is sign-extended
 * from the form's width.
 */
static void const_loc(Dwarf_Attribute *attr, int size, struct dw_loc *out)
{
	Dwarf_Op ops[2] = { { .atom = DW_OP_constu }, { .atom = DW_OP_stack_value } };
	Dwarf_Block block;
	Dwarf_Word u;
	Dwarf_Sword s;
	unsigned int bits = 0;

	switch (dwarf_whatform(attr)) {
	case DW_FORM_block1:
	case DW_FORM_block2:
	case DW_FORM_block4:
	case DW_FORM_block:
		if (dwarf_formblock(attr, &block) != 0)
			return set_miss(out, size, DW_MISS_BAD_DWARF);
		ops[0].atom = DW_OP_implicit_value;
		ops[0].number = block.length;
		ops[0].number2 = (uintptr_t)block.data;
		return dw_loc_from_expr(ops, 1, size, out);
	case DW_FORM_sdata:
	case DW_FORM_implicit_const:
		if (dwarf_formsdata(attr, &s) != 0)
			return set_miss(out, size, DW_MISS_BAD_DWARF);
		ops[0].number = s;
		return dw_loc_from_expr(ops, 2, size, out);
	case DW_FORM_data1: bits = 8; break;
	case DW_FORM_data2: bits = 16; break;
	case DW_FORM_data4: bits = 32; break;
	case DW_FORM_data8:
	case DW_FORM_udata:
		break;
	default:
		return set_miss(out, size, DW_MISS_BAD_DWARF);
	}
	if (dwarf_formudata(attr, &u) != 0)
		return set_miss(out, size, DW_MISS_BAD_DWARF);
	if (size < 0 && bits && (u >> (bits - 1)) & 1)
		u |= ~0ull << bits;
	ops[0].number = u;
	dw_loc_from_expr(ops, 2, size, out);
}

/*
 * libdw leaves some operands as references for the caller to resolve:
 * DW_OP_addrx/constx index .debug_addr (DWARF 5, clang's default), and
 * DW_OP_implicit_value's block needs its own call.  Rewrites @ops into
 * @buf in the plain form dw_loc_from_expr() maps.  Returns false if an
 * operand does not resolve.
 */
static bool normalize_ops(Dwarf_Attribute *attr, const Dwarf_Op *ops, size_t nops,
			  Dwarf_Op *buf)
{
	Dwarf_Attribute res;
	Dwarf_Block block;
	Dwarf_Addr a;
	size_t i;

	for (i = 0; i < nops; i++) {
		buf[i] = ops[i];
		switch (ops[i].atom) {
		case DW_OP_addrx:
		case DW_OP_GNU_addr_index:
		case DW_OP_constx:
		case DW_OP_GNU_const_index:
			if (dwarf_getlocation_attr(attr, &ops[i], &res) != 0 ||
			    dwarf_formaddr(&res, &a) != 0)
				return false;
			buf[i].atom = ops[i].atom == DW_OP_addrx ||
				      ops[i].atom == DW_OP_GNU_addr_index ? DW_OP_addr : DW_OP_constu;
			buf[i].number = a;
			break;
		case DW_OP_implicit_value:
			if (dwarf_getlocation_implicit_value(attr, &ops[i], &block) != 0)
				return false;
			buf[i].number = block.length;
			buf[i].number2 = (uintptr_t)block.data;
			break;
		}
	}
	return true;
}

/* gcc's location views: one (begin, end) ULEB pair per list entry. */
struct loc_views {
	const uint8_t *p, *end;
};

static bool read_uleb(struct loc_views *v, uint64_t *val)
{
	unsigned int shift = 0;
	uint8_t b;

	*val = 0;
	do {
		if (v->p >= v->end || shift > 63)
			return false;
		b = *v->p++;
		*val |= (uint64_t)(b & 0x7f) << shift;
		shift += 7;
	} while (b & 0x80);
	return true;
}

/* The view pairs of @param's location list, from DW_AT_GNU_locviews. */
static bool loc_views(struct dw_cu_ctx *ctx, Dwarf_Die *param, struct loc_views *v)
{
	Dwarf_Attribute attr;
	Dwarf_Half version;
	Dwarf_Word off;
	Elf_Data *data;

	if (!dwarf_attr(param, DW_AT_GNU_locviews, &attr) || dwarf_formudata(&attr, &off) != 0 ||
	    dwarf_cu_info(param->cu, &version, NULL, NULL, NULL, NULL, NULL, NULL) != 0)
		return false;
	data = dw_file_loc_data(ctx->file, version >= 5);
	if (!data || !data->d_buf || off >= data->d_size)
		return false;
	v->p = (const uint8_t *)data->d_buf + off;
	v->end = (const uint8_t *)data->d_buf + data->d_size;
	return true;
}

/*
 * Does [start, end) with views (vb, ve) hold at (@addr, view @ev)?  Views
 * number the states at one address, so an entry ending at @addr still
 * holds there for the views before its end view: gcc describes inline
 * parameters that way, often with an empty range [addr, addr) at the
 * site's entry view.  All views at one address are the same machine
 * state, the one a probe at @addr sees.
 */
static bool view_covers(Dwarf_Addr start, Dwarf_Addr end, uint64_t vb, uint64_t ve,
			Dwarf_Addr addr, uint64_t ev)
{
	return (start < addr || (start == addr && vb <= ev)) &&
	       (addr < end || (addr == end && ev < ve));
}

/*
 * The expression of @attr (on @param) at the site address @addr, entry
 * view @ev: an exprloc, or the first location-list entry covering the
 * address.  Without views, an empty range [addr, addr) is taken when no
 * entry covers the address properly.  Returns 1, 0 if no entry
 * applies, -1 on error.
 */
static int expr_at(struct dw_cu_ctx *ctx, Dwarf_Die *param, Dwarf_Attribute *attr,
		   Dwarf_Addr addr, uint64_t ev, Dwarf_Op **ops, size_t *nops)
{
	Dwarf_Addr base, start, end;
	struct loc_views views = {};
	uint64_t vb = 0, ve = 0;
	bool has_views;
	Dwarf_Op *e;
	size_t n;
	ptrdiff_t off = 0;
	int found = 0;

	has_views = loc_views(ctx, param, &views);
	while ((off = dwarf_getlocations(attr, off, &base, &start, &end, &e, &n)) > 0) {
		if (has_views && (!read_uleb(&views, &vb) || !read_uleb(&views, &ve)))
			has_views = false;
		if (has_views ? view_covers(start, end, vb, ve, addr, ev) :
				start <= addr && addr < end) {
			*ops = e;
			*nops = n;
			return 1;
		}
		if (!found && start == addr && end == addr) {
			*ops = e;
			*nops = n;
			found = 1;
		}
	}
	return off < 0 ? -1 : found;
}

/*
 * Maps the expression of @attr valid at @addr (exprloc, or the location
 * list entry covering @addr) into @out.
 */
static void expr_loc(struct dw_cu_ctx *ctx, Dwarf_Die *param, Dwarf_Attribute *attr,
		     Dwarf_Addr addr, uint64_t view, int size, struct dw_loc *out)
{
	Dwarf_Op stack[DW_MAX_OPS], *buf = stack, *ops;
	size_t nops;
	int n;

	n = expr_at(ctx, param, attr, addr, view, &ops, &nops);
	if (n < 0)
		return set_miss(out, size, DW_MISS_BAD_DWARF);
	if (n == 0)
		return set_miss(out, size, DW_MISS_NO_ENTRY);
	if (nops > DW_MAX_OPS) {
		buf = malloc(nops * sizeof(*buf));
		/* Out of memory only costs this parameter its location. */
		if (!buf)
			return set_miss(out, size, DW_MISS_COMPUTED);
	}
	if (normalize_ops(attr, ops, nops, buf))
		dw_loc_from_expr(buf, nops, size, out);
	else
		set_miss(out, size, DW_MISS_BAD_DWARF);
	if (buf != stack)
		free(buf);
}

/* The CFA at @addr as register + offset, from .debug_frame or .eh_frame. */
static bool cfa_at(struct dw_cu_ctx *ctx, Dwarf_Addr addr, uint16_t *reg, int64_t *off)
{
	Dwarf_CFI *cfi[2] = { dwarf_getcfi(ctx->dw), NULL };
	Dwarf_Frame *frame;
	Dwarf_Op *ops;
	size_t nops, i;
	bool ok = false;

	for (i = 0; i < 2 && !ok; i++) {
		/* .eh_frame only when .debug_frame does not cover @addr. */
		if (i == 1)
			cfi[1] = dw_file_eh_cfi(ctx->file);
		if (!cfi[i] || dwarf_cfi_addrframe(cfi[i], addr, &frame) != 0)
			continue;
		if (dwarf_frame_cfa(frame, &ops, &nops) == 0 && nops == 1 &&
		    ops[0].atom == DW_OP_bregx && ops[0].number <= UINT16_MAX) {
			*reg = ops[0].number;
			*off = (int64_t)ops[0].number2;
			ok = true;
		}
		free(frame);
	}
	return ok;
}

/*
 * Does the subtree under @die hold a subprogram with code?  gcc puts
 * declarations of block-scope externs there too; they hold no sites.
 */
static bool has_nested_sub(Dwarf_Die *die, int depth)
{
	Dwarf_Die child;

	if (depth > 64 || dwarf_child(die, &child) != 0)
		return depth > 64;
	do {
		if (dwarf_tag(&child) == DW_TAG_subprogram &&
		    (dwarf_hasattr(&child, DW_AT_low_pc) || dwarf_hasattr(&child, DW_AT_ranges)))
			return true;
		if (has_nested_sub(&child, depth + 1))
			return true;
	} while (dwarf_siblingof(&child, &child) == 0);
	return false;
}

/*
 * The subprogram holding @site.  dwarf_getscopes_die() walks the CU from
 * its root each time (a quarter of a vmlinux run when done per fbreg
 * parameter); sites come in DIE order, so the CU's children are scanned
 * forward and the last top-level subprogram found is remembered with its
 * DIE range, when no subprogram with code nests in it (else getscopes).
 */
static bool containing_sub(struct dw_cu_ctx *ctx, Dwarf_Die *site, Dwarf_Die *out)
{
	struct dw_sub_memo *m = dw_file_sub_memo(ctx->file);
	Dwarf_Off off = dwarf_dieoffset(site);
	Dwarf_Die *scopes = NULL, cur, next, cu;
	bool has_next;
	int i, n;

	if (m->hi && off > m->lo && off < m->hi && m->sub.cu == site->cu) {
		*out = m->sub;
		return true;
	}
	/*
	 * The CU's child holding @site, scanning siblings forward from the
	 * last one found (sites come in DIE order).
	 */
	if (m->hi && m->sub.cu == site->cu && off >= m->hi)
		cur = m->sub;
	else if (!dwarf_diecu(site, &cu, NULL, NULL) || dwarf_child(&cu, &cur) != 0)
		goto scopes;
	for (;;) {
		next = cur;
		has_next = dwarf_siblingof(&next, &next) == 0;
		if (!has_next || off < dwarf_dieoffset(&next))
			break;
		cur = next;
	}
	m->hi = 0;
	if (dwarf_tag(&cur) == DW_TAG_subprogram && off > dwarf_dieoffset(&cur) &&
	    !has_nested_sub(&cur, 0)) {
		m->sub = cur;
		m->lo = dwarf_dieoffset(&cur);
		/* The CU's last child holds every later DIE of the CU. */
		m->hi = has_next ? dwarf_dieoffset(&next) : UINT64_MAX;
		*out = cur;
		return true;
	}
scopes:
	n = dwarf_getscopes_die(site, &scopes);
	for (i = 0; i < n; i++)
		if (dwarf_tag(&scopes[i]) == DW_TAG_subprogram)
			break;
	if (i < n)
		*out = scopes[i];
	free(scopes);
	return i < n;
}

/* The frame base of the subprogram holding @site, at @addr, as reg + off. */
static bool frame_base_at(struct dw_cu_ctx *ctx, Dwarf_Die *site, Dwarf_Addr addr,
			  uint16_t *reg, int64_t *off)
{
	Dwarf_Attribute attr;
	Dwarf_Die sub;
	Dwarf_Op *ops;
	size_t nops;
	bool ok = false;

	if (!containing_sub(ctx, site, &sub) || !dwarf_attr(&sub, DW_AT_frame_base, &attr) ||
	    dwarf_getlocation_addr(&attr, addr, &ops, &nops, 1) != 1 || nops != 1)
		goto out;
	if (ops[0].atom == DW_OP_call_frame_cfa) {
		ok = cfa_at(ctx, addr, reg, off);
	} else if (ops[0].atom >= DW_OP_reg0 && ops[0].atom <= DW_OP_reg31) {
		*reg = ops[0].atom - DW_OP_reg0;
		*off = 0;
		ok = true;
	} else if (ops[0].atom >= DW_OP_breg0 && ops[0].atom <= DW_OP_breg31) {
		*reg = ops[0].atom - DW_OP_breg0;
		*off = (int64_t)ops[0].number;
		ok = true;
	} else if ((ops[0].atom == DW_OP_regx || ops[0].atom == DW_OP_bregx) &&
		   ops[0].number <= UINT16_MAX) {
		*reg = ops[0].number;
		*off = ops[0].atom == DW_OP_bregx ? (int64_t)ops[0].number2 : 0;
		ok = true;
	}
out:
	return ok;
}

/*
 * DW_OP_fbreg off is memory at frame base + off.  The frame base is the
 * containing subprogram's DW_AT_frame_base, with gcc DW_OP_call_frame_cfa:
 * the CFA, which CFI at the site address gives as register + offset
 * (rsp+8 right after a call, rbp+16 in a frame-pointer body).  So the
 * parameter becomes DEREF reg + (base offset + off).
 */
static void resolve_fbreg(struct dw_cu_ctx *ctx, Dwarf_Die *site, Dwarf_Addr addr,
			  struct dw_loc *out)
{
	uint16_t reg;
	int64_t base, total;

	if (!frame_base_at(ctx, site, addr, &reg, &base))
		return set_miss(out, out->size, DW_MISS_FBREG);
	total = base + out->offset;
	if (total < INT32_MIN || total > INT32_MAX)
		return set_miss(out, out->size, DW_MISS_FBREG);
	out->kind = DW_LOC_DEREF;
	out->reg = reg;
	out->offset = total;
}

/* DW_AT_GNU_entry_view: the location view at the site address, 0 if none. */
static uint64_t site_view(Dwarf_Die *site)
{
	Dwarf_Attribute attr;
	Dwarf_Word view;

	if (!dwarf_attr(site, DW_AT_GNU_entry_view, &attr) || dwarf_formudata(&attr, &view) != 0)
		return 0;
	return view;
}

/* Where parameter @sp of the prototype is at the site address. */
static void param_loc(struct dw_cu_ctx *ctx, Dwarf_Die *site, Dwarf_Addr addr,
		      struct site_param *sp, struct dw_loc *out)
{
	Dwarf_Attribute attr;
	Dwarf_Die concrete;
	int size;

	size = sp->varargs ? 0 : value_size(ctx, &sp->die);
	if (!concrete_param(site, sp, &concrete))
		return set_miss(out, size, DW_MISS_NO_PARAM_DIE);
	if (dwarf_attr(&concrete, DW_AT_const_value, &attr))
		return const_loc(&attr, size, out);
	if (!dwarf_attr(&concrete, DW_AT_location, &attr))
		return set_miss(out, size, DW_MISS_NO_LOCATION);
	expr_loc(ctx, &concrete, &attr, addr, site_view(site), size, out);
	if (out->kind == DW_LOC_FBREG)
		resolve_fbreg(ctx, site, addr, out);
}

/*
 * A relocatable object's addresses are libdwfl's arbitrary layout of its
 * sections: a consumer needs a section and an offset in it.  A constant
 * address becomes (section in reg, offset in value); one no section holds
 * is not an address the loader relocates.
 */
static void rel_addr_loc(struct dw_cu_ctx *ctx, struct dw_loc *loc)
{
	uint64_t off = loc->value;
	int shndx;

	if (loc->kind != DW_LOC_ADDR)
		return;
	shndx = dw_file_addr_section(ctx->file, &off);
	if (shndx < 0 || shndx > UINT16_MAX)
		return set_miss(loc, loc->size, DW_MISS_COMPUTED);
	loc->reg = shndx;
	loc->value = off;
}

static int site_append(struct dw_cu_ctx *ctx, Dwarf_Die *die, struct dw_site *site,
		       struct site_proto *proto)
{
	struct dw_loc loc;
	long idx;
	size_t i;
	int shndx;

	site->first_param = ctx->cu->nr_params;
	site->first_loc = ctx->cu->nr_locs;
	site->nr_params = proto->nr;
	for (i = 0; i < proto->nr; i++) {
		idx = dw_cu_add_param(ctx, &proto->params[i].p);
		if (idx < 0)
			return idx;
	}
	for (i = 0; i < proto->nr; i++) {
		param_loc(ctx, die, site->addr, &proto->params[i], &loc);
		rel_addr_loc(ctx, &loc);
		idx = dw_cu_add_loc(ctx, &loc);
		if (idx < 0)
			return idx;
	}
	shndx = dw_file_addr_section(ctx->file, &site->addr);
	if (shndx < 0)
		return 0; /* not in any section: nothing can probe it */
	site->shndx = shndx;
	idx = dw_cu_add_site(ctx, site);
	return idx < 0 ? idx : 0;
}

int dw_site_collect(struct dw_cu_ctx *ctx, Dwarf_Die *die)
{
	struct site_proto proto = {};
	struct dw_site site = {};
	Dwarf_Die origin, params;
	Dwarf_Addr addr;
	int err = 0, off;

	if (!site_origin(die, &origin, &params) || !site_addr(die, &addr))
		return 0;
	site.addr = addr;
	site.die_off = dwarf_dieoffset(die);
	off = dw_str(ctx, dwarf_diename(&origin));
	err = off < 0 ? off : proto_type(ctx, &origin, &site.ret_type);
	if (!err)
		err = proto_collect(ctx, &params, &proto);
	if (err == -ENOMEM)
		goto out;
	if (err) {
		/* A type the BTF side cannot take: lose this site, not the CU. */
		dw_log_die(ctx, die, "inline site skipped: prototype not encodable", false);
		err = 0;
		goto out;
	}
	if (proto.nr > UINT16_MAX)
		goto out;
	site.name_off = off;
	err = site_append(ctx, die, &site, &proto);
out:
	free(proto.params);
	return err;
}
