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
 *  - FUNC_PROTO + FUNC are emitted sorted by name, linkage static; a
 *    kfunc's FUNC is followed by its DECL_TAGs (kfuncs.c).
 *
 * Runs after the first dedup, so equal prototypes have equal type ids;
 * which functions are candidates, sorted by name, depends on no type and
 * is worked out beside that dedup (enc_funcs_order_start()).
 */
#include "enc_internal.h"

#include <pthread.h>
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

static bool names_match(const struct btf *btf, const struct btf_type *a,
			const struct btf_type *b)
{
	const char *x = btf__str_by_offset(btf, a->name_off);
	const char *y = btf__str_by_offset(btf, b->name_off);

	return a->name_off == b->name_off || (x && y && !strcmp(x, y));
}

/* FWD compares as the struct or union it declares. */
static unsigned int fwd_kind(const struct btf_type *t)
{
	if (btf_kind(t) == BTF_KIND_FWD)
		return btf_kflag(t) ? BTF_KIND_UNION : BTF_KIND_STRUCT;
	return btf_kind(t);
}

/*
 * Whether two types describe "the same" parameter the way pahole's
 * types__match() decides it: a const on one side only is ignored,
 * named types match by name and kind, pointers/arrays by what they
 * point to; for a FUNC_PROTO only the parameter count and the return
 * type are compared.
 */
static bool types_match(const struct btf *btf, uint32_t x, uint32_t y)
{
	const struct btf_type *a, *b;
	uint32_t *ea, *eb;

	for (;;) {
		if (x == y)
			return true;
		if (!x || !y)
			return false;
		a = btf__type_by_id(btf, x);
		b = btf__type_by_id(btf, y);
		if (!a || !b)
			return false;
		if (fwd_kind(a) != fwd_kind(b)) {
			if (btf_kind(a) == BTF_KIND_CONST) {
				x = a->type;
				continue;
			}
			if (btf_kind(b) == BTF_KIND_CONST) {
				y = b->type;
				continue;
			}
			return false;
		}
		switch ((enum btf_kind)fwd_kind(a)) {
		case BTF_KIND_INT:
			ea = btf_type_body(a);
			eb = btf_type_body(b);
			return a->size == b->size && *ea == *eb && names_match(btf, a, b);
		case BTF_KIND_FLOAT:
			return a->size == b->size && names_match(btf, a, b);
		case BTF_KIND_TYPEDEF:
		case BTF_KIND_STRUCT:
		case BTF_KIND_UNION:
		case BTF_KIND_ENUM:
		case BTF_KIND_ENUM64:
			return names_match(btf, a, b);
		case BTF_KIND_PTR:
		case BTF_KIND_VOLATILE:
		case BTF_KIND_CONST:
		case BTF_KIND_RESTRICT:
		case BTF_KIND_TYPE_TAG:
			x = a->type;
			y = b->type;
			break;
		case BTF_KIND_ARRAY: {
			const struct btf_array *aa = btf_type_body(a), *ab = btf_type_body(b);

			if (aa->nelems != ab->nelems)
				return false;
			x = aa->type;
			y = ab->type;
			break;
		}
		case BTF_KIND_FUNC_PROTO:
			return btf_vlen(a) == btf_vlen(b) && types_match(btf, a->type, b->type);
		case BTF_KIND_UNKN:
		case BTF_KIND_FWD:
		case BTF_KIND_FUNC:
		case BTF_KIND_VAR:
		case BTF_KIND_DATASEC:
		case BTF_KIND_DECL_TAG:
		case BTF_KIND_LOC_PARAM:
		case BTF_KIND_LOC_PROTO:
		case BTF_KIND_LOCSEC:
		case NR_BTF_KINDS:
			return false;
		}
	}
}

