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

int btf_type_visit_type_ids(struct btf_type *t, enum btf_loc_layout layout,
			    int (*fn)(uint32_t *id, void *ctx), void *ctx)
{
	unsigned int i, vlen = btf_vlen(t);
	int err;

	switch ((enum btf_kind)btf_kind(t)) {
	case BTF_KIND_UNKN:
	case BTF_KIND_INT:
	case BTF_KIND_FLOAT:
	case BTF_KIND_ENUM:
	case BTF_KIND_ENUM64:
	case BTF_KIND_FWD:
	case BTF_KIND_LOC_PARAM:
	case NR_BTF_KINDS:
		return 0;
	case BTF_KIND_PTR:
	case BTF_KIND_TYPEDEF:
	case BTF_KIND_VOLATILE:
	case BTF_KIND_CONST:
	case BTF_KIND_RESTRICT:
	case BTF_KIND_FUNC:
	case BTF_KIND_VAR:
	case BTF_KIND_DECL_TAG:
	case BTF_KIND_TYPE_TAG:
		return fn(&t->type, ctx);
	case BTF_KIND_ARRAY: {
		struct btf_array *a = btf_type_body(t);

		err = fn(&a->type, ctx);
		return err ? err : fn(&a->index_type, ctx);
	}
	case BTF_KIND_STRUCT:
	case BTF_KIND_UNION: {
		struct btf_member *m = btf_type_body(t);

		for (i = 0; i < vlen; i++)
			if ((err = fn(&m[i].type, ctx)))
				return err;
		return 0;
	}
	case BTF_KIND_FUNC_PROTO: {
		struct btf_param *p = btf_type_body(t);

		if ((err = fn(&t->type, ctx)))
			return err;
		for (i = 0; i < vlen; i++)
			if ((err = fn(&p[i].type, ctx)))
				return err;
		return 0;
	}
	case BTF_KIND_DATASEC: {
		struct btf_var_secinfo *v = btf_type_body(t);

		for (i = 0; i < vlen; i++)
			if ((err = fn(&v[i].type, ctx)))
				return err;
		return 0;
	}
	case BTF_KIND_LOC_PROTO: {
		uint32_t *ids = btf_type_body(t);

		for (i = 0; i < vlen; i++)
			if ((err = fn(&ids[i], ctx)))
				return err;
		return 0;
	}
	case BTF_KIND_LOCSEC: {
		struct btf_loc *l = btf_type_body(t);
		struct btf_loc_merged *m = btf_type_body(t);

		for (i = 0; layout == BTF_LAYOUT_MERGED && i < vlen; i++) {
			if ((err = fn(&m[i].func, ctx)))
				return err;
			if ((err = fn(&m[i].loc_proto, ctx)))
				return err;
		}
		for (i = 0; layout == BTF_LAYOUT_SEED && i < vlen; i++) {
			if ((err = fn(&l[i].func_proto, ctx)))
				return err;
			if ((err = fn(&l[i].loc_proto, ctx)))
				return err;
		}
		return 0;
	}
	}
	return 0;
}

int btf_type_visit_str_offs(struct btf_type *t, enum btf_loc_layout layout,
			    int (*fn)(uint32_t *off, void *ctx), void *ctx)
{
	unsigned int i, vlen = btf_vlen(t);
	int err;

	if ((err = fn(&t->name_off, ctx)))
		return err;

	switch ((enum btf_kind)btf_kind(t)) {
	case BTF_KIND_STRUCT:
	case BTF_KIND_UNION: {
		struct btf_member *m = btf_type_body(t);

		for (i = 0; i < vlen; i++)
			if ((err = fn(&m[i].name_off, ctx)))
				return err;
		return 0;
	}
	case BTF_KIND_ENUM: {
		struct btf_enum *e = btf_type_body(t);

		for (i = 0; i < vlen; i++)
			if ((err = fn(&e[i].name_off, ctx)))
				return err;
		return 0;
	}
	case BTF_KIND_ENUM64: {
		struct btf_enum64 *e = btf_type_body(t);

		for (i = 0; i < vlen; i++)
			if ((err = fn(&e[i].name_off, ctx)))
				return err;
		return 0;
	}
	case BTF_KIND_FUNC_PROTO: {
		struct btf_param *p = btf_type_body(t);

		for (i = 0; i < vlen; i++)
			if ((err = fn(&p[i].name_off, ctx)))
				return err;
		return 0;
	}
	case BTF_KIND_LOCSEC: {
		struct btf_loc *l = btf_type_body(t);

		/* Merged-layout entries name their FUNC by id, not by string. */
		for (i = 0; layout == BTF_LAYOUT_SEED && i < vlen; i++)
			if ((err = fn(&l[i].name_off, ctx)))
				return err;
		return 0;
	}
	case BTF_KIND_UNKN:
	case BTF_KIND_INT:
	case BTF_KIND_PTR:
	case BTF_KIND_ARRAY:
	case BTF_KIND_FWD:
	case BTF_KIND_TYPEDEF:
	case BTF_KIND_VOLATILE:
	case BTF_KIND_CONST:
	case BTF_KIND_RESTRICT:
	case BTF_KIND_FUNC:
	case BTF_KIND_VAR:
	case BTF_KIND_DATASEC:
	case BTF_KIND_FLOAT:
	case BTF_KIND_DECL_TAG:
	case BTF_KIND_TYPE_TAG:
	case BTF_KIND_LOC_PARAM:
	case BTF_KIND_LOC_PROTO:
	case NR_BTF_KINDS:
		break;
	}
	return 0;
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
