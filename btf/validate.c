// SPDX-License-Identifier: GPL-2.0
/*
 * validate.c - the kernel's BTF verifier rules (kernel/bpf/btf.c), applied
 * to the types a struct btf owns, plus the location kinds of the RFC.
 *
 * read.c has already made sure that every record lies inside the type
 * section and every string is NUL-terminated, so nothing here can read
 * out of bounds; what is checked is meaning.
 *
 * Pass 1 looks at each type alone: its header, its own fields, that every
 * id it holds is below btf__type_cnt() and every string offset it holds
 * is inside the string sections of the chain (the kernel's check_meta).
 *
 * Pass 2 resolves references, as the kernel's btf_resolve() does, with an
 * explicit stack instead of recursion:
 *  - a depth-first walk over "value" references (typedef/modifier target,
 *    struct member, array element and index, var type, datasec entries)
 *    computes each type's size and finds loops that do not pass through
 *    a pointer: struct A { struct A a; }, const -> const;
 *  - a walk along pointer/modifier chains finds loops made only of
 *    pointers and modifiers: ptr -> const -> ptr, which the kernel rejects
 *    too since it keeps resolving through pointers;
 *  - then the checks that need a resolved target run: member fits its
 *    struct, array index is a plain int, FUNC points at a FUNC_PROTO, ...
 *
 * Every rejection is one log line "[id] KIND 'name' rule".  All types are
 * checked; a type that failed once is not reported again by pass 2, and
 * types that depend on it are not blamed for it.
 */
#include "btf_internal.h"

#include <stdlib.h>
#include <string.h>

#define BTF_INFO_MASK	   0x9f00ffffu
#define BTF_INT_MASK	   0x0fffffffu
#define BITS_PER_U128	   128
#define KSYM_NAME_LEN	   512
#define BITS_ROUNDUP(bits) (((bits) + 7) / 8)

enum type_state {
	ST_NEW,
	ST_VISITING, /* on the resolve stack */
	ST_DONE,
	ST_BAD, /* rejected (or depends on a rejected type) */
};

enum chain_state {
	CH_NEW,
	CH_ON_PATH,
	CH_DONE,
};

struct resolve_frame {
	uint32_t id;
	uint32_t next; /* next dependency to look at */
};

struct val {
	const struct btf *btf;
	const struct btf_log *log;
	uint32_t start_id;
	uint32_t cnt;
	uint8_t *state;	   /* enum type_state, by id over the whole chain */
	uint8_t *chain;	   /* enum chain_state */
	uint64_t *names_ok; /* bit per string offset: a valid identifier */
	size_t names_ok_bits;
	int64_t *size;	   /* resolved byte size, -1 for none */
	uint32_t *final;   /* id after skipping modifiers and VAR */
	struct resolve_frame *stack;
	size_t depth;
	size_t stack_cap;
	unsigned int nr_errors;
};

/* Per-kind operations, the kernel's struct btf_kind_operations. */
struct kind_ops {
	/* Pass 1: rules on the type alone; 0 or -EINVAL (already logged). */
	int (*check_meta)(struct val *v, uint32_t id, const struct btf_type *t);
	/* Pass 2: types whose size this one's size depends on. */
	uint32_t (*nr_deps)(const struct btf_type *t);
	uint32_t (*dep)(const struct btf_type *t, uint32_t i);
	/* Pass 2, all deps resolved: rules on referenced types; sets size. */
	int (*resolve)(struct val *v, uint32_t id, const struct btf_type *t);
};

static const struct kind_ops kind_ops[NR_BTF_KINDS];

/* ---- logging ---- */

static const char *type_name(const struct val *v, const struct btf_type *t)
{
	const char *s;

	if (!t->name_off)
		return "(anon)";
	s = btf__str_by_offset(v->btf, t->name_off);
	return s ? s : "(invalid-name-offset)";
}

/* Logs "[id] KIND 'name' rule" for types this BTF owns; base types are silent. */
__attribute__((format(printf, 3, 4))) static int reject(struct val *v, uint32_t id,
							const char *fmt, ...)
{
	const struct btf_type *t = btf__type_by_id(v->btf, id);
	char rule[320];
	va_list ap;

	if (id < v->start_id)
		return -EINVAL;
	va_start(ap, fmt);
	vsnprintf(rule, sizeof(rule), fmt, ap);
	va_end(ap);
	v->nr_errors++;
	btf_log_printf(v->log, "[%u] %s '%.128s' %s", id, btf_kind_str(btf_kind(t)),
		       type_name(v, t), rule);
	return -EINVAL;
}

/* ---- small predicates ---- */

static bool is_modifier(unsigned int kind)
{
	return kind == BTF_KIND_TYPEDEF || kind == BTF_KIND_VOLATILE || kind == BTF_KIND_CONST ||
	       kind == BTF_KIND_RESTRICT || kind == BTF_KIND_TYPE_TAG;
}

/* Kinds that may only refer, never be referred to as a type. */
static bool is_source_only(unsigned int kind)
{
	return kind == BTF_KIND_VAR || kind == BTF_KIND_DATASEC || kind == BTF_KIND_DECL_TAG ||
	       kind == BTF_KIND_LOC_PARAM || kind == BTF_KIND_LOC_PROTO ||
	       kind == BTF_KIND_LOCSEC;
}

/* void, FWD and FUNC_PROTO: legal behind a pointer or modifier, never sized. */
static bool is_void_like(uint32_t id, const struct btf_type *t)
{
	return !id || btf_kind(t) == BTF_KIND_FWD || btf_kind(t) == BTF_KIND_FUNC_PROTO;
}

/* Characters of a C identifier: a table, not a locale's ctype calls. */
enum { NAME_FIRST = 1, NAME_REST = 2 };

static const uint8_t name_chars[256] = {
	['a' ... 'z'] = NAME_FIRST | NAME_REST,
	['A' ... 'Z'] = NAME_FIRST | NAME_REST,
	['_'] = NAME_FIRST | NAME_REST,
	['0' ... '9'] = NAME_REST,
};

static bool name_char_ok(char c, bool first, bool dot_ok)
{
	if (c == '.' && dot_ok)
		return true;
	return name_chars[(unsigned char)c] & (first ? NAME_FIRST : NAME_REST);
}

