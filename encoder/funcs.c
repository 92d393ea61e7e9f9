// SPDX-License-Identifier: GPL-2.0
/*
 * funcs.c - which DWARF functions become BTF FUNCs, after pahole:
 *
 *  - only functions with code, a name, and every parameter named;
 *  - only names found among the ELF STT_FUNC symbols (by the name before
 *    the first '.', so foo.isra.0 counts as foo);
 *  - all instances of a name are compared; with consistent_func a name
 *    whose instances disagree on the prototype, use registers the ABI
 *    does not expect, changed calling convention, or that maps to several
 *    symbol addresses is left out;
 *  - without optimized_func, functions with optimized-out parameters are
 *    left out;
 *  - FUNC_PROTO + FUNC are emitted sorted by name, linkage static.
 *
 * Runs after the first dedup, so equal prototypes have equal type ids.
 */
#include "enc_internal.h"

#include <stdlib.h>
#include <string.h>

static const char *func_name(const struct enc_state *s, uint32_t idx)
{
	const char *n = btf__str_by_offset(s->names, s->funcs[idx].name_off);

	return n ? n : "";
}

static int cmp_func_idx(const void *a, const void *b, void *ctx)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	int c = strcmp(func_name(ctx, x), func_name(ctx, y));

	if (c)
		return c;
	return x < y ? -1 : x > y;
}

static bool same_proto(const struct enc_state *s, const struct enc_func *a,
		       const struct enc_func *b)
{
	uint32_t i;

	if (a->ret_type != b->ret_type || a->nr_params != b->nr_params ||
	    (a->flags & DW_FUNC_VARARGS) != (b->flags & DW_FUNC_VARARGS))
		return false;
	for (i = 0; i < a->nr_params; i++)
		if (s->params[a->first_param + i].type != s->params[b->first_param + i].type)
			return false;
	return true;
}

static bool ambiguous_symbol(const struct enc_state *s, const char *name)
{
	const struct enc_elf_sym *syms;
	uint32_t nr, i;

	syms = enc_elf_find_funcs(&s->elf, name, &nr);
	for (i = 1; i < nr; i++)
		if (syms[i].addr != syms[0].addr)
			return true;
	return false;
}

/* Decides a run of instances of one name; returns the index to emit or -1. */
static long choose(const struct enc_state *s, const uint32_t *run, uint32_t n)
{
	uint32_t features = s->o->features, i, bad = 0;
	const struct enc_func *first = &s->funcs[run[0]];
	const char *name = func_name(s, run[0]);
	bool consistent = true;

	for (i = 0; i < n; i++) {
		const struct enc_func *f = &s->funcs[run[i]];

		if (!same_proto(s, first, f))
			consistent = false;
		bad |= f->flags;
	}
	if (!(features & ENC_F_OPTIMIZED_FUNC) && (bad & DW_FUNC_OPTIMIZED_PARAM)) {
		btf_log_printf(s->o->verbose ? s->log : NULL,
			       "%s : skipping BTF encoding of function due to optimized-out parameters",
			       name);
		return -1;
	}
	if (features & ENC_F_CONSISTENT_FUNC) {
		const char *why = NULL;

		if (!consistent)
			why = "inconsistent prototype";
		else if (bad & DW_FUNC_UNEXPECTED_REG)
			why = "unexpected register used for parameter";
		else if (bad & DW_FUNC_UNCERTAIN_LOC)
			why = "uncertain parameter location";
		else if (bad & DW_FUNC_NOCALL)
			why = "changed calling convention";
		else if (ambiguous_symbol(s, name))
			why = "ambiguous address";
		if (why) {
			btf_log_printf(s->o->verbose ? s->log : NULL,
				       "%s : skipping BTF encoding of function due to %s", name, why);
			return -1;
		}
	}
	return run[0];
}

static int emit(struct enc_state *s, const struct enc_func *f)
{
	int proto, err;
	uint32_t i;

	proto = btf__add_func_proto(s->all, f->ret_type);
	if (proto < 0)
		return proto;
	for (i = 0; i < f->nr_params; i++) {
		const struct dw_param *p = &s->params[f->first_param + i];

		err = btf__add_func_param(s->all, btf__str_by_offset(s->names, p->name_off),
					  p->type);
		if (err)
			return err;
	}
	if (f->flags & DW_FUNC_VARARGS) {
		err = btf__add_func_param(s->all, NULL, 0);
		if (err)
			return err;
	}
	err = btf__add_func(s->all, btf__str_by_offset(s->names, f->name_off), BTF_FUNC_STATIC,
			    proto);
	return err < 0 ? err : 0;
}

static bool candidate(const struct enc_state *s, uint32_t idx)
{
	const struct enc_func *f = &s->funcs[idx];
	uint32_t nr;

	if (!f->name_off || (f->flags & DW_FUNC_UNNAMED_PARAM))
		return false;
	return enc_elf_find_funcs(&s->elf, func_name(s, idx), &nr) != NULL;
}

int enc_add_funcs(struct enc_state *s)
{
	uint32_t *order, n = 0, i, j;
	int err = 0;

	order = malloc((s->nr_funcs ? s->nr_funcs : 1) * sizeof(*order));
	if (!order)
		return -ENOMEM;
	for (i = 0; i < s->nr_funcs; i++)
		if (candidate(s, i))
			order[n++] = i;
	qsort_r(order, n, sizeof(*order), cmp_func_idx, s);
	for (i = 0; i < n && !err; i = j) {
		long pick;

		for (j = i + 1; j < n; j++)
			if (strcmp(func_name(s, order[i]), func_name(s, order[j])))
				break;
		pick = choose(s, order + i, j - i);
		if (pick >= 0)
			err = emit(s, &s->funcs[pick]);
	}
	free(order);
	return err;
}
