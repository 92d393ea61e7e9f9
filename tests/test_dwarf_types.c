// SPDX-License-Identifier: GPL-2.0
/*
 * test_dwarf_types - decodes every CU of an object with dwarf/ and checks
 * the BTF types against what the source says (--fixture, for
 * tests/fixtures/types/types.c) and against pahole's BTF of the same
 * object (--ref FILE [--base FILE]): the sets of named struct, union,
 * enum and typedef definitions, each described by name, size, members
 * (name, bit offset, bitfield size) and member types spelled out by kind
 * and name, must be equal.  Exit 0 pass, 1 fail, 77 skip.
 */
#include "../dwarf/dw.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures;
static bool verbose;
/* gcc says "long int", clang "long": the fixture checks leave names out. */
static bool int_names = true;

static void fail(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fprintf(stderr, "FAIL: ");
	vfprintf(stderr, fmt, ap);
	fprintf(stderr, "\n");
	va_end(ap);
	failures++;
}

static void log_line(void *ctx, const char *msg)
{
	fprintf(stderr, "dwarf: %s\n", msg);
}

/* ---- canonical descriptions ---- */

struct sbuf {
	char *s;
	size_t len, cap;
};

static void sb_add(struct sbuf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	for (;;) {
		va_start(ap, fmt);
		n = vsnprintf(b->s ? b->s + b->len : NULL, b->s ? b->cap - b->len : 0, fmt, ap);
		va_end(ap);
		if (b->s && b->len + n < b->cap)
			break;
		b->cap = (b->cap + n + 1) * 2;
		b->s = realloc(b->s, b->cap);
		if (!b->s)
			abort();
	}
	b->len += n;
}

static void describe(struct sbuf *b, const struct btf *btf, uint32_t id, int depth);

static void describe_members(struct sbuf *b, const struct btf *btf, const struct btf_type *t,
			     int depth)
{
	const struct btf_member *m = btf_type_body(t);
	unsigned int i;

	sb_add(b, "{");
	for (i = 0; i < btf_vlen(t); i++) {
		uint32_t off = btf_kflag(t) ? BTF_MEMBER_BIT_OFFSET(m[i].offset) : m[i].offset;
		uint32_t bits = btf_kflag(t) ? BTF_MEMBER_BITFIELD_SIZE(m[i].offset) : 0;

		sb_add(b, "%s@%u:%u ", btf__str_by_offset(btf, m[i].name_off), off, bits);
		describe(b, btf, m[i].type, depth + 1);
		sb_add(b, ";");
	}
	sb_add(b, "}");
}

static void describe_enum(struct sbuf *b, const struct btf *btf, const struct btf_type *t)
{
	unsigned int i;

	sb_add(b, "%s%s size=%u {", btf_kind(t) == BTF_KIND_ENUM64 ? "enum64" : "enum",
	       btf_kflag(t) ? "(s)" : "", t->size);
	for (i = 0; i < btf_vlen(t); i++) {
		if (btf_kind(t) == BTF_KIND_ENUM) {
			const struct btf_enum *e = (const struct btf_enum *)btf_type_body(t) + i;

			sb_add(b, "%s=%d,", btf__str_by_offset(btf, e->name_off), e->val);
		} else {
			const struct btf_enum64 *e = (const struct btf_enum64 *)btf_type_body(t) + i;

			sb_add(b, "%s=%llu,", btf__str_by_offset(btf, e->name_off),
			       (unsigned long long)btf_enum64_value(e));
		}
	}
	sb_add(b, "}");
}

/*
 * Named types inside a description are only named ("su:foo"), so the
 * description of a definition does not depend on which CU completed a
 * forward declaration.
 */