/*
 * btf_name_valid_identifier() (@dot_ok false) and _section() (true).
 * Most names are used many times (member names): an offset found to be
 * a valid identifier is remembered, and is a valid section name too.
 */
static bool name_valid(struct val *v, uint32_t off, bool dot_ok)
{
	const char *s = btf__str_by_offset(v->btf, off);
	bool memo = off < v->names_ok_bits;
	size_t i;

	if (memo && (v->names_ok[off / 64] >> (off % 64) & 1))
		return true;
	if (!s || !name_char_ok(s[0], true, dot_ok))
		return false;
	for (i = 1; s[i] && i < KSYM_NAME_LEN; i++)
		if (!name_char_ok(s[i], false, dot_ok))
			return false;
	if (s[i])
		return false;
	if (memo && !dot_ok)
		v->names_ok[off / 64] |= 1ull << (off % 64);
	return true;
}

static bool name_nonempty(const struct val *v, uint32_t off)
{
	const char *s = btf__str_by_offset(v->btf, off);

	return s && s[0];
}

/* An INT that is not a bitfield: whole bytes, 1/2/4/8/16 of them, offset 0. */
static bool int_is_regular(const struct btf_type *t)
{
	uint32_t data = *(const uint32_t *)btf_type_body(t);
	uint32_t bits = BTF_INT_BITS(data);

	if ((bits & 7) || BTF_INT_OFFSET(data))
		return false;
	bits /= 8;
	return bits == 1 || bits == 2 || bits == 4 || bits == 8 || bits == 16;
}

static const struct btf_type *type_of(const struct val *v, uint32_t id)
{
	return btf__type_by_id(v->btf, id);
}

/* Layout of the BTF of the chain that owns type @id. */
static enum btf_loc_layout layout_of(const struct val *v, uint32_t id)
{
	const struct btf *b = v->btf;

	while (b->base && id < b->start_id)
		b = b->base;
	return b->layout;
}

static bool merged(const struct val *v)
{
	return v->btf->layout == BTF_LAYOUT_MERGED;
}

/* ---- pass 1: rules shared by all kinds ---- */

struct range_ctx {
	struct val *v;
	uint32_t id;
	int err;
};

static int check_id_range(uint32_t *id, void *ctx)
{
	struct range_ctx *rc = ctx;

	if (*id < rc->v->cnt)
		return 0;
	rc->err = reject(rc->v, rc->id, "type id %u out of range (type count %u)", *id,
			 rc->v->cnt);
	return rc->err;
}

static int check_str_range(uint32_t *off, void *ctx)
{
	struct range_ctx *rc = ctx;

	if (btf__str_by_offset(rc->v->btf, *off))
		return 0;
	rc->err = reject(rc->v, rc->id, "string offset %u out of range", *off);
	return rc->err;
}

static int check_common(struct val *v, uint32_t id, const struct btf_type *t)
{
	struct range_ctx rc = { v, id, 0 };
	/* The visitors take a mutable record but only read through @fn. */
	struct btf_type *mt = (struct btf_type *)t;

	/* The merged layout uses every bit (the reader checked the kind's). */
	if (!merged(v) && (t->info & ~BTF_INFO_MASK))
		return reject(v, id, "invalid btf_info 0x%08x", t->info);
	if (btf_type_visit_str_offs(mt, v->btf->layout, check_str_range, &rc))
		return rc.err;
	if (btf_type_visit_type_ids(mt, v->btf->layout, check_id_range, &rc))
		return rc.err;
	return 0;
}

/* ---- pass 1: per kind ---- */

static int check_no_vlen_kflag(struct val *v, uint32_t id, const struct btf_type *t)
{
	if (btf_vlen(t))
		return reject(v, id, "vlen %u != 0", btf_vlen(t));
	if (btf_kflag(t))
		return reject(v, id, "invalid kind_flag");
	return 0;
}

static int int_check_meta(struct val *v, uint32_t id, const struct btf_type *t)
{
	uint32_t data = *(const uint32_t *)btf_type_body(t);
	uint32_t nr_bits = BTF_INT_BITS(data) + BTF_INT_OFFSET(data);
	unsigned int enc = BTF_INT_ENCODING(data);

	if (check_no_vlen_kflag(v, id, t))
		return -EINVAL;
	if (data & ~BTF_INT_MASK)
		return reject(v, id, "invalid int_data 0x%x", data);
	if (t->size != 1 && t->size != 2 && t->size != 4 && t->size != 8 && t->size != 16)
		return reject(v, id, "unsupported size %u", t->size);
	if (nr_bits > BITS_PER_U128)
		return reject(v, id, "nr_bits %u exceeds 128", nr_bits);
	if (BITS_ROUNDUP(nr_bits) > t->size)
		return reject(v, id, "nr_bits %u exceeds size %u", nr_bits, t->size);
	if (enc && enc != BTF_INT_SIGNED && enc != BTF_INT_CHAR && enc != BTF_INT_BOOL)
		return reject(v, id, "unsupported encoding 0x%x", enc);
	return 0;
}

/* PTR, TYPEDEF, VOLATILE, CONST, RESTRICT, TYPE_TAG. */
static int ref_check_meta(struct val *v, uint32_t id, const struct btf_type *t)
{
	unsigned int kind = btf_kind(t);

	if (btf_vlen(t))
		return reject(v, id, "vlen %u != 0", btf_vlen(t));
	/* Newer kernels allow kflag on TYPE_TAG (an attribute, not a tag). */
	if (btf_kflag(t) && kind != BTF_KIND_TYPE_TAG)
		return reject(v, id, "invalid kind_flag");
	if (kind == BTF_KIND_TYPEDEF) {
		if (!name_valid(v, t->name_off, false))
			return reject(v, id, "invalid name (typedef needs a C identifier)");
	} else if (kind == BTF_KIND_TYPE_TAG) {
		if (!name_nonempty(v, t->name_off))
			return reject(v, id, "invalid name (type tag needs a value)");
	} else if (t->name_off) {
		return reject(v, id, "invalid name (must be anonymous)");
	}
	return 0;
}

