// SPDX-License-Identifier: GPL-2.0
/*
 * kinds.c - the one table of per-kind facts: names, record sizes, which
 * fields hold type ids and string offsets, byte swapping.
 */
#include "btf_internal.h"

#include <byteswap.h>
#include <stdio.h>

static const char *const kind_names[NR_BTF_KINDS] = {
	[BTF_KIND_UNKN] = "UNKNOWN",	[BTF_KIND_INT] = "INT",
	[BTF_KIND_PTR] = "PTR",		[BTF_KIND_ARRAY] = "ARRAY",
	[BTF_KIND_STRUCT] = "STRUCT",	[BTF_KIND_UNION] = "UNION",
	[BTF_KIND_ENUM] = "ENUM",	[BTF_KIND_FWD] = "FWD",
	[BTF_KIND_TYPEDEF] = "TYPEDEF", [BTF_KIND_VOLATILE] = "VOLATILE",
	[BTF_KIND_CONST] = "CONST",	[BTF_KIND_RESTRICT] = "RESTRICT",
	[BTF_KIND_FUNC] = "FUNC",	[BTF_KIND_FUNC_PROTO] = "FUNC_PROTO",
	[BTF_KIND_VAR] = "VAR",		[BTF_KIND_DATASEC] = "DATASEC",
	[BTF_KIND_FLOAT] = "FLOAT",	[BTF_KIND_DECL_TAG] = "DECL_TAG",
	[BTF_KIND_TYPE_TAG] = "TYPE_TAG", [BTF_KIND_ENUM64] = "ENUM64",
	[BTF_KIND_LOC_PARAM] = "LOC_PARAM", [BTF_KIND_LOC_PROTO] = "LOC_PROTO",
	[BTF_KIND_LOCSEC] = "LOCSEC",
};

const char *btf_kind_str(unsigned int kind)
{
	if (kind >= NR_BTF_KINDS)
		return "UNKNOWN";
	return kind_names[kind];
}

/*
 * The one table of record shapes: bytes after struct btf_type, and bytes
 * per vlen element.  The merged layout's layout section is this table.
 */
int btf_kind_layout(unsigned int kind, enum btf_loc_layout layout, struct btf_layout *out)
{
	bool merged = layout == BTF_LAYOUT_MERGED;
	uint8_t info = 0, elem = 0;

	if (kind >= NR_BTF_KINDS)
		return -EINVAL;
	switch ((enum btf_kind)kind) {
	case BTF_KIND_FWD:
	case BTF_KIND_CONST:
	case BTF_KIND_VOLATILE:
	case BTF_KIND_RESTRICT:
	case BTF_KIND_PTR:
	case BTF_KIND_TYPEDEF:
	case BTF_KIND_FUNC:
	case BTF_KIND_FLOAT:
	case BTF_KIND_TYPE_TAG:
		break;
	case BTF_KIND_INT:
		info = sizeof(uint32_t);
		break;
	case BTF_KIND_ENUM:
		elem = sizeof(struct btf_enum);
		break;
	case BTF_KIND_ENUM64:
		elem = sizeof(struct btf_enum64);
		break;
	case BTF_KIND_ARRAY:
		info = sizeof(struct btf_array);
		break;
	case BTF_KIND_STRUCT:
	case BTF_KIND_UNION:
		elem = sizeof(struct btf_member);
		break;
	case BTF_KIND_FUNC_PROTO:
		elem = sizeof(struct btf_param);
		break;
	case BTF_KIND_VAR:
		info = sizeof(struct btf_var);
		break;
	case BTF_KIND_DATASEC:
		elem = sizeof(struct btf_var_secinfo);
		break;
	case BTF_KIND_DECL_TAG:
		info = sizeof(struct btf_decl_tag);
		break;
	case BTF_KIND_LOC_PARAM:
		if (merged) {
			info = sizeof(struct btf_loc_param_merged);
			elem = sizeof(uint32_t);
		} else {
			info = sizeof(struct btf_loc_param);
		}
		break;
	case BTF_KIND_LOC_PROTO:
		elem = sizeof(uint32_t);
		break;
	case BTF_KIND_LOCSEC:
		elem = merged ? sizeof(struct btf_loc_merged) : sizeof(struct btf_loc);
		break;
	case BTF_KIND_UNKN:
	case NR_BTF_KINDS:
		return -EINVAL;
	}
	out->info_sz = info;
	out->elem_sz = elem;
	out->flags = 0;
	return 0;
}

