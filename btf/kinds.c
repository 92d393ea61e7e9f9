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

long btf_type_size(const struct btf_type *t)
{
	const long base = sizeof(struct btf_type);
	unsigned int vlen = btf_vlen(t);

	switch ((enum btf_kind)btf_kind(t)) {
	case BTF_KIND_FWD:
	case BTF_KIND_CONST:
	case BTF_KIND_VOLATILE:
	case BTF_KIND_RESTRICT:
	case BTF_KIND_PTR:
	case BTF_KIND_TYPEDEF:
	case BTF_KIND_FUNC:
	case BTF_KIND_FLOAT:
	case BTF_KIND_TYPE_TAG:
		return base;
	case BTF_KIND_INT:
		return base + sizeof(uint32_t);
	case BTF_KIND_ENUM:
		return base + vlen * sizeof(struct btf_enum);
	case BTF_KIND_ENUM64:
		return base + vlen * sizeof(struct btf_enum64);
	case BTF_KIND_ARRAY:
		return base + sizeof(struct btf_array);
	case BTF_KIND_STRUCT:
	case BTF_KIND_UNION:
		return base + vlen * sizeof(struct btf_member);
	case BTF_KIND_FUNC_PROTO:
		return base + vlen * sizeof(struct btf_param);
	case BTF_KIND_VAR:
		return base + sizeof(struct btf_var);
	case BTF_KIND_DATASEC:
		return base + vlen * sizeof(struct btf_var_secinfo);
	case BTF_KIND_DECL_TAG:
		return base + sizeof(struct btf_decl_tag);
	case BTF_KIND_LOC_PARAM:
		return base + sizeof(struct btf_loc_param);
	case BTF_KIND_LOC_PROTO:
		return base + vlen * sizeof(uint32_t);
	case BTF_KIND_LOCSEC:
		return base + vlen * sizeof(struct btf_loc);
	case BTF_KIND_UNKN:
	case NR_BTF_KINDS:
		break;
	}
	return -EINVAL;
}

int btf_type_visit_type_ids(struct btf_type *t, int (*fn)(uint32_t *id, void *ctx), void *ctx)
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

		for (i = 0; i < vlen; i++) {
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

int btf_type_visit_str_offs(struct btf_type *t, int (*fn)(uint32_t *off, void *ctx), void *ctx)
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

		for (i = 0; i < vlen; i++)
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
 * Every body is an array of u32 except LOC_PARAM's register form, whose
 * first word holds two u16 (reg, flags).
 */
void btf_bswap_type_body(struct btf_type *t)
{
	long size = btf_type_size(t);
	uint32_t *w = btf_type_body(t);
	size_t i, n;

	if (size < 0)
		return;
	n = (size - sizeof(*t)) / sizeof(uint32_t);
	if (btf_kind(t) == BTF_KIND_LOC_PARAM && !btf_kflag(t)) {
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