static int array_check_meta(struct val *v, uint32_t id, const struct btf_type *t)
{
	const struct btf_array *a = btf_type_body(t);

	if (t->name_off)
		return reject(v, id, "invalid name (must be anonymous)");
	if (check_no_vlen_kflag(v, id, t))
		return -EINVAL;
	if (t->size)
		return reject(v, id, "size %u != 0", t->size);
	if (!a->type)
		return reject(v, id, "invalid elem type 0");
	if (!a->index_type)
		return reject(v, id, "invalid index type 0");
	return 0;
}

static uint32_t member_bit_offset(const struct btf_type *t, const struct btf_member *m)
{
	return btf_kflag(t) ? BTF_MEMBER_BIT_OFFSET(m->offset) : m->offset;
}

static int struct_check_meta(struct val *v, uint32_t id, const struct btf_type *t)
{
	const struct btf_member *m = btf_type_body(t);
	bool is_union = btf_kind(t) == BTF_KIND_UNION;
	uint32_t i, off, last_off = 0;

	if (t->name_off && !name_valid(v, t->name_off, false))
		return reject(v, id, "invalid name");
	for (i = 0; i < btf_vlen(t); i++, m++) {
		if (m->name_off && !name_valid(v, m->name_off, false))
			return reject(v, id, "member #%u: invalid name", i);
		if (!m->type)
			return reject(v, id, "member #%u: type void", i);
		off = member_bit_offset(t, m);
		if (is_union && off)
			return reject(v, id, "member #%u: union member bits_offset %u != 0", i, off);
		/* ">" not ">=": the last member may be "char a[0];" */
		if (last_off > off)
			return reject(v, id, "member #%u: bits_offset %u goes backwards", i, off);
		if (BITS_ROUNDUP(off) > t->size)
			return reject(v, id, "member #%u: bits_offset %u exceeds struct size %u", i,
				      off, t->size);
		last_off = off;
	}
	return 0;
}

static int enum_size_name_ok(struct val *v, uint32_t id, const struct btf_type *t)
{
	if (t->size != 1 && t->size != 2 && t->size != 4 && t->size != 8)
		return reject(v, id, "unexpected size %u", t->size);
	if (t->name_off && !name_valid(v, t->name_off, false))
		return reject(v, id, "invalid name");
	return 0;
}

static int enum_check_meta(struct val *v, uint32_t id, const struct btf_type *t)
{
	const struct btf_enum *e = btf_type_body(t);
	uint32_t i;

	if (enum_size_name_ok(v, id, t))
		return -EINVAL;
	for (i = 0; i < btf_vlen(t); i++)
		if (!name_valid(v, e[i].name_off, false))
			return reject(v, id, "value #%u: invalid name", i);
	return 0;
}

static int enum64_check_meta(struct val *v, uint32_t id, const struct btf_type *t)
{
	const struct btf_enum64 *e = btf_type_body(t);
	uint32_t i;

	if (enum_size_name_ok(v, id, t))
		return -EINVAL;
	for (i = 0; i < btf_vlen(t); i++)
		if (!name_valid(v, e[i].name_off, false))
			return reject(v, id, "value #%u: invalid name", i);
	return 0;
}

static int fwd_check_meta(struct val *v, uint32_t id, const struct btf_type *t)
{
	if (btf_vlen(t))
		return reject(v, id, "vlen %u != 0", btf_vlen(t));
	if (t->type)
		return reject(v, id, "type %u != 0", t->type);
	if (!name_valid(v, t->name_off, false))
		return reject(v, id, "invalid name");
	return 0;
}

static int func_check_meta(struct val *v, uint32_t id, const struct btf_type *t)
{
	if (!name_valid(v, t->name_off, false))
		return reject(v, id, "invalid name");
	if (btf_vlen(t) > BTF_FUNC_GLOBAL)
		return reject(v, id, "invalid func linkage %u", btf_vlen(t));
	if (btf_kflag(t))
		return reject(v, id, "invalid kind_flag");
	return 0;
}

static int func_proto_check_meta(struct val *v, uint32_t id, const struct btf_type *t)
{
	const struct btf_param *p = btf_type_body(t);
	uint32_t i, n = btf_vlen(t);

	if (t->name_off)
		return reject(v, id, "invalid name (must be anonymous)");
	if (btf_kflag(t))
		return reject(v, id, "invalid kind_flag");
	for (i = 0; i < n; i++) {
		/* Only the last parameter may be void: it means "...". */
		if (!p[i].type && (i + 1 < n || p[i].name_off))
			return reject(v, id, "invalid arg#%u: void", i + 1);
		if (p[i].name_off && !name_valid(v, p[i].name_off, false))
			return reject(v, id, "invalid arg#%u: invalid name", i + 1);
	}
	return 0;
}

static int var_check_meta(struct val *v, uint32_t id, const struct btf_type *t)
{
	const struct btf_var *var = btf_type_body(t);

	if (check_no_vlen_kflag(v, id, t))
		return -EINVAL;
	if (!name_valid(v, t->name_off, true))
		return reject(v, id, "invalid name");
	if (!t->type)
		return reject(v, id, "invalid type_id 0");
	if (var->linkage != BTF_VAR_STATIC && var->linkage != BTF_VAR_GLOBAL_ALLOCATED)
		return reject(v, id, "linkage %u not supported", var->linkage);
	return 0;
}

static int datasec_check_meta(struct val *v, uint32_t id, const struct btf_type *t)
{
	const struct btf_var_secinfo *vsi = btf_type_body(t);
	uint64_t last_end = 0, sum = 0;
	uint32_t i;

	if (!t->size)
		return reject(v, id, "size == 0");
	if (btf_kflag(t))
		return reject(v, id, "invalid kind_flag");
	if (!name_valid(v, t->name_off, true))
		return reject(v, id, "invalid name (needs a section name)");
	for (i = 0; i < btf_vlen(t); i++, vsi++) {
		if (!vsi->type)
			return reject(v, id, "entry #%u: type void", i);
		if (vsi->offset < last_end || vsi->offset >= t->size)
			return reject(v, id, "entry #%u: invalid offset %u", i, vsi->offset);
		if (!vsi->size || vsi->size > t->size)
			return reject(v, id, "entry #%u: invalid size %u", i, vsi->size);
		last_end = (uint64_t)vsi->offset + vsi->size;
		if (last_end > t->size)
			return reject(v, id, "entry #%u: offset+size %llu past section size %u", i,
				      (unsigned long long)last_end, t->size);
		sum += vsi->size;
	}
	if (sum > t->size)
		return reject(v, id, "entry sizes %llu exceed section size %u",
			      (unsigned long long)sum, t->size);
	return 0;
}