static void describe(struct sbuf *b, const struct btf *btf, uint32_t id, int depth)
{
	const struct btf_type *t = btf__type_by_id(btf, id);
	const char *name;

	if (!id || !t) {
		sb_add(b, id ? "?" : "void");
		return;
	}
	if (depth > 8) {
		sb_add(b, "...");
		return;
	}
	name = btf__str_by_offset(btf, t->name_off);
	switch (btf_kind(t)) {
	case BTF_KIND_INT: {
		uint32_t v = *(const uint32_t *)btf_type_body(t);

		if (int_names)
			sb_add(b, "int:%s:", name);
		else
			sb_add(b, "int:");
		sb_add(b, "%u:%u:%u", t->size, BTF_INT_ENCODING(v), BTF_INT_BITS(v));
		return;
	}
	case BTF_KIND_FLOAT:
		sb_add(b, "float:%s:%u", name, t->size);
		return;
	case BTF_KIND_PTR:
		sb_add(b, "*");
		break;
	case BTF_KIND_CONST:
		sb_add(b, "const ");
		break;
	case BTF_KIND_VOLATILE:
		sb_add(b, "volatile ");
		break;
	case BTF_KIND_RESTRICT:
		sb_add(b, "restrict ");
		break;
	case BTF_KIND_TYPE_TAG:
		sb_add(b, "tag(%s) ", name);
		break;
	case BTF_KIND_TYPEDEF:
		sb_add(b, "typedef:%s", name);
		return;
	case BTF_KIND_ARRAY: {
		const struct btf_array *a = btf_type_body(t);

		sb_add(b, "[%u]", a->nelems);
		describe(b, btf, a->type, depth + 1);
		return;
	}
	case BTF_KIND_STRUCT:
	case BTF_KIND_UNION:
	case BTF_KIND_FWD:
		if (name[0]) {
			sb_add(b, "su:%s", name);
			return;
		}
		sb_add(b, "%s size=%u ", btf_kind(t) == BTF_KIND_UNION ? "union" : "struct",
		       t->size);
		describe_members(b, btf, t, depth);
		return;
	case BTF_KIND_ENUM:
	case BTF_KIND_ENUM64:
		if (name[0])
			sb_add(b, "enum:%s", name);
		else
			describe_enum(b, btf, t);
		return;
	case BTF_KIND_FUNC_PROTO: {
		const struct btf_param *p = btf_type_body(t);
		unsigned int i;

		sb_add(b, "fn(");
		for (i = 0; i < btf_vlen(t); i++) {
			describe(b, btf, p[i].type, depth + 1);
			sb_add(b, ",");
		}
		sb_add(b, ")->");
		describe(b, btf, t->type, depth + 1);
		return;
	}
	default:
		sb_add(b, "kind%u", btf_kind(t));
		return;
	}
	describe(b, btf, t->type, depth + 1);
}

/* Description of a top-level definition, or NULL if @id is none. */
static char *describe_def(const struct btf *btf, uint32_t id)
{
	const struct btf_type *t = btf__type_by_id(btf, id);
	const char *name = btf__str_by_offset(btf, t->name_off);
	struct sbuf b = { 0 };

	if (!name[0])
		return NULL;
	switch (btf_kind(t)) {
	case BTF_KIND_STRUCT:
	case BTF_KIND_UNION:
		sb_add(&b, "%s %s size=%u ", btf_kind(t) == BTF_KIND_UNION ? "union" : "struct",
		       name, t->size);
		describe_members(&b, btf, t, 0);
		return b.s;
	case BTF_KIND_ENUM:
	case BTF_KIND_ENUM64:
		if (!btf_vlen(t))
			return NULL;
		sb_add(&b, "%s ", name);
		describe_enum(&b, btf, t);
		return b.s;
	case BTF_KIND_TYPEDEF:
		sb_add(&b, "typedef %s = ", name);
		describe(&b, btf, t->type, 1);
		return b.s;
	default:
		return NULL;
	}
}

struct strlist {
	char **v;
	size_t n, cap;
};