/* pahole's funcs__match(): same count, matching return and parameters. */
static bool same_proto(const struct enc_state *s, const struct enc_func *a,
		       const struct enc_func *b)
{
	uint32_t i, na = a->nr_params + !!(a->flags & DW_FUNC_VARARGS);
	uint32_t nb = b->nr_params + !!(b->flags & DW_FUNC_VARARGS);

	if (na != nb || (a->flags & DW_FUNC_VARARGS) != (b->flags & DW_FUNC_VARARGS) ||
	    !types_match(s->all, a->ret_type, b->ret_type))
		return false;
	for (i = 0; i < a->nr_params && i < b->nr_params; i++)
		if (!types_match(s->all, s->params[a->first_param + i].type,
				 s->params[b->first_param + i].type))
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

/* Whether @addr is the address of a '.'-suffixed symbol of @name (foo.isra.0). */
static bool clone_at(const struct enc_state *s, const char *name, uint64_t addr)
{
	const struct enc_elf_sym *syms;
	uint32_t nr, i;

	syms = enc_elf_find_funcs(&s->elf, name, &nr);
	for (i = 0; i < nr; i++)
		if (syms[i].addr == addr && syms[i].name[syms[i].key_len] == '.')
			return true;
	return false;
}

/* Why pahole would leave out the function of a run, or NULL. */
static const char *skip_reason(const struct enc_state *s, const uint32_t *run, uint32_t n)
{
	uint32_t features = s->o->features, i, bad = 0;
	const struct enc_func *first = &s->funcs[run[0]];
	const char *name = func_name(s, run[0]);
	bool inconsistent = false, changed_cc = false;

	for (i = 0; i < n; i++) {
		const struct enc_func *f = &s->funcs[run[i]];

		bad |= f->flags;
		/*
		 * pahole knows a function's address only from DW_AT_low_pc:
		 * one split by gcc into hot and .cold parts (DW_AT_ranges)
		 * is not found at its clone's symbol.
		 */
		if (f->flags & DW_FUNC_OPTIMIZED_PARAM &&
		    (f->flags & DW_FUNC_NOCALL ||
		     (!(f->flags & DW_FUNC_RANGES_ADDR) && clone_at(s, name, f->addr))))
			changed_cc = true;
		/* Like pahole, stop comparing once something else is wrong. */
		if (!(bad & (DW_FUNC_UNEXPECTED_REG | DW_FUNC_REORDERED)) && !inconsistent &&
		    !same_proto(s, first, f))
			inconsistent = true;
	}
	if (!(features & ENC_F_OPTIMIZED_FUNC) && (bad & DW_FUNC_OPTIMIZED_PARAM))
		return "optimized-out parameters";
	if (bad & DW_FUNC_UNEXPECTED_REG)
		return "unexpected register used for parameter";
	if ((features & ENC_F_CONSISTENT_FUNC) && inconsistent)
		return "inconsistent prototype";
	if (bad & DW_FUNC_UNCERTAIN_LOC)
		return "uncertain parameter location";
	if (bad & DW_FUNC_REORDERED)
		return "reordered parameters";
	if (changed_cc)
		return "optimized-out parameters with a changed calling convention";
	if (ambiguous_symbol(s, name))
		return "ambiguous address";
	return NULL;
}

/* Decides a run of instances of one name; returns the index to emit or -1. */
static long choose(const struct enc_state *s, const uint32_t *run, uint32_t n)
{
	const char *why = skip_reason(s, run, n);
	const struct enc_elf_sym *syms;
	uint32_t nr, i, j;

	if (!why) {
		/* The instance at a symbol's address describes that code. */
		syms = enc_elf_find_funcs(&s->elf, func_name(s, run[0]), &nr);
		for (i = 0; i < n; i++)
			for (j = 0; j < nr; j++)
				if (s->funcs[run[i]].flags & DW_FUNC_HAS_CODE &&
				    s->funcs[run[i]].addr == syms[j].addr)
					return run[i];
		return run[0];
	}
	btf_log_printf(s->o->verbose ? s->log : NULL,
		       "%s : skipping BTF encoding of function due to %s", func_name(s, run[0]),
		       why);
	return -1;
}

static int emit(struct enc_state *s, const struct enc_func *f, const struct enc_kfuncs *k)
{
	const char *name = btf__str_by_offset(s->names, f->name_off);
	uint32_t i, kflags = 0, types[3] = { f->ret_type, 0, 0 };
	uint32_t nr_slots = f->nr_params + !!(f->flags & DW_FUNC_VARARGS);
	bool kfunc = enc_kfunc_find(k, name, &kflags);
	int proto, err, id;

	for (i = 0; i < 2 && i < f->nr_params; i++)
		types[i + 1] = s->params[f->first_param + i].type;
	if (kfunc && (err = enc_kfunc_arena_types(s, name, kflags, nr_slots, types)))
		return err;
	proto = btf__add_func_proto(s->all, types[0]);
	if (proto < 0)
		return proto;
	for (i = 0; i < f->nr_params; i++) {
		const struct dw_param *p = &s->params[f->first_param + i];

		err = btf__add_func_param(s->all, btf__str_by_offset(s->names, p->name_off),
					  i < 2 ? types[i + 1] : p->type);
		if (err)
			return err;
	}
	if (f->flags & DW_FUNC_VARARGS) {
		err = btf__add_func_param(s->all, NULL, 0);
		if (err)
			return err;
	}
	id = btf__add_func(s->all, name, BTF_FUNC_STATIC, proto);
	if (id < 0)
		return id;
	/* pahole tags a kfunc right after its FUNC. */
	return kfunc ? enc_kfunc_tag(s, kflags, id) : 0;
}

static bool candidate(const struct enc_state *s, uint32_t idx)
{
	const struct enc_func *f = &s->funcs[idx];
	uint32_t nr;

	if (!f->name_off || (f->flags & DW_FUNC_UNNAMED_PARAM))
		return false;
	return enc_elf_find_funcs(&s->elf, func_name(s, idx), &nr) != NULL;
}

/* The candidates, sorted by name (index breaking ties). */
static void *order_funcs(void *arg)
{
	struct enc_func_order *fo = arg;
	const struct enc_state *s = fo->s;
	uint32_t i;

	fo->idx = malloc((s->nr_funcs ? s->nr_funcs : 1) * sizeof(*fo->idx));
	if (!fo->idx) {
		fo->err = -ENOMEM;
		return NULL;
	}
	for (i = 0; i < s->nr_funcs; i++)
		if (candidate(s, i))
			fo->idx[fo->n++] = i;
	qsort_r(fo->idx, fo->n, sizeof(*fo->idx), cmp_func_idx, (void *)s);
	return NULL;
}

void enc_funcs_order_start(struct enc_state *s, struct enc_func_order *fo)
{
	*fo = (struct enc_func_order){ .s = s };
	/* It only reads names, flags and symbols, which the dedup leaves alone. */
	fo->threaded = !pthread_create(&fo->th, NULL, order_funcs, fo);
	if (!fo->threaded)
		order_funcs(fo);
}

/* Waits for the order; its error, if it failed. */
static int order_wait(struct enc_func_order *fo)
{
	if (fo->threaded) {
		pthread_join(fo->th, NULL);
		fo->threaded = false;
	}
	return fo->err;
}

void enc_funcs_order_free(struct enc_func_order *fo)
{
	order_wait(fo);
	free(fo->idx);
	*fo = (struct enc_func_order){ 0 };
}

int enc_add_funcs(struct enc_state *s, struct enc_func_order *fo)
{
	struct enc_kfuncs *kfuncs = NULL;
	uint32_t *order, n, i, j;
	int err = 0;

	if ((s->o->features & ENC_F_DECL_TAG_KFUNCS) && (err = enc_kfuncs_load(s, &kfuncs)))
		return err;
	err = order_wait(fo);
	if (err) {
		enc_kfuncs_free(kfuncs);
		return err;
	}
	order = fo->idx;
	n = fo->n;
	for (i = 0; i < n && !err; i = j) {
		long pick;

		for (j = i + 1; j < n; j++)
			if (strcmp(func_name(s, order[i]), func_name(s, order[j])))
				break;
		pick = choose(s, order + i, j - i);
		if (pick >= 0)
			err = emit(s, &s->funcs[pick], kfuncs);
	}
	enc_kfuncs_free(kfuncs);
	return err;
}