static int float_check_meta(struct val *v, uint32_t id, const struct btf_type *t)
{
	if (check_no_vlen_kflag(v, id, t))
		return -EINVAL;
	if (t->size != 2 && t->size != 4 && t->size != 8 && t->size != 12 && t->size != 16)
		return reject(v, id, "invalid size %u", t->size);
	return 0;
}

static int decl_tag_check_meta(struct val *v, uint32_t id, const struct btf_type *t)
{
	const struct btf_decl_tag *tag = btf_type_body(t);

	if (!name_nonempty(v, t->name_off))
		return reject(v, id, "invalid value (empty)");
	if (btf_vlen(t))
		return reject(v, id, "vlen %u != 0", btf_vlen(t));
	/* kflag (attribute) is allowed by newer kernels, as for TYPE_TAG. */
	if (tag->component_idx < -1)
		return reject(v, id, "invalid component_idx %d", tag->component_idx);
	return 0;
}

/*
 * Merged layout: no kflag, and flags, size and vlen must agree (what
 * they may be is btf_loc_param_merged_check()'s, shared with the builder).
 */
static int loc_param_merged_check_meta(struct val *v, uint32_t id, const struct btf_type *t)
{
	const struct btf_loc_param_merged *p = btf_type_body(t);
	const char *why;

	if (btf_kflag(t))
		return reject(v, id, "invalid kind_flag");
	why = btf_loc_param_merged_check(t->size, p->flags, btf_vlen(t));
	if (why)
		return reject(v, id, "size %u flags 0x%x vlen %u: %s", t->size, p->flags,
			      btf_vlen(t), why);
	return 0;
}

static int loc_param_check_meta(struct val *v, uint32_t id, const struct btf_type *t)
{
	const struct btf_loc_param *p = btf_type_body(t);
	int32_t size = (int32_t)t->size;
	int64_t abs_size = size < 0 ? -(int64_t)size : size;

	if (t->name_off)
		return reject(v, id, "invalid name (must be anonymous)");
	if (merged(v))
		return loc_param_merged_check_meta(v, id, t);
	if (btf_vlen(t))
		return reject(v, id, "vlen %u != 0", btf_vlen(t));
	if (abs_size != 1 && abs_size != 2 && abs_size != 4 && abs_size != 8)
		return reject(v, id, "invalid size %d", size);
	if (!btf_kflag(t) && (p->flags & ~(BTF_LOC_FLAG_DEREF | BTF_LOC_FLAG_CONTINUE)))
		return reject(v, id, "unknown flags 0x%x", p->flags);
	return 0;
}

static int loc_proto_check_meta(struct val *v, uint32_t id, const struct btf_type *t)
{
	if (t->name_off)
		return reject(v, id, "invalid name (must be anonymous)");
	return 0;
}

static int locsec_check_meta(struct val *v, uint32_t id, const struct btf_type *t)
{
	const struct btf_loc_merged *m = btf_type_body(t);
	const struct btf_loc *l = btf_type_body(t);
	uint32_t i;

	for (i = 0; merged(v) && i < btf_vlen(t); i++)
		if (!m[i].func)
			return reject(v, id, "loc #%u: func 0", i);
	for (i = 0; !merged(v) && i < btf_vlen(t); i++) {
		if (!name_nonempty(v, l[i].name_off))
			return reject(v, id, "loc #%u: empty name", i);
		if (!l[i].func_proto)
			return reject(v, id, "loc #%u: func_proto 0", i);
	}
	return 0;
}

/* ---- pass 2: dependencies ---- */

static uint32_t one_dep(const struct btf_type *t)
{
	return 1;
}

static uint32_t type_dep(const struct btf_type *t, uint32_t i)
{
	return t->type;
}

static uint32_t vlen_deps(const struct btf_type *t)
{
	return btf_vlen(t);
}

static uint32_t two_deps(const struct btf_type *t)
{
	return 2;
}

static uint32_t array_dep(const struct btf_type *t, uint32_t i)
{
	const struct btf_array *a = btf_type_body(t);

	return i ? a->type : a->index_type;
}

static uint32_t member_dep(const struct btf_type *t, uint32_t i)
{
	return ((const struct btf_member *)btf_type_body(t))[i].type;
}

static uint32_t vsi_dep(const struct btf_type *t, uint32_t i)
{
	return ((const struct btf_var_secinfo *)btf_type_body(t))[i].type;
}

/* ---- pass 2: resolve, with every dependency already resolved ---- */

static bool is_bad(const struct val *v, uint32_t id)
{
	return id >= v->cnt || v->state[id] == ST_BAD;
}

static int set_sized(struct val *v, uint32_t id, int64_t size)
{
	v->size[id] = size;
	v->final[id] = id;
	return 0;
}

static int sized_resolve(struct val *v, uint32_t id, const struct btf_type *t)
{
	return set_sized(v, id, t->size);
}

static int unsized_resolve(struct val *v, uint32_t id, const struct btf_type *t)
{
	return set_sized(v, id, -1);
}

static int ptr_resolve(struct val *v, uint32_t id, const struct btf_type *t)
{
	uint32_t next = t->type;
	const struct btf_type *nt = type_of(v, next);
	uint32_t steps = 0;

	/* Only the kind of the pointee matters; loops are chain_check()'s. */
	while (nt && is_modifier(btf_kind(nt)) && steps++ < v->cnt) {
		next = nt->type;
		nt = type_of(v, next);
	}
	if (!nt)
		return -EINVAL;
	if (is_source_only(btf_kind(nt)) || (next && btf_kind(nt) == BTF_KIND_FUNC))
		return reject(v, id, "invalid type_id %u: points at %s [%u]", t->type,
			      btf_kind_str(btf_kind(nt)), next);
	return set_sized(v, id, btf__pointer_size(v->btf));
}