static void sl_add(struct strlist *l, char *s)
{
	if (!s)
		return;
	if (l->n == l->cap) {
		l->cap = l->cap ? l->cap * 2 : 256;
		l->v = realloc(l->v, l->cap * sizeof(*l->v));
		if (!l->v)
			abort();
	}
	l->v[l->n++] = s;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void sl_uniq(struct strlist *l)
{
	size_t i, j = 0;

	if (!l->n)
		return; /* qsort must not see a NULL array */
	qsort(l->v, l->n, sizeof(*l->v), cmp_str);
	for (i = 0; i < l->n; i++) {
		if (j && !strcmp(l->v[j - 1], l->v[i]))
			free(l->v[i]);
		else
			l->v[j++] = l->v[i];
	}
	l->n = j;
}

static void collect_defs(const struct btf *btf, struct strlist *out)
{
	uint32_t id;

	for (id = btf__start_id(btf); id < btf__type_cnt(btf); id++)
		sl_add(out, describe_def(btf, id));
}

static bool sl_has(const struct strlist *l, const char *s)
{
	return bsearch(&s, l->v, l->n, sizeof(*l->v), cmp_str) != NULL;
}

/*
 * Reports up to 10 differences each way.  @subset: the reference is a
 * module's split BTF with its base; the module's CUs describe only part
 * of the kernel, so every one of our definitions must be in it.
 */
static void compare_sets(const struct strlist *ours, const struct strlist *ref, bool subset)
{
	size_t i, shown = 0;

	for (i = 0; i < ref->n && !subset; i++)
		if (!sl_has(ours, ref->v[i]) && shown++ < 10)
			fail("pahole has, we lack: %s", ref->v[i]);
	for (i = 0, shown = 0; i < ours->n; i++)
		if (!sl_has(ref, ours->v[i]) && shown++ < 10)
			fail("we have, pahole lacks: %s", ours->v[i]);
	printf("named definitions: ours %zu, pahole %zu\n", ours->n, ref->n);
}

/* ---- fixture expectations (tests/fixtures/types/types.c) ---- */

static const char *const fixture_defs[] = {
	"struct fx_list size=16 {next@0:0 *su:fx_list;val@64:0 int:4:1:32;}",
	"struct fx_bits size=24 {a@0:3 int:4:0:32;b@3:5 int:4:0:32;"
	"c@32:0 int:4:1:32;d@64:40 int:8:0:64;"
	"e@104:0 int:1:1:8;whole@128:31 int:4:1:32;}",
	"fx_signed enum(s) size=4 {FX_NEG=-2,FX_POS=7,}",
	"fx_unsigned enum size=4 {FX_U0=0,FX_U1=5,}",
	"fx_big enum64 size=8 {FX_BIG=4886718345,}",
	"typedef fx_matrix_t = [12]int:4:1:32",
	"struct fx_flex size=64 {n@0:0 int:4:1:32;@32:0 union size=4 {i@0:0 int:4:1:32;"
	"f@0:0 float:float:4;};m@64:0 typedef:fx_matrix_t;"
	"s@448:0 *const int:1:1:8;tail@512:0 [0]int:8:1:64;}",
	"typedef fx_cb_t = *fn(*su:fx_opaque,*const int:1:1:8,void,)->int:4:1:32",
	"union fx_u size=24 {l@0:0 int:8:1:64;d@0:0 float:double:8;b@0:0 su:fx_bits;}",
};

struct fx_func {
	const char *name;
	unsigned int nr_params;
	uint16_t set, clear;
};

static const struct fx_func fixture_funcs[] = {
	{ "fx_sum", 2, DW_FUNC_EXTERNAL | DW_FUNC_HAS_CODE, DW_FUNC_VARARGS | DW_FUNC_UNNAMED_PARAM },
	{ "fx_printf_like", 1, DW_FUNC_EXTERNAL | DW_FUNC_HAS_CODE | DW_FUNC_VARARGS,
	  DW_FUNC_UNNAMED_PARAM },
	{ "fx_use_inline", 1, DW_FUNC_EXTERNAL | DW_FUNC_HAS_CODE, DW_FUNC_VARARGS },
};

static void check_funcs(const struct dw_cu *cu)
{
	const struct btf *btf = cu->btf, *names = cu->names;
	unsigned int i, j, found;

	for (i = 0; i < sizeof(fixture_funcs) / sizeof(fixture_funcs[0]); i++) {
		const struct fx_func *want = &fixture_funcs[i];

		found = 0;
		for (j = 0; j < cu->nr_funcs; j++) {
			const struct dw_func *f = &cu->funcs[j];

			if (strcmp(btf__str_by_offset(names, f->name_off), want->name) ||
			    (f->flags & DW_FUNC_DECLARATION))
				continue;
			found++;
			if (f->nr_params != want->nr_params)
				fail("%s: %u params, want %u", want->name, f->nr_params,
				     want->nr_params);
			if ((f->flags & want->set) != want->set || (f->flags & want->clear))
				fail("%s: flags 0x%x", want->name, f->flags);
			if (!f->addr && !(f->flags & DW_FUNC_HAS_CODE))
				fail("%s: no address", want->name);
			if (!f->ret_type || strcmp(btf__name_by_id(btf, f->ret_type), "int"))
				fail("%s: return type not int", want->name);
		}
		if (found != 1)
			fail("%s: %u definitions", want->name, found);
	}
	for (j = 0; j < cu->nr_funcs; j++) {
		const struct dw_func *f = &cu->funcs[j];
		const struct dw_param *p = &cu->params[f->first_param];

		if (!strcmp(btf__str_by_offset(names, f->name_off), "fx_sum") && f->nr_params == 2 &&
		    (strcmp(btf__str_by_offset(names, p[0].name_off), "l") ||
		     strcmp(btf__str_by_offset(names, p[1].name_off), "limit") ||
		     btf_kind(btf__type_by_id(btf, p[0].type)) != BTF_KIND_PTR))
			fail("fx_sum: params not (struct fx_list *l, int limit)");
	}
}

struct fx_var {
	const char *name;
	uint64_t size;
	bool external;
};

static const struct fx_var fixture_vars[] = {
	{ "fx_head", 16, true },      { "fx_bits_var", 24, true }, { "fx_big_var", 8, true },
	{ "fx_union", 24, true },     { "fx_flag", 1, true },      { "fx_wide", 16, true },
	{ "fx_static_counter", 4, false },
};

static void check_vars(const struct dw_cu *cu)
{
	unsigned int i, j, found;

	for (i = 0; i < sizeof(fixture_vars) / sizeof(fixture_vars[0]); i++) {
		found = 0;
		for (j = 0; j < cu->nr_vars; j++) {
			const struct dw_var *v = &cu->vars[j];

			if (strcmp(btf__str_by_offset(cu->names, v->name_off), fixture_vars[i].name))
				continue;
			found++;
			if (v->size != fixture_vars[i].size || v->external != fixture_vars[i].external ||
			    !v->has_addr || v->declaration)
				fail("var %s: size %llu external %d has_addr %d", fixture_vars[i].name,
				     (unsigned long long)v->size, v->external, v->has_addr);
		}
		if (found != 1)
			fail("var %s: found %u times", fixture_vars[i].name, found);
	}
}

static void check_fixture(const struct dw_cu *cu, const struct strlist *defs)
{
	unsigned int i;

	for (i = 0; i < sizeof(fixture_defs) / sizeof(fixture_defs[0]); i++)
		if (!sl_has(defs, fixture_defs[i]))
			fail("fixture type missing or different: %s", fixture_defs[i]);
	check_funcs(cu);
	check_vars(cu);
}

/* ---- main ---- */

/*
 * @cu, CU @i decoded a second way (@how), must give what @first holds:
 * as many types, functions, variables, parameters, tags, sites and
 * locations, the same sites and locations, and the same named
 * definitions (@defs).
 */
static void compare_cu(uint32_t i, const char *how, const struct dw_cu *cu,
		       const struct dw_cu *first, const struct strlist *defs)
{
	struct strlist again = { 0 };

	if (btf__type_cnt(cu->btf) != btf__type_cnt(first->btf) ||
	    cu->nr_funcs != first->nr_funcs || cu->nr_vars != first->nr_vars ||
	    cu->nr_params != first->nr_params || cu->nr_tags != first->nr_tags ||
	    cu->nr_sites != first->nr_sites || cu->nr_locs != first->nr_locs)
		fail("CU %u: %s: %u types, %u functions, %u variables,"
		     " %u params, %u tags, %u sites, %u locations; before: %u, %u, %u, %u, %u, %u, %u",
		     i, how, btf__type_cnt(cu->btf), cu->nr_funcs, cu->nr_vars, cu->nr_params,
		     cu->nr_tags, cu->nr_sites, cu->nr_locs, btf__type_cnt(first->btf),
		     first->nr_funcs, first->nr_vars, first->nr_params, first->nr_tags,
		     first->nr_sites, first->nr_locs);
	for (uint32_t k = 0; k < cu->nr_sites && k < first->nr_sites; k++)
		if (cu->sites[k].addr != first->sites[k].addr ||
		    cu->sites[k].die_off != first->sites[k].die_off)
			fail("CU %u: %s: site %u differs", i, how, k);
	for (uint32_t k = 0; k < cu->nr_locs && k < first->nr_locs; k++) {
		const struct dw_loc *a = &cu->locs[k], *b = &first->locs[k];

		if (a->kind != b->kind || a->reason != b->reason || a->size != b->size ||
		    a->reg != b->reg || a->reg2 != b->reg2 || a->offset != b->offset ||
		    a->value != b->value)
			fail("CU %u: %s: location %u differs", i, how, k);
	}
	for (uint32_t id = 1; id < btf__type_cnt(cu->btf) && id < btf__type_cnt(first->btf); id++)
		if (strcmp(btf__name_by_id(cu->btf, id), btf__name_by_id(first->btf, id)))
			fail("CU %u: %s: type %u is named '%s', was '%s'", i, how, id,
			     btf__name_by_id(cu->btf, id), btf__name_by_id(first->btf, id));
	collect_defs(cu->btf, &again);
	sl_uniq(&again);
	if (again.n != defs->n)
		fail("CU %u: %s: %zu named definitions, %zu before", i, how, again.n, defs->n);
	for (size_t k = 0; k < again.n && k < defs->n; k++)
		if (strcmp(again.v[k], defs->v[k]))
			fail("CU %u: %s: %s, before: %s", i, how, again.v[k], defs->v[k]);
	for (size_t k = 0; k < again.n; k++)
		free(again.v[k]);
	free(again.v);
}

/*
 * --renew: after CU @i, as the encoder's workers do now and then: pages
 * dropped, a new Dwarf (dw_file_renew()).  CU @i decoded again must give
 * what @first holds (compare_cu()).  1 if the handle was renewed.
 */
static int check_renew(struct dw_file *f, uint32_t i, const struct dw_opts *opts,
		       const struct dw_cu *first, const struct strlist *defs,
		       const struct btf_log *log)
{
	struct dw_cu cu = { 0 };
	int r;

	dw_file_drop_pages(f);
	r = dw_file_renew(f, i + 1);
	if (r <= 0) {
		if (r < 0)
			fail("CU %u: renew error %d", i, r);
		return 0;
	}
	if (dw_cu_decode(f, i, opts, &cu, log))
		fail("CU %u: decode error after renewing the handle", i);
	else
		compare_cu(i, "after renewing the handle", &cu, first, defs);
	dw_cu_release(&cu);
	return 1;
}

/*
 * --str-base: CU @i decoded as the encoder's workers do, split on the
 * file's .debug_str (@opts->str_base), must give what @first, decoded
 * with its own strings, holds; and some of its names must come from the
 * base (counted in *@from_base).
 */
static void check_str_base(struct dw_file *f, uint32_t i, const struct dw_opts *opts,
			   const struct dw_cu *first, const struct strlist *defs,
			   const struct btf_log *log, unsigned long *from_base)
{
	struct dw_cu cu = { 0 };

	if (dw_cu_decode(f, i, opts, &cu, log)) {
		fail("CU %u: decode error with the .debug_str base", i);
	} else {
		compare_cu(i, "with the .debug_str base", &cu, first, defs);
		for (uint32_t id = 1; id < btf__type_cnt(cu.btf); id++) {
			uint32_t off = btf__type_by_id(cu.btf, id)->name_off;

			*from_base += off && off < btf__start_str_off(cu.btf);
		}
	}
	dw_cu_release(&cu);
}

int main(int argc, char **argv)
{
	struct btf_log log = { .fn = log_line };
	struct dw_opts opts = { .encode_enum64 = true, .decl_tag = true, .type_tag = true };
	struct dw_opts str_opts;
	unsigned long from_base = 0;
	bool str_base = false;
	const char *obj = NULL, *ref = NULL, *base = NULL;
	struct strlist ours = { 0 }, theirs = { 0 };
	struct btf *base_btf = NULL, *ref_btf;
	bool fixture = false;
	struct dw_file *f;
	struct dw_cu cu;
	uint32_t i, n, renew = 0, renewed = 0;
	int i_arg, err;

	for (i_arg = 1; i_arg < argc; i_arg++) {
		if (!strcmp(argv[i_arg], "-v"))
			verbose = true;
		else if (!strcmp(argv[i_arg], "--fixture"))
			fixture = true;
		else if (!strcmp(argv[i_arg], "--float"))
			opts.encode_float = true;
		else if (!strcmp(argv[i_arg], "--ref") && i_arg + 1 < argc)
			ref = argv[++i_arg];
		else if (!strcmp(argv[i_arg], "--base") && i_arg + 1 < argc)
			base = argv[++i_arg];
		else if (!strcmp(argv[i_arg], "--str-base"))
			str_base = true;
		else if (!strcmp(argv[i_arg], "--renew") && i_arg + 1 < argc)
			/* The inline sites too: their locations go through the handle. */
			renew = strtoul(argv[++i_arg], NULL, 0), opts.collect_inlines = true;
		else
			obj = argv[i_arg];
	}
	if (!obj) {
		fprintf(stderr,
			"usage: %s [--fixture] [--float] [--ref BTF [--base BTF]] [--renew N]"
			" [--str-base] OBJ\n",
			argv[0]);
		return 2;
	}
	f = dw_file_open(obj, &log);
	if (!f)
		return 1;
	n = dw_file_cu_count(f);
	if (!n)
		fail("%s: no CUs", obj);
	str_opts = opts;
	if (str_base && !(str_opts.str_base = dw_file_str_base(f)))
		fail("%s: no .debug_str base", obj);
	for (i = 0; i < n; i++) {
		memset(&cu, 0, sizeof(cu));
		err = dw_cu_decode(f, i, &opts, &cu, &log);
		if (err) {
			fail("CU %u: decode error %d", i, err);
		} else {
			struct strlist defs = { 0 };

			if (fixture) {
				int_names = false;
				collect_defs(cu.btf, &defs);
				sl_uniq(&defs);
				check_fixture(&cu, &defs);
				for (size_t k = 0; k < defs.n; k++)
					free(defs.v[k]);
				defs.n = 0;
				int_names = true;
			}
			collect_defs(cu.btf, &defs);
			sl_uniq(&defs);
			if (renew && (i + 1) % renew == 0)
				renewed += check_renew(f, i, &opts, &cu, &defs, &log);
			if (str_opts.str_base)
				check_str_base(f, i, &str_opts, &cu, &defs, &log, &from_base);
			for (size_t k = 0; verbose && k < defs.n; k++)
				printf("%s\n", defs.v[k]);
			for (size_t k = 0; k < defs.n; k++)
				sl_add(&ours, defs.v[k]);
			free(defs.v);
		}
		dw_cu_release(&cu);
	}
	if (renew && !dw_file_relocated(f) && !renewed)
		fail("--renew %u: the libdw handle was never renewed", renew);
	if (renew)
		printf("%s: renewed the libdw handle %u times\n", obj, renewed);
	if (str_opts.str_base) {
		if (!from_base)
			fail("%s: no type took its name from the .debug_str base", obj);
		printf("%s: %lu type names from the .debug_str base\n", obj, from_base);
		btf__free(str_opts.str_base);
	}
	dw_file_close(f);
	sl_uniq(&ours);
	if (ref) {
		if (base) {
			base_btf = btf__parse_file(base, NULL, NULL, &log);
			if (!base_btf)
				return 1;
		}
		ref_btf = btf__parse_file(ref, NULL, base_btf, &log);
		if (!ref_btf)
			return 1;
		if (base_btf)
			collect_defs(base_btf, &theirs);
		collect_defs(ref_btf, &theirs);
		sl_uniq(&theirs);
		compare_sets(&ours, &theirs, base != NULL);
		btf__free(ref_btf);
		btf__free(base_btf);
	}
	printf("%s: %u CUs, %zu named definitions, %d failures\n", obj, n, ours.n, failures);
	for (size_t k = 0; k < ours.n; k++)
		free(ours.v[k]);
	for (size_t k = 0; k < theirs.n; k++)
		free(theirs.v[k]);
	free(ours.v);
	free(theirs.v);
	return failures ? 1 : 0;
}
