// SPDX-License-Identifier: GPL-2.0
/*
 * sites.c - decode LOCSEC entries as seed 010's consumer does: the
 * FUNC_PROTO gives the parameters, the LOC_PROTO one LOC_PARAM id per
 * parameter, two when the first has CONTINUE.
 */
#include "sites.h"
#include "sites_merged.h"

#include <elf.h>
#include <stdio.h>
#include <string.h>

/* The consumer's test: a pointer once modifiers and typedefs are peeled. */
static bool is_pointer(const struct btf *btf, uint32_t id)
{
	const struct btf_type *t;
	unsigned int hops, k;

	for (hops = 0; hops < 64 && (t = btf__type_by_id(btf, id)); hops++) {
		k = btf_kind(t);
		if (k == BTF_KIND_PTR)
			return true;
		if (k != BTF_KIND_TYPEDEF && k != BTF_KIND_CONST && k != BTF_KIND_VOLATILE &&
		    k != BTF_KIND_RESTRICT && k != BTF_KIND_TYPE_TAG)
			return false;
		id = t->type;
	}
	return false;
}

static void decode_param(const struct btf *btf, const uint32_t *ids, uint32_t nr_ids, uint32_t *j,
			 uint32_t type, struct site_param *p)
{
	const struct btf_type *t = *j < nr_ids ? btf__type_by_id(btf, ids[*j]) : NULL;
	const struct btf_loc_param *lp;

	p->kind = SP_NONE;
	(*j)++;
	if (!t || btf_kind(t) != BTF_KIND_LOC_PARAM)
		return;
	lp = btf_type_body(t);
	p->size = (int32_t)t->size;
	if (btf_kflag(t)) {
		p->kind = SP_CONST;
		p->value = btf_loc_param_value(t);
		p->relocated = (p->size == 8 || p->size == -8) && is_pointer(btf, type);
		return;
	}
	p->reg = lp->reg;
	p->offset = lp->offset;
	p->kind = (lp->flags & BTF_LOC_FLAG_DEREF) ? SP_DEREF : SP_REG;
	if (lp->flags & BTF_LOC_FLAG_CONTINUE) {
		const struct btf_type *t2 = *j < nr_ids ? btf__type_by_id(btf, ids[*j]) : NULL;

		(*j)++;
		if (t2 && btf_kind(t2) == BTF_KIND_LOC_PARAM && !btf_kflag(t2)) {
			p->kind = SP_REG_PAIR;
			p->reg2 = ((const struct btf_loc_param *)btf_type_body(t2))->reg;
			p->size = 16;
		} else {
			p->kind = SP_NONE;
		}
	}
}

void site_decode(const struct btf *btf, const struct btf_loc *loc, struct site *out)
{
	const struct btf_type *fp = btf__type_by_id(btf, loc->func_proto);
	const struct btf_type *lp = btf__type_by_id(btf, loc->loc_proto);
	const struct btf_param *params;
	const uint32_t *ids;
	uint32_t i, j = 0, nr_ids;

	memset(out, 0, sizeof(*out));
	out->name = btf__str_by_offset(btf, loc->name_off);
	out->offset = loc->offset;
	out->func_proto = loc->func_proto;
	out->loc_proto = loc->loc_proto;
	if (!fp || btf_kind(fp) != BTF_KIND_FUNC_PROTO || !lp ||
	    btf_kind(lp) != BTF_KIND_LOC_PROTO) {
		out->malformed = true;
		return;
	}
	params = btf_type_body(fp);
	ids = btf_type_body(lp);
	nr_ids = btf_vlen(lp);
	out->nr_params = btf_vlen(fp);
	if (out->nr_params > 64) {
		out->nr_params = 64;
		out->truncated = true;
	}
	for (i = 0; i < out->nr_params; i++) {
		out->params[i].name = btf__str_by_offset(btf, params[i].name_off);
		decode_param(btf, ids, nr_ids, &j, params[i].type, &out->params[i]);
	}
	if (j != nr_ids && !out->truncated)
		out->malformed = true;
}

int sites_for_each(struct btf **chain, int n, int (*fn)(const struct site *s, void *ctx),
		   void *ctx)
{
	struct site site;
	int i, err;

	for (i = 0; i < n; i++) {
		const struct btf *btf = chain[i];
		uint32_t id;

		for (id = btf__start_id(btf); id < btf__type_cnt(btf); id++) {
			const struct btf_type *t = btf__type_by_id(btf, id);
			const struct btf_loc *loc = btf_type_body(t);
			unsigned int k;

			if (btf_kind(t) != BTF_KIND_LOCSEC)
				continue;
			if (btf__layout(btf) == BTF_LAYOUT_MERGED) {
				err = sites_merged_for_each(btf, t, fn, ctx);
				if (err)
					return err;
				continue;
			}
			for (k = 0; k < btf_vlen(t); k++) {
				site_decode(btf, &loc[k], &site);
				err = fn(&site, ctx);
				if (err)
					return err;
			}
		}
	}
	return 0;
}

const char *site_reg_name(int em, unsigned int reg, char *buf, size_t len)
{
	/* x86-64 DWARF numbering (System V psABI, figure 3.36). */
	static const char *const x86_64[] = {
		"rax", "rdx", "rcx", "rbx", "rsi", "rdi", "rbp", "rsp",
		"r8",  "r9",  "r10", "r11", "r12", "r13", "r14", "r15", "rip",
	};

	if ((em == 0 || em == EM_X86_64) && reg < sizeof(x86_64) / sizeof(x86_64[0]))
		snprintf(buf, len, "%%%s", x86_64[reg]);
	else if (em == EM_AARCH64 && reg <= 30)
		snprintf(buf, len, "%%x%u", reg);
	else if (em == EM_AARCH64 && reg == 31)
		snprintf(buf, len, "%%sp");
	else
		snprintf(buf, len, "%%reg%u", reg);
	return buf;
}
