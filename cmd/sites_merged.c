// SPDX-License-Identifier: GPL-2.0
/*
 * sites_merged.c - decode merged-layout LOCSEC entries (bpf-next) into the
 * same struct site the seed-layout decoder (sites.c) fills, so `inlines`
 * and `stats` read both: the entry's FUNC gives the name and prototype,
 * LOC_PROTO entry i is parameter i.
 *
 * "reg + offset" and "frame base" slots, which only this layout
 * expresses, decode as SP_REG_OFF and SP_FBREG; site_merged_only_params()
 * counts them.  CONST|ADDR is relative to the section's base, as a seed
 * constant the consumer relocates: it decodes as a relocated SP_CONST.
 */
#include "sites.h"
#include "sites_merged.h"

#include <string.h>

static bool merged_only(const struct btf_loc_param_merged *p)
{
	if (p->flags & BTF_LOC_PARAM_CONST)
		return false;
	return p->values[0] == BTF_LOC_PARAM_FBREG ||
	       ((p->flags & BTF_LOC_PARAM_OFFSET) && !(p->flags & BTF_LOC_PARAM_DEREF));
}

static void decode_param(const struct btf *btf, uint32_t id, struct site_param *out)
{
	const struct btf_type *t = id ? btf__type_by_id(btf, id) : NULL;
	const struct btf_loc_param_merged *p;
	unsigned int vlen;

	out->kind = SP_NONE;
	if (!t || btf_kind(t) != BTF_KIND_LOC_PARAM || !btf_vlen(t))
		return;
	p = btf_type_body(t);
	vlen = btf_vlen(t);
	out->size = (p->flags & BTF_LOC_PARAM_SIGNED) ? -(int32_t)t->size : (int32_t)t->size;
	if (p->flags & BTF_LOC_PARAM_CONST) {
		out->kind = SP_CONST;
		out->value = p->values[0] | (vlen > 1 ? (uint64_t)p->values[1] << 32 : 0);
		/* One word of a signed value stands for its sign extension. */
		if (vlen == 1 && (p->flags & BTF_LOC_PARAM_SIGNED))
			out->value = (uint64_t)(int64_t)(int32_t)p->values[0];
		out->relocated = p->flags & BTF_LOC_PARAM_ADDR;
		return;
	}
	if (p->values[0] == BTF_LOC_PARAM_FBREG) {
		out->kind = SP_FBREG;
		out->offset = vlen > 1 ? (int32_t)p->values[1] : 0;
		return;
	}
	out->reg = p->values[0];
	if (merged_only(p)) {
		out->kind = SP_REG_OFF;
		out->offset = vlen > 1 ? (int32_t)p->values[1] : 0;
		return;
	}
	if (p->flags & BTF_LOC_PARAM_DEREF) {
		out->kind = SP_DEREF;
		out->offset = vlen > 1 ? (int32_t)p->values[1] : 0;
	} else if (vlen > 1) {
		out->kind = SP_REG_PAIR;
		out->reg2 = p->values[1];
	} else {
		out->kind = SP_REG;
	}
}

void site_decode_merged(const struct btf *btf, const struct btf_loc_merged *loc, struct site *out)
{
	const struct btf_type *fn = btf__type_by_id(btf, loc->func);
	const struct btf_type *fp = fn ? btf__type_by_id(btf, fn->type) : NULL;
	const struct btf_type *lp = btf__type_by_id(btf, loc->loc_proto);
	const struct btf_param *params;
	const uint32_t *ids;
	uint32_t i;

	memset(out, 0, sizeof(*out));
	out->name = btf__name_by_id(btf, loc->func);
	out->offset = loc->offset;
	out->func_proto = fn ? fn->type : 0;
	out->loc_proto = loc->loc_proto;
	if (!fn || btf_kind(fn) != BTF_KIND_FUNC || !fp || btf_kind(fp) != BTF_KIND_FUNC_PROTO ||
	    (loc->loc_proto && (!lp || btf_kind(lp) != BTF_KIND_LOC_PROTO))) {
		out->malformed = true;
		return;
	}
	params = btf_type_body(fp);
	ids = lp ? btf_type_body(lp) : NULL;
	out->nr_params = btf_vlen(fp);
	if (out->nr_params > 64) {
		out->nr_params = 64;
		out->truncated = true;
	}
	for (i = 0; i < out->nr_params; i++) {
		out->params[i].name = btf__str_by_offset(btf, params[i].name_off);
		decode_param(btf, ids && i < btf_vlen(lp) ? ids[i] : 0, &out->params[i]);
	}
}

uint32_t site_merged_only_params(const struct btf *btf, const struct btf_loc_merged *loc)
{
	const struct btf_type *lp = btf__type_by_id(btf, loc->loc_proto);
	const uint32_t *ids;
	uint32_t i, n = 0;

	if (!loc->loc_proto || !lp || btf_kind(lp) != BTF_KIND_LOC_PROTO)
		return 0;
	ids = btf_type_body(lp);
	for (i = 0; i < btf_vlen(lp); i++) {
		const struct btf_type *t = ids[i] ? btf__type_by_id(btf, ids[i]) : NULL;

		if (t && btf_kind(t) == BTF_KIND_LOC_PARAM && btf_vlen(t) &&
		    merged_only(btf_type_body(t)))
			n++;
	}
	return n;
}

int sites_merged_for_each(const struct btf *btf, const struct btf_type *locsec,
			  int (*fn)(const struct site *s, void *ctx), void *ctx)
{
	const struct btf_loc_merged *loc = btf_type_body(locsec);
	struct site site;
	unsigned int k;
	int err;

	for (k = 0; k < btf_vlen(locsec); k++) {
		site_decode_merged(btf, &loc[k], &site);
		err = fn(&site, ctx);
		if (err)
			return err;
	}
	return 0;
}
