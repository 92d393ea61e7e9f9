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

/*
 * By name, index breaking ties.  The symbols are sorted by name (the key
 * before any '.', as the functions' names are), so the first symbol of a
 * name orders the names and tells them apart: no string is read.
 */
static int cmp_cand(const void *a, const void *b)
{
	const struct enc_func_cand *x = a, *y = b;

	if (x->syms != y->syms)
		return x->syms < y->syms ? -1 : 1;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
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

static bool ambiguous_symbol(const struct enc_func_cand *c)
{
	uint32_t i;

	for (i = 1; i < c->nr_syms; i++)
		if (c->syms[i].addr != c->syms[0].addr)
			return true;
	return false;
}

/* Whether @addr is the address of a '.'-suffixed symbol of the name (foo.isra.0). */
static bool clone_at(const struct enc_func_cand *c, uint64_t addr)
{
	uint32_t i;

	for (i = 0; i < c->nr_syms; i++)
		if (c->syms[i].addr == addr && c->syms[i].name[c->syms[i].key_len] == '.')
			return true;
	return false;
}

/* Why pahole would leave out the function of a run, or NULL. */
static const char *skip_reason(const struct enc_state *s, const struct enc_func_cand *run,
			       uint32_t n)
{
	uint32_t features = s->o->features, i, bad = 0;
	const struct enc_func *first = &s->funcs[run[0].idx];
	bool inconsistent = false, changed_cc = false;

	for (i = 0; i < n; i++) {
		const struct enc_func *f = &s->funcs[run[i].idx];

		bad |= f->flags;
		/*
		 * pahole knows a function's address only from DW_AT_low_pc:
		 * one split by gcc into hot and .cold parts (DW_AT_ranges)
		 * is not found at its clone's symbol.
		 */
		if (f->flags & DW_FUNC_OPTIMIZED_PARAM &&
		    (f->flags & DW_FUNC_NOCALL ||
		     (!(f->flags & DW_FUNC_RANGES_ADDR) && clone_at(run, f->addr))))
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
	if (ambiguous_symbol(run))
		return "ambiguous address";
	return NULL;
}

/* Decides a run of instances of one name; returns the index to emit or -1. */
static long choose(const struct enc_state *s, const struct enc_func_cand *run, uint32_t n)
{
	const char *why = skip_reason(s, run, n);
	uint32_t i, j;

	if (!why) {
		/* The instance at a symbol's address describes that code. */
		for (i = 0; i < n; i++)
			for (j = 0; j < run->nr_syms; j++)
				if (s->funcs[run[i].idx].flags & DW_FUNC_HAS_CODE &&
				    s->funcs[run[i].idx].addr == run->syms[j].addr)
					return run[i].idx;
		return run[0].idx;
	}
	btf_log_printf(s->o->verbose ? s->log : NULL,
		       "%s : skipping BTF encoding of function due to %s", func_name(s, run[0].idx),
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

/* Whether function @idx is a candidate; its symbols in *@c if so. */
static bool candidate(const struct enc_state *s, uint32_t idx, struct enc_func_cand *c)
{
	const struct enc_func *f = &s->funcs[idx];

	if (!f->name_off || (f->flags & DW_FUNC_UNNAMED_PARAM))
		return false;
	c->idx = idx;
	c->syms = enc_elf_find_funcs(&s->elf, func_name(s, idx), &c->nr_syms);
	return c->syms != NULL;
}

/* The candidates, sorted by name (index breaking ties). */
static void *order_funcs(void *arg)
{
	struct enc_func_order *fo = arg;
	const struct enc_state *s = fo->s;
	uint32_t i;

	fo->cands = malloc((s->nr_funcs ? s->nr_funcs : 1) * sizeof(*fo->cands));
	if (!fo->cands) {
		fo->err = -ENOMEM;
		return NULL;
	}
	for (i = 0; i < s->nr_funcs; i++)
		if (candidate(s, i, &fo->cands[fo->n]))
			fo->n++;
	qsort(fo->cands, fo->n, sizeof(*fo->cands), cmp_cand);
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
	free(fo->cands);
	*fo = (struct enc_func_order){ 0 };
}

/*
 * What the choice and the emission of candidate @i + ahead read, asked
 * for ahead: candidates go by name, their records (and names) lie in CU
 * order, so each was a cache miss (vmlinux: 42K, a third of the stage).
 */
static void prefetch_cand(const struct enc_state *s, const struct enc_func_order *fo, uint32_t i)
{
	const struct enc_func *f;

	if (i + 16 < fo->n)
		__builtin_prefetch(&s->funcs[fo->cands[i + 16].idx]);
	if (i + 8 < fo->n) {
		f = &s->funcs[fo->cands[i + 8].idx];
		__builtin_prefetch(btf__str_by_offset(s->names, f->name_off));
		if (s->params)
			__builtin_prefetch(&s->params[f->first_param]);
	}
}

int enc_add_funcs(struct enc_state *s, struct enc_func_order *fo)
{
	struct enc_kfuncs *kfuncs = NULL;
	const struct enc_func_cand *order;
	uint32_t n, i, j;
	int err = 0;

	if ((s->o->features & ENC_F_DECL_TAG_KFUNCS) && (err = enc_kfuncs_load(s, &kfuncs)))
		return err;
	err = order_wait(fo);
	if (err) {
		enc_kfuncs_free(kfuncs);
		return err;
	}
	order = fo->cands;
	n = fo->n;
	for (i = 0; i < n && !err; i = j) {
		long pick;

		/* One name, one first symbol. */
		prefetch_cand(s, fo, i);
		for (j = i + 1; j < n && order[j].syms == order[i].syms; j++)
			prefetch_cand(s, fo, j);
		pick = choose(s, order + i, j - i);
		if (pick >= 0)
			err = emit(s, &s->funcs[pick], kfuncs);
	}
	enc_kfuncs_free(kfuncs);
	return err;
}