static int modifier_resolve(struct val *v, uint32_t id, const struct btf_type *t)
{
	const struct btf_type *nt = type_of(v, t->type);
	uint32_t fin;

	if (is_bad(v, t->type))
		return -EINVAL;
	if (is_source_only(btf_kind(nt)))
		return reject(v, id, "invalid type_id %u: %s", t->type,
			      btf_kind_str(btf_kind(nt)));
	fin = t->type ? v->final[t->type] : 0;
	if (v->size[t->type] < 0 && !is_void_like(fin, type_of(v, fin)))
		return reject(v, id, "invalid type_id %u: %s has no size", t->type,
			      btf_kind_str(btf_kind(type_of(v, fin))));
	v->size[id] = v->size[t->type];
	v->final[id] = fin;
	return 0;
}

static int array_resolve(struct val *v, uint32_t id, const struct btf_type *t)
{
	const struct btf_array *a = btf_type_body(t);
	const struct btf_type *it, *et;
	int64_t esz;

	if (is_bad(v, a->index_type) || is_bad(v, a->type))
		return -EINVAL;
	it = type_of(v, v->final[a->index_type]);
	if (v->size[a->index_type] < 0 || btf_kind(it) != BTF_KIND_INT || !int_is_regular(it))
		return reject(v, id, "invalid index type %u", a->index_type);
	et = type_of(v, v->final[a->type]);
	esz = v->size[a->type];
	if (esz < 0 || is_source_only(btf_kind(type_of(v, a->type))))
		return reject(v, id, "invalid elem type %u: no size", a->type);
	if (btf_kind(et) == BTF_KIND_INT && !int_is_regular(et))
		return reject(v, id, "invalid array of int (bitfield int [%u])", v->final[a->type]);
	if (a->nelems && (uint64_t)esz > UINT32_MAX / a->nelems)
		return reject(v, id, "array size overflows u32");
	return set_sized(v, id, esz * a->nelems);
}

/* One member against its resolved (modifier-free) type @mt of @msize bytes. */
static int check_member(struct val *v, uint32_t id, const struct btf_type *st, uint32_t i,
			const struct btf_member *m, const struct btf_type *mt, int64_t msize)
{
	bool kflag = btf_kflag(st);
	uint32_t off = member_bit_offset(st, m);
	uint32_t bf = kflag ? BTF_MEMBER_BITFIELD_SIZE(m->offset) : 0;
	uint32_t nr_bits, copy_bits;

	switch ((enum btf_kind)btf_kind(mt)) {
	case BTF_KIND_INT: {
		uint32_t data = *(const uint32_t *)btf_type_body(mt);

		if (kflag && !int_is_regular(mt))
			return reject(v, id, "member #%u: bitfield base type is not a plain int", i);
		if (!kflag) {
			off += BTF_INT_OFFSET(data);
			nr_bits = BTF_INT_BITS(data);
		} else if (!bf) {
			if (off & 7)
				return reject(v, id, "member #%u: offset %u not byte aligned", i, off);
			nr_bits = BTF_INT_BITS(data);
		} else if (bf > BTF_INT_BITS(data)) {
			return reject(v, id, "member #%u: bitfield_size %u exceeds int bits %u", i,
				      bf, BTF_INT_BITS(data));
		} else {
			nr_bits = bf;
		}
		copy_bits = nr_bits + (off & 7);
		if (copy_bits > BITS_PER_U128)
			return reject(v, id, "member #%u: nr_copy_bits %u exceeds 128", i,
				      copy_bits);
		if (st->size < off / 8 || st->size - off / 8 < BITS_ROUNDUP(copy_bits))
			return reject(v, id, "member #%u: exceeds struct size %u", i, st->size);
		return 0;
	}
	case BTF_KIND_ENUM:
	case BTF_KIND_ENUM64:
		nr_bits = bf ? bf : msize * 8;
		if (bf > msize * 8)
			return reject(v, id, "member #%u: bitfield_size %u exceeds enum bits", i,
				      bf);
		if (!bf && (off & 7))
			return reject(v, id, "member #%u: offset %u not byte aligned", i, off);
		if ((uint64_t)st->size * 8 < (uint64_t)off + nr_bits)
			return reject(v, id, "member #%u: exceeds struct size %u", i, st->size);
		return 0;
	case BTF_KIND_FLOAT:
		if (m->offset % ((msize < 8 ? msize : 8) * 8))
			return reject(v, id, "member #%u: float not properly aligned", i);
		/* fall through */
	case BTF_KIND_PTR:
	case BTF_KIND_ARRAY:
	case BTF_KIND_STRUCT:
	case BTF_KIND_UNION:
		if (bf)
			return reject(v, id, "member #%u: bitfield_size %u on a non-int", i, bf);
		if (off & 7)
			return reject(v, id, "member #%u: offset %u not byte aligned", i, off);
		if ((uint64_t)st->size - off / 8 < (uint64_t)msize)
			return reject(v, id, "member #%u: exceeds struct size %u", i, st->size);
		return 0;
	case BTF_KIND_UNKN:
	case BTF_KIND_FWD:
	case BTF_KIND_TYPEDEF:
	case BTF_KIND_VOLATILE:
	case BTF_KIND_CONST:
	case BTF_KIND_RESTRICT:
	case BTF_KIND_FUNC:
	case BTF_KIND_FUNC_PROTO:
	case BTF_KIND_VAR:
	case BTF_KIND_DATASEC:
	case BTF_KIND_DECL_TAG:
	case BTF_KIND_TYPE_TAG:
	case BTF_KIND_LOC_PARAM:
	case BTF_KIND_LOC_PROTO:
	case BTF_KIND_LOCSEC:
	case NR_BTF_KINDS:
		break;
	}
	return reject(v, id, "member #%u: type %s has no size", i, btf_kind_str(btf_kind(mt)));
}

static int struct_resolve(struct val *v, uint32_t id, const struct btf_type *t)
{
	const struct btf_member *m = btf_type_body(t);
	uint32_t i;

	for (i = 0; i < btf_vlen(t); i++, m++) {
		const struct btf_type *mt;

		if (is_bad(v, m->type))
			return -EINVAL;
		mt = type_of(v, m->type);
		if (is_source_only(btf_kind(mt)) || v->size[m->type] < 0)
			return reject(v, id, "member #%u: invalid member type %u (%s, no size)", i,
				      m->type, btf_kind_str(btf_kind(mt)));
		if (check_member(v, id, t, i, m, type_of(v, v->final[m->type]),
				 v->size[m->type]))
			return -EINVAL;
	}
	return set_sized(v, id, t->size);
}

