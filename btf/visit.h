/* SPDX-License-Identifier: GPL-2.0 */
/*
 * visit.h - the type id and string offset fields of a record, by kind.
 *
 * Inline, so that each caller's callback is inlined into the loop: the
 * merge and the dedup run them over the ~11M fields of a vmlinux's
 * pre-dedup BTF, where an indirect call per field was a third of the
 * time of the dedup's id check and string phase.
 */
#ifndef BTFENC_BTF_VISIT_H
#define BTFENC_BTF_VISIT_H

/*
 * Calls @fn on each type id field of @t, a record in @layout; stops at a
 * non-zero return.
 */
static inline __attribute__((always_inline)) int
btf_type_visit_type_ids(struct btf_type *t, enum btf_loc_layout layout,
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

/* Calls @fn on each string offset field of @t. */
static inline __attribute__((always_inline)) int
btf_type_visit_str_offs(struct btf_type *t, enum btf_loc_layout layout,
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

#endif