long btf_type_size_layout(const struct btf_type *t, enum btf_loc_layout layout)
{
	struct btf_layout l;

	if (btf_kind_layout(btf_kind(t), layout, &l))
		return -EINVAL;
	return sizeof(struct btf_type) + l.info_sz + (long)btf_vlen(t) * l.elem_sz;
}

long btf_type_size(const struct btf_type *t)
{
	return btf_type_size_layout(t, BTF_LAYOUT_SEED);
}

void btf_bswap_type_hdr(struct btf_type *t)
{
	t->name_off = bswap_32(t->name_off);
	t->info = bswap_32(t->info);
	t->type = bswap_32(t->type);
}

/*
 * Every body is an array of u32 except the seed LOC_PARAM's register
 * form, whose first word holds two u16 (reg, flags).
 */
void btf_bswap_type_body(struct btf_type *t, enum btf_loc_layout layout)
{
	long size = btf_type_size_layout(t, layout);
	uint32_t *w = btf_type_body(t);
	size_t i, n;

	if (size < 0)
		return;
	n = (size - sizeof(*t)) / sizeof(uint32_t);
	if (layout == BTF_LAYOUT_SEED && btf_kind(t) == BTF_KIND_LOC_PARAM && !btf_kflag(t)) {
		struct btf_loc_param *p = btf_type_body(t);

		p->reg = bswap_16(p->reg);
		p->flags = bswap_16(p->flags);
		p->offset = (int32_t)bswap_32((uint32_t)p->offset);
		return;
	}
	for (i = 0; i < n; i++)
		w[i] = bswap_32(w[i]);
}

void btf_log_printf(const struct btf_log *log, const char *fmt, ...)
{
	char buf[512];
	va_list ap;

	if (!log || !log->fn)
		return;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	log->fn(log->ctx, buf);
}

static bool value_size_ok(uint32_t size)
{
	return size == 1 || size == 2 || size == 4 || size == 8;
}

/*
 * The flag combinations of the merged uapi comment, each with its vlen:
 * CONST(|SIGNED)(|ADDR) 1 or 2 words; REG 1 (register) or 2 (pair);
 * REG|DEREF 1; REG|OFFSET and REG|DEREF|OFFSET 2 ({reg, s32 offset}).
 */
const char *btf_loc_param_merged_check(uint32_t size, uint32_t flags, unsigned int vlen)
{
	const uint32_t reg_forms = BTF_LOC_PARAM_REG | BTF_LOC_PARAM_DEREF | BTF_LOC_PARAM_OFFSET;

	if (flags & ~BTF_LOC_PARAM_FLAGS)
		return "unknown flags";
	if (flags & BTF_LOC_PARAM_CONST) {
		if (flags & reg_forms)
			return "CONST with REG, DEREF or OFFSET";
		if (!value_size_ok(size))
			return "size is not 1, 2, 4 or 8";
		if (vlen != 1 && vlen != 2)
			return "CONST needs vlen 1 or 2";
		if (vlen == 2 && size != 8)
			return "a two-word CONST needs size 8";
		return NULL;
	}
	if (flags & BTF_LOC_PARAM_ADDR)
		return "ADDR without CONST";
	if (!(flags & BTF_LOC_PARAM_REG))
		return "neither CONST nor REG";
	if (flags & BTF_LOC_PARAM_OFFSET) {
		if (vlen != 2)
			return "REG with OFFSET needs vlen 2";
	} else if (flags & BTF_LOC_PARAM_DEREF) {
		if (vlen != 1)
			return "REG|DEREF needs vlen 1";
	} else if (vlen == 2) {
		/* A register pair holds a value of twice a register part's size. */
		if (size != 2 && size != 4 && size != 8 && size != 16)
			return "register pair size is not 2, 4, 8 or 16";
		return NULL;
	} else if (vlen != 1) {
		return "REG needs vlen 1 or 2";
	}
	if (!value_size_ok(size))
		return "size is not 1, 2, 4 or 8";
	return NULL;
}