static int var_resolve(struct val *v, uint32_t id, const struct btf_type *t)
{
	const struct btf_type *nt = type_of(v, t->type);

	if (is_bad(v, t->type))
		return -EINVAL;
	if (is_source_only(btf_kind(nt)) || v->size[t->type] < 0)
		return reject(v, id, "invalid type_id %u: %s has no size", t->type,
			      btf_kind_str(btf_kind(nt)));
	v->size[id] = v->size[t->type];
	v->final[id] = v->final[t->type];
	return 0;
}

static int datasec_resolve(struct val *v, uint32_t id, const struct btf_type *t)
{
	const struct btf_var_secinfo *vsi = btf_type_body(t);
	uint32_t i;

	for (i = 0; i < btf_vlen(t); i++, vsi++) {
		const struct btf_type *vt = type_of(v, vsi->type);

		if (btf_kind(vt) != BTF_KIND_VAR)
			return reject(v, id, "entry #%u: type %u is %s, not a VAR", i, vsi->type,
				      btf_kind_str(btf_kind(vt)));
		if (is_bad(v, vsi->type))
			return -EINVAL;
		if (vsi->size < v->size[vsi->type])
			return reject(v, id, "entry #%u: size %u smaller than VAR [%u] (%lld)", i,
				      vsi->size, vsi->type, (long long)v->size[vsi->type]);
	}
	return set_sized(v, id, t->size);
}

static int decl_tag_resolve(struct val *v, uint32_t id, const struct btf_type *t)
{
	int32_t idx = ((const struct btf_decl_tag *)btf_type_body(t))->component_idx;
	const struct btf_type *nt = type_of(v, t->type);
	unsigned int kind = btf_kind(nt);
	uint32_t vlen;

	if (!t->type || (kind != BTF_KIND_FUNC && kind != BTF_KIND_STRUCT &&
			 kind != BTF_KIND_UNION && kind != BTF_KIND_VAR && kind != BTF_KIND_TYPEDEF))
		return reject(v, id, "invalid type_id %u: cannot tag a %s", t->type,
			      btf_kind_str(kind));
	if (idx == -1)
		return set_sized(v, id, -1);
	if (kind == BTF_KIND_VAR || kind == BTF_KIND_TYPEDEF)
		return reject(v, id, "invalid component_idx %d for a %s", idx, btf_kind_str(kind));
	if (kind == BTF_KIND_FUNC) {
		nt = type_of(v, nt->type);
		if (!nt || btf_kind(nt) != BTF_KIND_FUNC_PROTO)
			return -EINVAL; /* the FUNC itself is reported */
	}
	vlen = btf_vlen(nt);
	if ((uint32_t)idx >= vlen)
		return reject(v, id, "invalid component_idx %d (target has %u)", idx, vlen);
	return set_sized(v, id, -1);
}

static int func_resolve(struct val *v, uint32_t id, const struct btf_type *t)
{
	const struct btf_type *pt = type_of(v, t->type);
	const struct btf_param *p;
	uint32_t i;

	if (!t->type || !pt || btf_kind(pt) != BTF_KIND_FUNC_PROTO)
		return reject(v, id, "invalid type_id %u: %s, not a FUNC_PROTO", t->type,
			      pt ? btf_kind_str(btf_kind(pt)) : "missing");
	p = btf_type_body(pt);
	for (i = 0; i < btf_vlen(pt); i++)
		if (!p[i].name_off && p[i].type)
			return reject(v, id, "arg#%u of FUNC_PROTO [%u] has no name", i + 1,
				      t->type);
	return set_sized(v, id, -1);
}

static int loc_proto_resolve(struct val *v, uint32_t id, const struct btf_type *t)
{
	const uint32_t *ids = btf_type_body(t);
	uint32_t i;

	for (i = 0; i < btf_vlen(t); i++) {
		if (ids[i] && btf_kind(type_of(v, ids[i])) != BTF_KIND_LOC_PARAM)
			return reject(v, id, "param #%u: type %u is %s, not a LOC_PARAM", i, ids[i],
				      btf_kind_str(btf_kind(type_of(v, ids[i]))));
		if (ids[i] && layout_of(v, ids[i]) != v->btf->layout)
			return reject(v, id, "param #%u: LOC_PARAM %u is in the other layout", i,
				      ids[i]);
	}
	return set_sized(v, id, -1);
}

/*
 * Merged layout: func is a FUNC (whose prototype the encoder or the
 * compiler made), loc_proto 0 or a LOC_PROTO of the same layout.  Its
 * entries map one to one onto the prototype's parameters, but the merged
 * selftests themselves pair a 5-parameter FUNC with a 6-entry LOC_PROTO,
 * so the counts are not compared.
 */
static int locsec_merged_resolve(struct val *v, uint32_t id, const struct btf_type *t)
{
	const struct btf_loc_merged *l = btf_type_body(t);
	uint32_t i;

	for (i = 0; i < btf_vlen(t); i++, l++) {
		const struct btf_type *f = type_of(v, l->func);
		const struct btf_type *lp = type_of(v, l->loc_proto);

		if (btf_kind(f) != BTF_KIND_FUNC)
			return reject(v, id, "loc #%u: func %u is %s, not a FUNC", i, l->func,
				      btf_kind_str(btf_kind(f)));
		if (!l->loc_proto)
			continue;
		if (btf_kind(lp) != BTF_KIND_LOC_PROTO)
			return reject(v, id, "loc #%u: loc_proto %u is %s, not a LOC_PROTO", i,
				      l->loc_proto, btf_kind_str(btf_kind(lp)));
		if (layout_of(v, l->loc_proto) != BTF_LAYOUT_MERGED)
			return reject(v, id, "loc #%u: LOC_PROTO %u is in the seed layout", i,
				      l->loc_proto);
	}
	return set_sized(v, id, -1);
}

static int locsec_resolve(struct val *v, uint32_t id, const struct btf_type *t)
{
	const struct btf_loc *l = btf_type_body(t);
	uint32_t i;

	if (merged(v))
		return locsec_merged_resolve(v, id, t);
	for (i = 0; i < btf_vlen(t); i++, l++) {
		const struct btf_type *fp = type_of(v, l->func_proto);
		const struct btf_type *lp = type_of(v, l->loc_proto);

		if (btf_kind(fp) != BTF_KIND_FUNC_PROTO)
			return reject(v, id, "loc #%u: func_proto %u is %s, not a FUNC_PROTO", i,
				      l->func_proto, btf_kind_str(btf_kind(fp)));
		if (!l->loc_proto)
			continue;
		if (btf_kind(lp) != BTF_KIND_LOC_PROTO)
			return reject(v, id, "loc #%u: loc_proto %u is %s, not a LOC_PROTO", i,
				      l->loc_proto, btf_kind_str(btf_kind(lp)));
		if (layout_of(v, l->loc_proto) != BTF_LAYOUT_SEED)
			return reject(v, id, "loc #%u: LOC_PROTO %u is in the merged layout", i,
				      l->loc_proto);
		/*
		 * Every parameter has at least one entry (0 = unknown), and
		 * a CONTINUE entry adds one.  Only the lower bound is a rule:
		 * the RFC pahole's output, which readers must accept, breaks
		 * exact equality both ways (extra entries at 6 vmlinux
		 * sites, e.g. rip_rel_ptr; a LOC_PROTO shared by protos of
		 * different shape whose CONTINUE flags fit only one of them).
		 */
		if (btf_vlen(lp) < btf_vlen(fp))
			return reject(v, id,
				      "loc #%u: LOC_PROTO [%u] has %u entries, FUNC_PROTO [%u] has %u params",
				      i, l->loc_proto, btf_vlen(lp), l->func_proto, btf_vlen(fp));
	}
	return set_sized(v, id, -1);
}

static const struct kind_ops kind_ops[NR_BTF_KINDS] = {
	[BTF_KIND_INT] = { .check_meta = int_check_meta, .resolve = sized_resolve },
	[BTF_KIND_PTR] = { .check_meta = ref_check_meta, .resolve = ptr_resolve },
	[BTF_KIND_ARRAY] = { .check_meta = array_check_meta, .nr_deps = two_deps,
			     .dep = array_dep, .resolve = array_resolve },
	[BTF_KIND_STRUCT] = { .check_meta = struct_check_meta, .nr_deps = vlen_deps,
			      .dep = member_dep, .resolve = struct_resolve },
	[BTF_KIND_UNION] = { .check_meta = struct_check_meta, .nr_deps = vlen_deps,
			     .dep = member_dep, .resolve = struct_resolve },
	[BTF_KIND_ENUM] = { .check_meta = enum_check_meta, .resolve = sized_resolve },
	[BTF_KIND_FWD] = { .check_meta = fwd_check_meta, .resolve = unsized_resolve },
	[BTF_KIND_TYPEDEF] = { .check_meta = ref_check_meta, .nr_deps = one_dep,
			       .dep = type_dep, .resolve = modifier_resolve },
	[BTF_KIND_VOLATILE] = { .check_meta = ref_check_meta, .nr_deps = one_dep,
				.dep = type_dep, .resolve = modifier_resolve },
	[BTF_KIND_CONST] = { .check_meta = ref_check_meta, .nr_deps = one_dep,
			     .dep = type_dep, .resolve = modifier_resolve },
	[BTF_KIND_RESTRICT] = { .check_meta = ref_check_meta, .nr_deps = one_dep,
				.dep = type_dep, .resolve = modifier_resolve },
	[BTF_KIND_FUNC] = { .check_meta = func_check_meta, .resolve = func_resolve },
	[BTF_KIND_FUNC_PROTO] = { .check_meta = func_proto_check_meta,
				  .resolve = unsized_resolve },
	[BTF_KIND_VAR] = { .check_meta = var_check_meta, .nr_deps = one_dep, .dep = type_dep,
			   .resolve = var_resolve },
	[BTF_KIND_DATASEC] = { .check_meta = datasec_check_meta, .nr_deps = vlen_deps,
			       .dep = vsi_dep, .resolve = datasec_resolve },
	[BTF_KIND_FLOAT] = { .check_meta = float_check_meta, .resolve = sized_resolve },
	[BTF_KIND_DECL_TAG] = { .check_meta = decl_tag_check_meta, .resolve = decl_tag_resolve },
	[BTF_KIND_TYPE_TAG] = { .check_meta = ref_check_meta, .nr_deps = one_dep,
				.dep = type_dep, .resolve = modifier_resolve },
	[BTF_KIND_ENUM64] = { .check_meta = enum64_check_meta, .resolve = sized_resolve },
	[BTF_KIND_LOC_PARAM] = { .check_meta = loc_param_check_meta, .resolve = unsized_resolve },
	[BTF_KIND_LOC_PROTO] = { .check_meta = loc_proto_check_meta,
				 .resolve = loc_proto_resolve },
	[BTF_KIND_LOCSEC] = { .check_meta = locsec_check_meta, .resolve = locsec_resolve },
};

/* ---- pass 2: the walks ---- */

static int id_in_range(uint32_t *id, void *ctx)
{
	return *id < ((const struct val *)ctx)->cnt ? 0 : -EINVAL;
}

static int stack_push(struct val *v, uint32_t id)
{
	struct resolve_frame *f;

	/*
	 * Base types skipped pass 1; resolving them may still only touch
	 * ids that exist.  Their problems are the base's, so stay silent.
	 */
	if (id < v->start_id &&
	    btf_type_visit_type_ids((struct btf_type *)type_of(v, id), layout_of(v, id),
				    id_in_range, v)) {
		v->state[id] = ST_BAD;
		return 0;
	}

	f = btf_add_mem((void **)&v->stack, &v->stack_cap, sizeof(*f), v->depth, SIZE_MAX / 2,
			1);
	if (!f)
		return -ENOMEM;
	f->id = id;
	f->next = 0;
	v->depth++;
	v->state[id] = ST_VISITING;
	return 0;
}

/* A dependency is on the stack: everything on it is part of, or needs, a loop. */
static void report_loop(struct val *v, uint32_t dep)
{
	uint32_t root = v->stack[0].id;

	reject(v, root < v->start_id ? dep : root, "reference loop through [%u]", dep);
	while (v->depth)
		v->state[v->stack[--v->depth].id] = ST_BAD;
}

/* Depth-first resolve of @root and everything its size depends on. */
static int resolve_from(struct val *v, uint32_t root)
{
	int err = stack_push(v, root);

	while (!err && v->depth) {
		struct resolve_frame *f = &v->stack[v->depth - 1];
		const struct btf_type *t = type_of(v, f->id);
		const struct kind_ops *ops = &kind_ops[btf_kind(t)];
		uint32_t nr = ops->nr_deps ? ops->nr_deps(t) : 0;
		bool pushed = false;

		while (f->next < nr && !pushed) {
			uint32_t dep = ops->dep(t, f->next++);

			if (dep >= v->cnt || v->state[dep] != ST_NEW) {
				if (dep < v->cnt && v->state[dep] == ST_VISITING) {
					report_loop(v, dep);
					return 0;
				}
				continue;
			}
			err = stack_push(v, dep);
			pushed = true;
		}
		if (pushed || err)
			continue;
		v->state[f->id] = ops->resolve(v, f->id, t) ? ST_BAD : ST_DONE;
		v->depth--;
	}
	return err;
}

/*
 * Pointers and modifiers each have one successor, so they form chains;
 * walking each chain once, marking the path, finds a cycle made only of
 * them (ptr -> const -> ptr).  Loops without a pointer were already
 * reported by resolve_from(), which marked them bad.
 */
static bool chain_link(const struct val *v, uint32_t id)
{
	const struct btf_type *t;

	if (!id || id >= v->cnt || v->state[id] == ST_BAD)
		return false;
	t = type_of(v, id);
	return btf_kind(t) == BTF_KIND_PTR || is_modifier(btf_kind(t));
}

static void chain_check(struct val *v, uint32_t start)
{
	uint32_t id = start;

	while (chain_link(v, id) && v->chain[id] == CH_NEW) {
		v->chain[id] = CH_ON_PATH;
		id = type_of(v, id)->type;
	}
	if (chain_link(v, id) && v->chain[id] == CH_ON_PATH)
		reject(v, start, "reference loop through [%u] (pointers and modifiers only)", id);
	for (id = start; chain_link(v, id) && v->chain[id] == CH_ON_PATH;
	     id = type_of(v, id)->type)
		v->chain[id] = CH_DONE;
}

/* Return and parameter types of a FUNC_PROTO must have a size. */
static int func_proto_check(struct val *v, uint32_t id, const struct btf_type *t)
{
	const struct btf_param *p = btf_type_body(t);
	uint32_t i;
	int err;

	if (t->type) {
		err = v->state[t->type] == ST_NEW ? resolve_from(v, t->type) : 0;
		if (err)
			return err;
		if (is_bad(v, t->type))
			return 0;
		if (v->size[t->type] < 0 || is_source_only(btf_kind(type_of(v, t->type))))
			return reject(v, id, "invalid return type %u", t->type);
	}
	for (i = 0; i < btf_vlen(t); i++) {
		if (!p[i].type)
			continue; /* vararg, placement checked in pass 1 */
		err = v->state[p[i].type] == ST_NEW ? resolve_from(v, p[i].type) : 0;
		if (err)
			return err;
		if (is_bad(v, p[i].type))
			continue;
		if (v->size[p[i].type] < 0 || is_source_only(btf_kind(type_of(v, p[i].type))))
			return reject(v, id, "invalid arg#%u: type %u has no size", i + 1,
				      p[i].type);
	}
	return 0;
}

static int pass2(struct val *v)
{
	uint32_t id;
	int err;

	for (id = v->start_id; id < v->cnt; id++) {
		if (v->state[id] != ST_NEW)
			continue;
		err = resolve_from(v, id);
		if (err)
			return err;
	}
	for (id = v->start_id; id < v->cnt; id++)
		if (v->chain[id] == CH_NEW)
			chain_check(v, id);
	for (id = v->start_id; id < v->cnt; id++) {
		const struct btf_type *t = type_of(v, id);

		if (v->state[id] == ST_DONE && btf_kind(t) == BTF_KIND_FUNC_PROTO) {
			err = func_proto_check(v, id, t);
			if (err)
				return err;
		}
	}
	return 0;
}

static int val_init(struct val *v, const struct btf *btf, const struct btf_log *log)
{
	memset(v, 0, sizeof(*v));
	v->btf = btf;
	v->log = log;
	v->start_id = btf__start_id(btf);
	v->cnt = btf__type_cnt(btf);
	v->state = calloc(v->cnt, sizeof(*v->state));
	v->chain = calloc(v->cnt, sizeof(*v->chain));
	v->size = calloc(v->cnt, sizeof(*v->size));
	v->final = calloc(v->cnt, sizeof(*v->final));
	v->names_ok_bits = (size_t)btf->start_str_off + btf->strs->len;
	v->names_ok = calloc(v->names_ok_bits / 64 + 1, sizeof(*v->names_ok));
	if (!v->state || !v->chain || !v->size || !v->final || !v->names_ok)
		return -ENOMEM;
	/* void: resolved, no size */
	v->state[0] = ST_DONE;
	v->size[0] = -1;
	return 0;
}

static void val_fini(struct val *v)
{
	free(v->state);
	free(v->chain);
	free(v->size);
	free(v->final);
	free(v->names_ok);
	free(v->stack);
}

int btf__validate(const struct btf *btf, const struct btf_log *log)
{
	struct val v;
	uint32_t id;
	int err;

	err = val_init(&v, btf, log);
	if (err)
		goto out;
	for (id = v.start_id; id < v.cnt; id++) {
		const struct btf_type *t = type_of(&v, id);
		const struct kind_ops *ops = &kind_ops[btf_kind(t)];

		if (!ops->check_meta) {
			reject(&v, id, "invalid kind %u", btf_kind(t));
			v.state[id] = ST_BAD;
			continue;
		}
		if (check_common(&v, id, t) || ops->check_meta(&v, id, t))
			v.state[id] = ST_BAD;
	}
	err = pass2(&v);
	if (!err && v.nr_errors)
		err = -EINVAL;
out:
	val_fini(&v);
	return err;
}
