// SPDX-License-Identifier: GPL-2.0
/*
 * types.c - type DIEs of one CU to BTF types in dw_cu.btf.
 *
 * Ids are fixed before anything is emitted, the way pahole numbers its
 * type table: cu.c's walk hands every type DIE over in DIE order, a type
 * after the types nested in it (struct A { union {...} u; } gives the
 * union the smaller id), and each gets the next id.  Emission then runs
 * over that list in order, so a member may name a type emitted later
 * and no recursion happens at all: a struct holding a pointer to itself
 * is just an id that is already known.
 *
 * A reference the walk did not see (a DIE in another CU through
 * DW_FORM_ref_addr) gets the next free id and is queued behind the rest.
 * DW_TAG_atomic_type is looked through and DW_TAG_unspecified_type is
 * void, as in pahole; neither gets an id.
 *
 * A pointer with btf_type_tag annotations takes one id per tag before its
 * own:  int __tag1 __tag2 *p  ->  PTR -> TYPE_TAG tag2 -> TYPE_TAG tag1 -> int.
 */
#include "dw_internal.h"
#include "../btf/btf_internal.h"

#include <dwarf.h>
#include <errno.h>
#include <gelf.h>
#include <stdlib.h>
#include <string.h>

#ifndef DW_TAG_LLVM_annotation
#define DW_TAG_LLVM_annotation 0x6000
#endif

/* Atomic-type chains longer than this are treated as cycles. */
#define DW_MAX_LOOKTHROUGH 32

struct dw_slot {
	Dwarf_Die die;      /* zeroed for the synthetic index int */
	uint32_t id;        /* id of the first BTF type it makes */
	uint16_t nr_tags;   /* TYPE_TAGs before a pointer */
	bool index_int;
	/*
	 * STRUCT/UNION read by the walk: its data members, in dw_types.mems
	 * (.nested if it was nested in another struct).
	 */
	bool has_mems;
	bool nested;
	bool has_annots;    /* an annotation child (btf_decl_tag) */
	uint32_t first_mem;
	uint32_t nr_mems;
};

/*
 * A data member as one pass over its attributes read it (libdw walks a
 * DIE's attribute list once per dwarf_attr() and takes a lock per DIE
 * it meets: the walk reads members once, emission reuses this).
 */
struct dw_member {
	/*
	 * The DIE (for annotation children and messages) and its DW_AT_type
	 * (NULL: none), in the unit of the struct holding it: 40 bytes
	 * instead of libdw's 80 (vmlinux: 6.5M members, each copied once).
	 */
	void *addr;
	unsigned char *type_valp;
	const char *name;
	uint32_t bit_off;
	uint32_t bit_size;
	uint16_t type_form;
	bool has_children;
};

struct dw_enumerator {
	Dwarf_Die die;
	const char *name;
	Dwarf_Attribute val; /* DW_AT_const_value, .valp NULL if none */
};

/* The members of the structs being walked, innermost last. */
struct dw_member_stack {
	struct dw_member *m;
	size_t nr;
	size_t cap;
};

struct dw_pending_tag {
	const char *value;  /* in libdw's string section */
	uint32_t target;
	int32_t component;
};

/* DIE offset + 1 -> id: key and value side by side, one line per probe. */
struct dw_map_slot {
	uint64_t key; /* 0 = empty */
	uint32_t val;
};

struct dw_types {
	/*
	 * Open addressing over the first map_cap slots of map_alloc: each
	 * CU starts small (a small table stays in cache) in memory the
	 * last CUs grew.
	 */
	struct dw_map_slot *map;
	size_t map_cap;
	size_t map_cnt;
	size_t map_alloc;
	/* The entries while map_grow() re-inserts them. */
	struct dw_map_slot *map_tmp;
	size_t map_tmp_cap;

	struct dw_slot *slots;
	size_t nr_slots;
	size_t slots_cap;
	size_t next_emit;
	uint32_t next_id;
	bool emitting;

	Dwarf_Off int_off; /* first base type named "int", + 1 */
	uint32_t index_id; /* 0 until needed */
	bool saw_array;
	int big_endian;    /* -1 = not looked up */

	struct dw_pending_tag *dtags;
	size_t nr_dtags;
	size_t dtags_cap;

	/*
	 * Members of walked structs, each struct's contiguous (slot.first_mem)
	 * where the walk put them: a struct nested in another (C++) moves its
	 * own to .nested when it ends, so the enclosing one's stay contiguous.
	 */
	struct dw_member_stack mems;
	struct dw_member_stack nested;
	unsigned int open_structs; /* walks of structs under way */
	/* Members of the struct being emitted that the walk did not read. */
	struct dw_member_stack unwalked;

	/* The enumerators of the enum being emitted. */
	struct dw_enumerator *enums;
	size_t nr_enums;
	size_t enums_cap;
};

struct dw_types *dw_types_new(void)
{
	struct dw_types *t = calloc(1, sizeof(*t));

	if (!t)
		return NULL;
	t->next_id = 1;
	t->big_endian = -1;
	return t;
}

void dw_types_free(struct dw_types *t)
{
	if (!t)
		return;
	free(t->map);
	free(t->map_tmp);
	free(t->slots);
	free(t->dtags);
	free(t->mems.m);
	free(t->nested.m);
	free(t->unwalked.m);
	free(t->enums);
	free(t);
}

void dw_types_reset(struct dw_types *t)
{
	t->map_cap = 0;
	t->map_cnt = 0;
	t->nr_slots = 0;
	t->next_emit = 0;
	t->next_id = 1;
	t->emitting = false;
	t->int_off = 0;
	t->index_id = 0;
	t->saw_array = false;
	t->nr_dtags = 0;
	t->mems.nr = 0;
	t->nested.nr = 0;
	t->open_structs = 0;
	t->unwalked.nr = 0;
	t->nr_enums = 0;
}

/* ---- DIE offset -> id map ---- */

static size_t map_hash(uint64_t key, size_t cap)
{
	key *= 0x9e3779b97f4a7c15ull;
	return (key >> 20) & (cap - 1);
}

static int map_grow(struct dw_types *t)
{
	size_t cap = t->map_cap ? t->map_cap * 2 : 1024, i, h, n = 0;
	struct dw_map_slot *map = t->map, *tmp;

	if (cap > t->map_alloc) {
		map = realloc(t->map, cap * sizeof(*map));
		if (!map)
			return -ENOMEM;
		t->map = map;
		t->map_alloc = cap;
	}
	tmp = btf_grow_mem((void **)&t->map_tmp, &t->map_tmp_cap, sizeof(*tmp), 0, SIZE_MAX,
			   t->map_cnt ? t->map_cnt : 1);
	if (!tmp)
		return -ENOMEM;
	for (i = 0; i < t->map_cap; i++)
		if (map[i].key)
			tmp[n++] = map[i];
	memset(map, 0, cap * sizeof(*map));
	for (i = 0; i < n; i++) {
		for (h = map_hash(tmp[i].key, cap); map[h].key; h = (h + 1) & (cap - 1))
			;
		map[h] = tmp[i];
	}
	t->map_cap = cap;
	return 0;
}

static bool map_get(const struct dw_types *t, Dwarf_Off off, uint32_t *id)
{
	uint64_t key = off + 1;
	size_t h;

	if (!t->map_cap)
		return false;
	for (h = map_hash(key, t->map_cap); t->map[h].key; h = (h + 1) & (t->map_cap - 1)) {
		if (t->map[h].key == key) {
			*id = t->map[h].val;
			return true;
		}
	}
	return false;
}

static int map_put(struct dw_types *t, Dwarf_Off off, uint32_t id)
{
	uint64_t key = off + 1;
	size_t h;
	int err;

	if (t->map_cnt * 2 >= t->map_cap) {
		err = map_grow(t);
		if (err)
			return err;
	}
	for (h = map_hash(key, t->map_cap); t->map[h].key; h = (h + 1) & (t->map_cap - 1)) {
		if (t->map[h].key == key) {
			t->map[h].val = id;
			return 0;
		}
	}
	t->map[h] = (struct dw_map_slot){ key, id };
	t->map_cnt++;
	return 0;
}

/* ---- small DIE readers ---- */

static bool die_udata(struct dw_cu_ctx *ctx, Dwarf_Die *die, int name, Dwarf_Word *val)
{
	Dwarf_Attribute attr;

	return dw_attr(ctx, die, name, &attr) && dwarf_formudata(&attr, val) == 0;
}

static bool attr_udata(Dwarf_Attribute *attr, Dwarf_Word *val)
{
	return attr->valp && dwarf_formudata(attr, val) == 0;
}

/* What one pass over a type DIE's attributes keeps. */
struct type_attrs {
	Dwarf_Attribute name, byte_size, encoding;
	bool declaration, integrate;
};

static int type_attr_cb(Dwarf_Attribute *attr, void *arg)
{
	struct type_attrs *a = arg;
	Dwarf_Attribute *keep = NULL;
	bool flag = false;

	switch (dwarf_whatattr(attr)) {
	case DW_AT_name:
		keep = &a->name;
		break;
	case DW_AT_byte_size:
		keep = &a->byte_size;
		break;
	case DW_AT_encoding:
		keep = &a->encoding;
		break;
	case DW_AT_declaration:
		if (!a->declaration)
			a->declaration = dwarf_formflag(attr, &flag) == 0 && flag;
		break;
	case DW_AT_abstract_origin:
	case DW_AT_specification:
		a->integrate = true;
		break;
	}
	if (keep && !keep->valp)
		*keep = *attr;
	return DWARF_CB_OK;
}

/* Reads @die's attributes; returns its name as dwarf_diename() would. */
static const char *type_attrs_read(struct dw_cu_ctx *ctx, Dwarf_Die *die, struct type_attrs *a)
{
	memset(a, 0, sizeof(*a));
	if (dw_getattrs(ctx, die, type_attr_cb, a) < 0)
		memset(a, 0, sizeof(*a));
	if (a->name.valp)
		return dwarf_formstring(&a->name);
	return a->integrate ? dw_diename(ctx, die) : NULL;
}

const char *dw_annotation_value(struct dw_cu_ctx *ctx, Dwarf_Die *die, const char *kind)
{
	Dwarf_Attribute attr;
	const char *name, *value;

	if (dwarf_tag(die) != DW_TAG_LLVM_annotation)
		return NULL;
	name = dw_diename(ctx, die);
	if (!name || strcmp(name, kind))
		return NULL;
	if (!dw_attr(ctx, die, DW_AT_const_value, &attr))
		return NULL;
	value = dwarf_formstring(&attr);
	return value && value[0] ? value : NULL;
}

bool dw_is_type_tag(int tag)
{
	switch (tag) {
	case DW_TAG_base_type:
	case DW_TAG_pointer_type:
	case DW_TAG_reference_type:
	case DW_TAG_rvalue_reference_type:
	case DW_TAG_const_type:
	case DW_TAG_volatile_type:
	case DW_TAG_restrict_type:
	case DW_TAG_typedef:
	case DW_TAG_structure_type:
	case DW_TAG_class_type:
	case DW_TAG_union_type:
	case DW_TAG_enumeration_type:
	case DW_TAG_array_type:
	case DW_TAG_subroutine_type:
		return true;
	}
	return false;
}

/* ---- id reservation ---- */

static uint16_t count_type_tags(struct dw_cu_ctx *ctx, Dwarf_Die *die)
{
	Dwarf_Die child;
	uint16_t n = 0;

	if (!ctx->opts->type_tag || !dwarf_haschildren(die) || dw_child(ctx, die, &child) != 0)
		return 0;
	do {
		if (dw_annotation_value(ctx, &child, "btf_type_tag"))
			n++;
	} while (dw_sibling(ctx, &child) == 0);
	return n;
}

static struct dw_slot *push_slot(struct dw_types *t, uint16_t nr_ids)
{
	struct dw_slot *s;

	s = btf_reserve_mem((void **)&t->slots, &t->slots_cap, sizeof(*s), t->nr_slots, SIZE_MAX, 1);
	if (!s)
		return NULL;
	t->nr_slots++;
	s->id = t->next_id;
	t->next_id += nr_ids;
	return s;
}

static int resolve(struct dw_cu_ctx *ctx, Dwarf_Die *die, uint32_t *id, int depth);

/*
 * The map's key for @die: its offset, and for a DIE of a DWARF 4 type
 * unit (.debug_types, whose offsets restart at 0) a high bit, so that it
 * cannot take the id of a .debug_info DIE at the same offset.
 */
static Dwarf_Off die_key(struct dw_cu_ctx *ctx, Dwarf_Die *die)
{
	Dwarf_Off off = dw_dieoffset(ctx, die);
	Dwarf_Half version;
	uint8_t unit_type;

	if (die->cu == ctx->rd.cu)
		return off;
	if (!dwarf_cu_info(die->cu, &version, &unit_type, NULL, NULL, NULL, NULL, NULL) &&
	    version < 5 && unit_type == DW_UT_type)
		off |= 1ull << 62;
	return off;
}

/*
 * gcc -fdebug-types-section leaves in the CU a stub with only
 * DW_AT_signature where a type was moved to a type unit: the stub's id is
 * the type's, decoded from the type unit.  0: not a stub.
 */
static int follow_signature(struct dw_cu_ctx *ctx, Dwarf_Die *die, uint32_t *id, int depth)
{
	Dwarf_Die type;
	int err = dw_signature_type(ctx, die, &type);

	if (err <= 0) {
		if (err)
			dw_log_die(ctx, die, "no type unit has this DW_AT_signature", true);
		return err ? -EINVAL : 0;
	}
	if (depth > DW_MAX_LOOKTHROUGH) {
		dw_log_die(ctx, die, "type signature cycle", false);
		return -ELOOP;
	}
	err = resolve(ctx, &type, id, depth + 1);
	if (!err)
		err = map_put(ctx->types, die_key(ctx, die), *id);
	return err ? err : 1;
}

static int reserve(struct dw_cu_ctx *ctx, Dwarf_Die *die, uint32_t *id);

/* reserve(), or for a type-unit stub its type's id (follow_signature()). */
static int reserve_type(struct dw_cu_ctx *ctx, Dwarf_Die *die, uint32_t *id, int depth)
{
	int err = follow_signature(ctx, die, id, depth);

	return err ? (err < 0 ? err : 0) : reserve(ctx, die, id);
}

/* Gives @die its id(s) and queues it for emission; *@id = its own id. */
static int reserve(struct dw_cu_ctx *ctx, Dwarf_Die *die, uint32_t *id)
{
	struct dw_types *t = ctx->types;
	int tag = dwarf_tag(die);
	uint16_t nr_tags = 0;
	struct dw_slot *s;
	const char *name;

	if (tag == DW_TAG_pointer_type)
		nr_tags = count_type_tags(ctx, die);
	s = push_slot(t, nr_tags + 1);
	if (!s)
		return -ENOMEM;
	s->die = *die;
	s->nr_tags = nr_tags;
	*id = s->id + nr_tags;
	if (tag == DW_TAG_array_type)
		t->saw_array = true;
	if (tag == DW_TAG_base_type && !t->int_off) {
		name = dw_diename(ctx, die);
		if (name && !strcmp(name, "int"))
			t->int_off = die_key(ctx, die) + 1;
	}
	return map_put(t, die_key(ctx, die), *id);
}

int dw_types_reserve(struct dw_cu_ctx *ctx, Dwarf_Die *die)
{
	uint32_t id;

	if (map_get(ctx->types, die_key(ctx, die), &id))
		return 0;
	return reserve_type(ctx, die, &id, 0);
}

/* The id of the int arrays are indexed by, reserving a synthetic one. */
static int index_type_id(struct dw_cu_ctx *ctx, uint32_t *id)
{
	struct dw_types *t = ctx->types;
	struct dw_slot *s;

	if (!t->index_id && t->int_off)
		map_get(t, t->int_off - 1, &t->index_id);
	if (!t->index_id) {
		s = push_slot(t, 1);
		if (!s)
			return -ENOMEM;
		memset(&s->die, 0, sizeof(s->die));
		s->index_int = true;
		t->index_id = s->id;
	}
	*id = t->index_id;
	return 0;
}

/* Id of what @die's @name attribute refers to; void if it has none. */
static int ref_id(struct dw_cu_ctx *ctx, Dwarf_Die *die, int name, uint32_t *id, int depth)
{
	Dwarf_Attribute attr;
	Dwarf_Die ref;

	*id = 0;
	if (!dw_attr(ctx, die, name, &attr))
		return 0;
	if (!dw_formref_die(ctx, &attr, &ref)) {
		dw_log_die(ctx, die, "type reference to nowhere", true);
		return -EINVAL;
	}
	return resolve(ctx, &ref, id, depth);
}

static int resolve(struct dw_cu_ctx *ctx, Dwarf_Die *die, uint32_t *id, int depth)
{
	Dwarf_Off off = die_key(ctx, die);
	int tag, err;

	if (map_get(ctx->types, off, id))
		return 0;
	tag = dwarf_tag(die);
	if (dw_is_type_tag(tag))
		return reserve_type(ctx, die, id, depth);
	*id = 0;
	if (tag == DW_TAG_atomic_type || tag == DW_TAG_immutable_type) {
		if (depth > DW_MAX_LOOKTHROUGH) {
			dw_log_die(ctx, die, "type qualifier cycle", false);
			return -ELOOP;
		}
		err = ref_id(ctx, die, DW_AT_type, id, depth + 1);
		if (err)
			return err;
	}
	/* unspecified_type (C++ nullptr_t, asm "void") and the rest: void. */
	return map_put(ctx->types, off, *id);
}

/* ---- emission ---- */

static int is_big_endian(struct dw_cu_ctx *ctx)
{
	struct dw_types *t = ctx->types;
	GElf_Ehdr ehdr;
	Elf *elf;

	if (t->big_endian < 0) {
		elf = dwarf_getelf(ctx->dw);
		t->big_endian = elf && gelf_getehdr(elf, &ehdr) &&
				ehdr.e_ident[EI_DATA] == ELFDATA2MSB;
	}
	return t->big_endian;
}

static bool pow2(Dwarf_Word v)
{
	return v && !(v & (v - 1));
}

static int emit_base(struct dw_cu_ctx *ctx, Dwarf_Die *die)
{
	struct type_attrs a;
	const char *name = type_attrs_read(ctx, die, &a);
	Dwarf_Word enc = 0, size = 0;
	int flags = 0;

	attr_udata(&a.encoding, &enc);
	attr_udata(&a.byte_size, &size);
	if (enc == DW_ATE_float && ctx->opts->encode_float && name && name[0] &&
	    (size == 2 || size == 4 || size == 8 || size == 12 || size == 16))
		return btf__add_float(ctx->cu->btf, name, size);
	if (enc == DW_ATE_boolean)
		flags = BTF_INT_BOOL;
	else if (enc == DW_ATE_signed || enc == DW_ATE_signed_char)
		flags = BTF_INT_SIGNED;
	/*
	 * DWARF 5 producers emit base types like DW_ATE_unsigned_24 for
	 * location expressions only; BTF cannot hold them, pahole renames.
	 */
	if (!name || !name[0] || !pow2(size) || size > 16) {
		name = "__SANITIZED_FAKE_INT__";
		size = 4;
	}
	return btf__add_int(ctx->cu->btf, name, size, flags);
}

static int emit_ptr(struct dw_cu_ctx *ctx, const struct dw_slot *s)
{
	Dwarf_Die die = s->die, child;
	uint32_t ref;
	const char *value;
	int err, id;

	err = ref_id(ctx, &die, DW_AT_type, &ref, 0);
	if (err)
		return err;
	if (s->nr_tags && dw_child(ctx, &die, &child) == 0) {
		do {
			value = dw_annotation_value(ctx, &child, "btf_type_tag");
			if (!value)
				continue;
			id = btf__add_type_tag(ctx->cu->btf, value, ref);
			if (id < 0)
				return id;
			ref = id;
		} while (dw_sibling(ctx, &child) == 0);
	}
	return btf__add_ptr(ctx->cu->btf, ref);
}

static int push_decl_tag(struct dw_types *t, const char *value, uint32_t target, int comp)
{
	struct dw_pending_tag *p;

	p = btf_reserve_mem((void **)&t->dtags, &t->dtags_cap, sizeof(*p), t->nr_dtags, SIZE_MAX, 1);
	if (!p)
		return -ENOMEM;
	p->value = value;
	p->target = target;
	p->component = comp;
	t->nr_dtags++;
	return 0;
}

/* Queues the btf_decl_tag annotations among @die's children. */
static int collect_decl_tags(struct dw_cu_ctx *ctx, Dwarf_Die *die, uint32_t target, int comp)
{
	Dwarf_Die child;
	const char *value;
	int err;

	if (!ctx->opts->decl_tag || !dwarf_haschildren(die) || dw_child(ctx, die, &child) != 0)
		return 0;
	do {
		value = dw_annotation_value(ctx, &child, "btf_decl_tag");
		if (!value)
			continue;
		err = push_decl_tag(ctx->types, value, target, comp);
		if (err)
			return err;
	} while (dw_sibling(ctx, &child) == 0);
	return 0;
}

static int emit_typedef(struct dw_cu_ctx *ctx, Dwarf_Die *die, uint32_t self)
{
	const char *name = dw_diename(ctx, die);
	uint32_t ref;
	int err;

	if (!name || !name[0]) {
		dw_log_die(ctx, die, "typedef without a name", false);
		return -EINVAL;
	}
	err = ref_id(ctx, die, DW_AT_type, &ref, 0);
	if (err)
		return err;
	err = collect_decl_tags(ctx, die, self, -1);
	if (err)
		return err;
	return btf__add_typedef(ctx->cu->btf, name, ref);
}

static int emit_ref(struct dw_cu_ctx *ctx, Dwarf_Die *die, unsigned int kind)
{
	uint32_t ref;
	int err = ref_id(ctx, die, DW_AT_type, &ref, 0);

	if (err)
		return err;
	if (kind == BTF_KIND_CONST)
		return btf__add_const(ctx->cu->btf, ref);
	if (kind == BTF_KIND_VOLATILE)
		return btf__add_volatile(ctx->cu->btf, ref);
	return btf__add_restrict(ctx->cu->btf, ref);
}

/* What one pass over a member's attributes keeps. */
struct member_attrs {
	Dwarf_Attribute type, name, loc, bit_size, data_bit_off, bit_off, byte_size;
	bool external, declaration, integrate;
};

static int member_attr_cb(Dwarf_Attribute *attr, void *arg)
{
	struct member_attrs *a = arg;
	Dwarf_Attribute *keep = NULL;
	bool flag = false;

	switch (dwarf_whatattr(attr)) {
	case DW_AT_type:
		keep = &a->type;
		break;
	case DW_AT_name:
		keep = &a->name;
		break;
	case DW_AT_data_member_location:
		keep = &a->loc;
		break;
	case DW_AT_bit_size:
		keep = &a->bit_size;
		break;
	case DW_AT_data_bit_offset:
		keep = &a->data_bit_off;
		break;
	case DW_AT_bit_offset:
		keep = &a->bit_off;
		break;
	case DW_AT_byte_size:
		keep = &a->byte_size;
		break;
	case DW_AT_external:
		if (!a->external)
			a->external = dwarf_formflag(attr, &flag) == 0 && flag;
		break;
	case DW_AT_declaration:
		if (!a->declaration)
			a->declaration = dwarf_formflag(attr, &flag) == 0 && flag;
		break;
	case DW_AT_abstract_origin:
	case DW_AT_specification:
		a->integrate = true;
		break;
	}
	/* dwarf_attr() finds the first of duplicates: keep that one. */
	if (keep && !keep->valp)
		*keep = *attr;
	return DWARF_CB_OK;
}

/* Byte offset of a member: a constant, or DW_OP_plus_uconst (DWARF 2). */
static Dwarf_Word member_byte_offset(Dwarf_Attribute *attr)
{
	Dwarf_Word off = 0;
	Dwarf_Op *ops;
	size_t nops;

	if (!attr->valp)
		return 0;
	if (dwarf_formudata(attr, &off) == 0)
		return off;
	if (dwarf_getlocation(attr, &ops, &nops) == 0 && nops == 1 &&
	    ops[0].atom == DW_OP_plus_uconst)
		return ops[0].number;
	return 0;
}

/* Bit offset and bitfield size of a member, in BTF's (DWARF 4+) terms. */
static void member_bits(struct dw_cu_ctx *ctx, struct member_attrs *a, struct dw_member *m)
{
	Dwarf_Word data_bit_off, dw2_bit_off, size = 0, bits = 0, unit;
	Dwarf_Die type;

	m->bit_off = member_byte_offset(&a->loc) * 8;
	m->bit_size = 0;
	if (!attr_udata(&a->bit_size, &bits))
		return;
	if (attr_udata(&a->data_bit_off, &data_bit_off)) {
		m->bit_off = data_bit_off;
	} else if (attr_udata(&a->bit_off, &dw2_bit_off)) {
		/* DWARF 2/3: counted from the storage unit's most significant bit. */
		if (a->type.valp && dw_formref_die(ctx, &a->type, &type))
			dwarf_aggregate_size(&type, &size);
		unit = size;
		attr_udata(&a->byte_size, &unit);
		if (is_big_endian(ctx))
			m->bit_off += dw2_bit_off;
		else
			m->bit_off += unit * 8 - dw2_bit_off - bits;
	}
	m->bit_size = bits;
}

/*
 * Reads member DIE @die into @m with one dwarf_getattrs() pass.  Returns
 * 1 for a data member, 0 for a C++ static member (a declaration).
 */
static int member_read(struct dw_cu_ctx *ctx, Dwarf_Die *die, struct dw_member *m)
{
	struct member_attrs a;
	struct dw_member_attrs fast;

	/* Most members: read from their bytes, as member_bits() would. */
	if (dw_member_attrs(ctx, die, &fast)) {
		m->addr = die->addr;
		m->type_valp = fast.type.valp;
		m->type_form = fast.type.form;
		m->name = fast.name;
		m->bit_off = fast.has_byte_off ? fast.byte_off * 8 : 0;
		m->bit_size = 0;
		if (fast.has_bit_size) {
			if (fast.has_data_bit_off)
				m->bit_off = fast.data_bit_off;
			m->bit_size = fast.bit_size;
		}
		m->has_children = fast.has_children;
		return 1;
	}

	/* Zeroed only here: 176 bytes per member were half of member_push(). */
	memset(&a, 0, sizeof(a));
	if (dw_getattrs(ctx, die, member_attr_cb, &a) < 0)
		memset(&a, 0, sizeof(a));
	if (a.external || a.declaration)
		return 0;
	m->addr = die->addr;
	m->type_valp = a.type.valp;
	m->type_form = a.type.form;
	if (a.name.valp)
		m->name = dwarf_formstring(&a.name);
	else
		m->name = a.integrate ? dw_diename(ctx, die) : NULL;
	member_bits(ctx, &a, m);
	m->has_children = dwarf_haschildren(die);
	return 1;
}

/* Reads member @die onto @st (nothing for a static member). */
static int member_push(struct dw_cu_ctx *ctx, struct dw_member_stack *st, Dwarf_Die *die)
{
	struct dw_member *m;

	/* Not zeroed: member_read() sets every field of a member it keeps. */
	m = btf_grow_mem((void **)&st->m, &st->cap, sizeof(*m), st->nr, UINT32_MAX, 1);
	if (!m)
		return -ENOMEM;
	if (member_read(ctx, die, m))
		st->nr++;
	return 0;
}

size_t dw_types_struct_begin(struct dw_cu_ctx *ctx)
{
	ctx->types->open_structs++;
	return ctx->types->mems.nr;
}

int dw_types_struct_member(struct dw_cu_ctx *ctx, Dwarf_Die *die)
{
	return member_push(ctx, &ctx->types->mems, die);
}

int dw_types_struct_end(struct dw_cu_ctx *ctx, Dwarf_Die *die, size_t mark, bool annots)
{
	struct dw_types *t = ctx->types;
	size_t n = t->mems.nr - mark;
	struct dw_member *dst;
	struct dw_slot *s;
	uint32_t id;
	int err;

	/* Its members are [mark, nr): those of structs nested in it moved out. */
	t->open_structs--;
	if (map_get(t, die_key(ctx, die), &id)) {
		t->mems.nr = mark;
		return 0;
	}
	err = follow_signature(ctx, die, &id, 0);
	if (err) {
		t->mems.nr = mark;
		return err < 0 ? err : 0;
	}
	err = reserve(ctx, die, &id);
	if (err)
		return err;
	s = &t->slots[t->nr_slots - 1];
	s->has_mems = true;
	s->has_annots = annots;
	s->nr_mems = n;
	s->nested = t->open_structs > 0;
	if (!s->nested) {
		s->first_mem = mark;
		return 0;
	}
	dst = btf_grow_mem((void **)&t->nested.m, &t->nested.cap, sizeof(*dst), t->nested.nr,
			   UINT32_MAX, n ? n : 1);
	if (!dst)
		return -ENOMEM;
	if (n)
		memcpy(dst, t->mems.m + mark, n * sizeof(*dst));
	s->first_mem = t->nested.nr;
	t->nested.nr += n;
	t->mems.nr = mark;
	return 0;
}

/*
 * Emits @n members from @m, of a struct in unit @cu; @m is not moved by
 * what this emits.
 */
static int emit_members(struct dw_cu_ctx *ctx, Dwarf_CU *cu, struct dw_member *m, size_t n,
			uint32_t self)
{
	uint32_t type;
	size_t i;
	int err;

	for (i = 0; i < n; i++) {
		/* libdw finds the abbreviation of a DIE without one when asked. */
		Dwarf_Die die = { .addr = m[i].addr, .cu = cu };

		type = 0;
		if (m[i].type_valp) {
			Dwarf_Attribute attr = { .code = DW_AT_type, .form = m[i].type_form,
						 .valp = m[i].type_valp, .cu = cu };
			Dwarf_Die ref;

			if (!dw_formref_die(ctx, &attr, &ref)) {
				dw_log_die(ctx, &die, "type reference to nowhere", true);
				return -EINVAL;
			}
			err = resolve(ctx, &ref, &type, 0);
			if (err)
				return err;
		}
		err = btf__add_field(ctx->cu->btf, m[i].name, type, m[i].bit_off, m[i].bit_size);
		if (err) {
			dw_log_die(ctx, &die, "member not encodable in BTF", false);
			return err;
		}
		if (m[i].has_children) {
			err = collect_decl_tags(ctx, &die, self, i);
			if (err)
				return err;
		}
	}
	return 0;
}

/* A struct the walk did not read (another CU's): its members read now. */
static int emit_unwalked_members(struct dw_cu_ctx *ctx, Dwarf_Die *die, uint32_t self)
{
	struct dw_member_stack *st = &ctx->types->unwalked;
	size_t mark = st->nr;
	Dwarf_Die child;
	int err = 0;

	if (!dwarf_haschildren(die) || dw_child(ctx, die, &child) != 0)
		return 0;
	do {
		if (dwarf_tag(&child) == DW_TAG_member)
			err = member_push(ctx, st, &child);
	} while (!err && dw_sibling(ctx, &child) == 0);
	if (!err)
		err = emit_members(ctx, die->cu, st->m + mark, st->nr - mark, self);
	st->nr = mark;
	return err;
}

static int emit_struct(struct dw_cu_ctx *ctx, const struct dw_slot *s)
{
	Dwarf_Die die = s->die;
	bool is_union = dwarf_tag(&die) == DW_TAG_union_type;
	uint32_t self = s->id + s->nr_tags;
	struct dw_member_stack *mems = s->nested ? &ctx->types->nested : &ctx->types->mems;
	struct type_attrs a;
	const char *name = type_attrs_read(ctx, &die, &a);
	Dwarf_Word size = 0;
	int id, err = 0;

	if (a.declaration) {
		if (!name || !name[0]) {
			dw_log_die(ctx, &die, "anonymous declaration", false);
			return -EINVAL;
		}
		return btf__add_fwd(ctx->cu->btf, name, is_union ? BTF_FWD_UNION : BTF_FWD_STRUCT);
	}
	attr_udata(&a.byte_size, &size);
	id = is_union ? btf__add_union(ctx->cu->btf, name, size) :
			btf__add_struct(ctx->cu->btf, name, size);
	if (id < 0)
		return id;
	if (!s->has_mems || s->has_annots)
		err = collect_decl_tags(ctx, &die, self, -1);
	if (err)
		return err;
	if (s->has_mems)
		err = emit_members(ctx, die.cu, mems->m + s->first_mem, s->nr_mems, self);
	else
		err = emit_unwalked_members(ctx, &die, self);
	return err ? err : id;
}

/* Signedness of an enum from its underlying type, typedefs looked through. */
static bool enum_type_signed(struct dw_cu_ctx *ctx, Dwarf_Die *die)
{
	Dwarf_Attribute attr;
	Dwarf_Die type = *die;
	Dwarf_Word enc;
	int i;

	for (i = 0; i < DW_MAX_LOOKTHROUGH; i++) {
		if (!dw_attr(ctx, &type, DW_AT_type, &attr) || !dw_formref_die(ctx, &attr, &type))
			return false;
		if (dwarf_tag(&type) == DW_TAG_base_type)
			return die_udata(ctx, &type, DW_AT_encoding, &enc) &&
			       (enc == DW_ATE_signed || enc == DW_ATE_signed_char);
	}
	return false;
}

/*
 * An enumerator's value (@attr: its DW_AT_const_value, .valp NULL if
 * none), sign-extended when the enum is signed.  *@neg: written as a
 * negative DW_FORM_sdata (a data8 with the top bit set, as in
 * HMM_PFN_VALID = 1UL << 63, is not negative).
 */
static int64_t enumerator_value(Dwarf_Attribute *attr, bool is_signed, Dwarf_Word size,
				bool *neg)
{
	Dwarf_Sword sval = 0;
	Dwarf_Word uval = 0;
	unsigned int form;

	*neg = false;
	if (!attr->valp)
		return 0;
	form = dwarf_whatform(attr);
	if (form == DW_FORM_sdata || form == DW_FORM_implicit_const) {
		dwarf_formsdata(attr, &sval);
		*neg = sval < 0;
		return sval;
	}
	dwarf_formudata(attr, &uval);
	if (is_signed && size < 8 && (uval >> (size * 8 - 1)) & 1)
		uval |= ~0ull << (size * 8);
	return (int64_t)uval;
}

/*
 * Reads the enumerators of @die into ctx->types->enums (one walk over
 * the children: signedness needs every value before the first is added).
 */
static int read_enumerators(struct dw_cu_ctx *ctx, Dwarf_Die *die)
{
	struct dw_types *t = ctx->types;
	struct dw_enumerator *e;
	Dwarf_Die child;

	t->nr_enums = 0;
	if (dw_child(ctx, die, &child) != 0)
		return 0;
	do {
		if (dwarf_tag(&child) != DW_TAG_enumerator)
			continue;
		e = btf_reserve_mem((void **)&t->enums, &t->enums_cap, sizeof(*e), t->nr_enums,
				SIZE_MAX, 1);
		if (!e)
			return -ENOMEM;
		e->die = child;
		e->name = dw_diename(ctx, &child);
		if (!dw_attr(ctx, &child, DW_AT_const_value, &e->val))
			e->val.valp = NULL;
		t->nr_enums++;
	} while (dw_sibling(ctx, &child) == 0);
	return 0;
}

/* Whether the enum is signed: its type says so, or a value is negative. */
static bool enum_signed(struct dw_cu_ctx *ctx, Dwarf_Die *die, Dwarf_Word size)
{
	struct dw_types *t = ctx->types;
	bool neg;
	size_t i;

	if (enum_type_signed(ctx, die))
		return true;
	for (i = 0; i < t->nr_enums; i++) {
		enumerator_value(&t->enums[i].val, false, size, &neg);
		if (neg)
			return true;
	}
	return false;
}

static int add_enumerator(struct dw_cu_ctx *ctx, bool is64, bool is_signed, const char *name,
			  int64_t v)
{
	if (is64)
		return btf__add_enum64_value(ctx->cu->btf, name, v);
	/* Without ENUM64 pahole keeps the low 32 bits. */
	if (is_signed)
		return btf__add_enum_value(ctx->cu->btf, name, (int32_t)v);
	return btf__add_enum_value(ctx->cu->btf, name, (uint32_t)v);
}

static int emit_enum(struct dw_cu_ctx *ctx, Dwarf_Die *die)
{
	struct dw_types *tt = ctx->types;
	struct type_attrs a;
	const char *name = type_attrs_read(ctx, die, &a);
	Dwarf_Word size = 4;
	bool is_signed, is64, neg;
	struct dw_enumerator *e;
	struct btf_type *t;
	int id, err;
	size_t i;

	attr_udata(&a.byte_size, &size);
	if (size != 1 && size != 2 && size != 4 && size != 8) {
		dw_log_die(ctx, die, "enum size not encodable in BTF", false);
		return -EINVAL;
	}
	if (a.declaration)
		return btf__add_enum(ctx->cu->btf, name, size);
	err = read_enumerators(ctx, die);
	if (err)
		return err;
	is_signed = enum_signed(ctx, die, size);
	is64 = size > 4 && ctx->opts->encode_enum64;
	id = is64 ? btf__add_enum64(ctx->cu->btf, name, size, is_signed) :
		    btf__add_enum(ctx->cu->btf, name, size);
	if (id < 0)
		return id;
	for (i = 0; i < tt->nr_enums; i++) {
		e = &tt->enums[i];
		err = add_enumerator(ctx, is64, is_signed, e->name,
				     enumerator_value(&e->val, is_signed, size, &neg));
		if (err) {
			dw_log_die(ctx, &e->die, "enumerator not encodable in BTF", false);
			return err;
		}
	}
	t = btf__type_by_id_mut(ctx->cu->btf, id);
	if (is_signed)
		t->info |= 1u << 31;
	return id;
}

/* Element count of one DW_TAG_subrange_type; 0 when unknown (flexible). */
static uint64_t subrange_count(struct dw_cu_ctx *ctx, Dwarf_Die *die)
{
	Dwarf_Word count, upper, lower = 0;
	Dwarf_Attribute attr;
	Dwarf_Sword supper;

	if (die_udata(ctx, die, DW_AT_count, &count))
		return count;
	if (!dw_attr(ctx, die, DW_AT_upper_bound, &attr))
		return 0;
	if (dwarf_whatform(&attr) == DW_FORM_sdata) {
		if (dwarf_formsdata(&attr, &supper) != 0 || supper < 0)
			return 0;
		upper = supper;
	} else if (dwarf_formudata(&attr, &upper) != 0) {
		return 0; /* a VLA: bound is an expression */
	}
	die_udata(ctx, die, DW_AT_lower_bound, &lower);
	return upper >= lower ? upper - lower + 1 : 0;
}

/* Elements of array @die, its dimensions multiplied (0: one is unknown). */
static uint64_t array_nelems(struct dw_cu_ctx *ctx, Dwarf_Die *die)
{
	uint64_t nelems = 1;
	Dwarf_Die child;

	if (dw_child(ctx, die, &child) == 0) {
		do {
			if (dwarf_tag(&child) == DW_TAG_subrange_type)
				nelems *= subrange_count(ctx, &child);
		} while (dw_sibling(ctx, &child) == 0);
	}
	return nelems;
}

/* ---- sizes through type-unit stubs ---- */

int dw_peel_type(struct dw_cu_ctx *ctx, Dwarf_Die *t)
{
	int i, sig;

	for (i = 0; i < DW_MAX_LOOKTHROUGH; i++) {
		if (dwarf_peel_type(t, t) != 0)
			return -1;
		sig = dw_signature_type(ctx, t, t);
		if (sig <= 0)
			return sig;
	}
	return -1;
}

static int type_size(struct dw_cu_ctx *ctx, Dwarf_Die *t, Dwarf_Word *size, int depth)
{
	Dwarf_Die p = *t, elem;
	Dwarf_Attribute attr;
	Dwarf_Word esize;

	if (dwarf_aggregate_size(t, size) == 0)
		return 0;
	/* libdw stops at a stub: behind a typedef or qualifier, or as the element. */
	if (depth > DW_MAX_LOOKTHROUGH || dw_peel_type(ctx, &p) != 0)
		return -1;
	if (dwarf_tag(&p) != DW_TAG_array_type)
		return dwarf_aggregate_size(&p, size);
	if (!dw_attr(ctx, &p, DW_AT_type, &attr) || !dw_formref_die(ctx, &attr, &elem) ||
	    type_size(ctx, &elem, &esize, depth + 1) != 0)
		return -1;
	*size = array_nelems(ctx, &p) * esize;
	return 0;
}

int dw_type_size(struct dw_cu_ctx *ctx, Dwarf_Die *t, Dwarf_Word *size)
{
	return type_size(ctx, t, size, 0);
}

/* pahole flattens int a[2][3] into one ARRAY of 6 ints. */
static int emit_array(struct dw_cu_ctx *ctx, Dwarf_Die *die)
{
	uint32_t elem, index;
	uint64_t nelems;
	int err;

	err = ref_id(ctx, die, DW_AT_type, &elem, 0);
	if (!err)
		err = index_type_id(ctx, &index);
	if (err)
		return err;
	nelems = array_nelems(ctx, die);
	if (nelems > UINT32_MAX) {
		dw_log_die(ctx, die, "array too large for BTF", false);
		return -E2BIG;
	}
	return btf__add_array(ctx->cu->btf, index, elem, nelems);
}

static int emit_proto(struct dw_cu_ctx *ctx, Dwarf_Die *die)
{
	uint32_t ret, type;
	Dwarf_Die child;
	int id, err, tag;

	err = ref_id(ctx, die, DW_AT_type, &ret, 0);
	if (err)
		return err;
	id = btf__add_func_proto(ctx->cu->btf, ret);
	if (id < 0 || dw_child(ctx, die, &child) != 0)
		return id;
	do {
		tag = dwarf_tag(&child);
		if (tag == DW_TAG_unspecified_parameters) {
			err = btf__add_func_param(ctx->cu->btf, NULL, 0);
		} else if (tag == DW_TAG_formal_parameter) {
			err = ref_id(ctx, &child, DW_AT_type, &type, 0);
			if (!err)
				err = btf__add_func_param(ctx->cu->btf, dw_diename(ctx, &child), type);
		}
		if (err)
			return err;
	} while (dw_sibling(ctx, &child) == 0);
	return id;
}

static int emit_die(struct dw_cu_ctx *ctx, const struct dw_slot *s)
{
	Dwarf_Die die = s->die;
	uint32_t self = s->id + s->nr_tags;

	switch (dwarf_tag(&die)) {
	case DW_TAG_base_type:
		return emit_base(ctx, &die);
	case DW_TAG_pointer_type:
	case DW_TAG_reference_type:
	case DW_TAG_rvalue_reference_type:
		return emit_ptr(ctx, s);
	case DW_TAG_const_type:
		return emit_ref(ctx, &die, BTF_KIND_CONST);
	case DW_TAG_volatile_type:
		return emit_ref(ctx, &die, BTF_KIND_VOLATILE);
	case DW_TAG_restrict_type:
		return emit_ref(ctx, &die, BTF_KIND_RESTRICT);
	case DW_TAG_typedef:
		return emit_typedef(ctx, &die, self);
	case DW_TAG_structure_type:
	case DW_TAG_class_type:
	case DW_TAG_union_type:
		return emit_struct(ctx, s);
	case DW_TAG_enumeration_type:
		return emit_enum(ctx, &die);
	case DW_TAG_array_type:
		return emit_array(ctx, &die);
	case DW_TAG_subroutine_type:
		return emit_proto(ctx, &die);
	}
	dw_log_die(ctx, &die, "not a type", false);
	return -EINVAL;
}

/* Emits queued slots, including those queued while emitting. */
static int drain(struct dw_cu_ctx *ctx)
{
	struct dw_types *t = ctx->types;
	struct dw_slot s;
	int id = 0; /* nothing queued: nothing failed */

	t->emitting = true;
	while (t->next_emit < t->nr_slots) {
		/* Copy: emitting may queue more and move the array. */
		s = t->slots[t->next_emit++];
		if (btf__type_cnt(ctx->cu->btf) != s.id) {
			dw_log_die(ctx, &s.die, "type id drift", false);
			id = -EINVAL;
			break;
		}
		/*
		 * pahole keeps one index type per encoder, the first CU's
		 * "int", and synthesizes a signed 32-bit "int" only when it
		 * has none yet; an identical INT dedups into that one.
		 */
		if (s.index_int)
			id = btf__add_int(ctx->cu->btf, "int", 4, BTF_INT_SIGNED);
		else
			id = emit_die(ctx, &s);
		if (id < 0)
			break;
	}
	t->emitting = false;
	return id < 0 ? id : 0;
}

int dw_types_encode(struct dw_cu_ctx *ctx)
{
	struct dw_types *t = ctx->types;
	struct dw_pending_tag *p;
	uint32_t id;
	size_t i;
	int err;

	/* pahole places the index int right after the CU's own types. */
	if (t->saw_array) {
		err = index_type_id(ctx, &id);
		if (err)
			return err;
	}
	err = drain(ctx);
	if (err)
		return err;
	for (i = 0; i < t->nr_dtags; i++) {
		p = &t->dtags[i];
		err = btf__add_decl_tag(ctx->cu->btf, p->value, p->target, p->component);
		if (err < 0)
			return err;
	}
	t->nr_dtags = 0;
	return 0;
}

int dw_type_id(struct dw_cu_ctx *ctx, Dwarf_Die *die, uint32_t *id)
{
	int err;

	*id = 0;
	if (!die)
		return 0;
	err = resolve(ctx, die, id, 0);
	if (err || ctx->types->emitting)
		return err;
	return drain(ctx);
}

int dw_str(struct dw_cu_ctx *ctx, const char *s)
{
	return btf_add_name(ctx->cu->names, s);
}

/* ---- cycle check ---- */

/* Kinds whose reference must end at a non-reference type. */
static bool is_chain_kind(const struct btf_type *t)
{
	switch (btf_kind(t)) {
	case BTF_KIND_PTR:
	case BTF_KIND_TYPEDEF:
	case BTF_KIND_VOLATILE:
	case BTF_KIND_CONST:
	case BTF_KIND_RESTRICT:
	case BTF_KIND_TYPE_TAG:
	case BTF_KIND_ARRAY:
		return true;
	case BTF_KIND_UNKN:
	case BTF_KIND_INT:
	case BTF_KIND_STRUCT:
	case BTF_KIND_UNION:
	case BTF_KIND_ENUM:
	case BTF_KIND_FWD:
	case BTF_KIND_FUNC:
	case BTF_KIND_FUNC_PROTO:
	case BTF_KIND_VAR:
	case BTF_KIND_DATASEC:
	case BTF_KIND_FLOAT:
	case BTF_KIND_DECL_TAG:
	case BTF_KIND_ENUM64:
	case BTF_KIND_LOC_PARAM:
	case BTF_KIND_LOC_PROTO:
	case BTF_KIND_LOCSEC:
	case NR_BTF_KINDS:
		break;
	}
	return false;
}

static uint32_t chain_next(const struct btf_type *t)
{
	const struct btf_array *a;

	if (btf_kind(t) != BTF_KIND_ARRAY)
		return t->type;
	a = btf_type_body(t);
	return a->type;
}

/*
 * A typedef/qualifier/pointer/array chain that comes back to itself
 * without passing a struct, union or prototype is nonsense DWARF (and
 * would loop every consumer): colour walk, linear in the number of types.
 */
int dw_types_finish(struct dw_cu_ctx *ctx)
{
	const struct btf *btf = ctx->cu->btf;
	uint32_t n = btf__type_cnt(btf), id, cur;
	const struct btf_type *t;
	uint8_t *state;
	int err = 0;

	state = calloc(n, 1);
	if (!state)
		return -ENOMEM;
	for (id = 1; id < n && !err; id++) {
		for (cur = id; cur && cur < n && !state[cur]; cur = chain_next(t)) {
			t = btf__type_by_id(btf, cur);
			if (!is_chain_kind(t))
				break;
			state[cur] = 1;
		}
		if (cur && cur < n && state[cur] == 1) {
			btf_log_printf(ctx->log, "%s: type cycle through BTF type %u ('%s')",
				       ctx->cu->name ? ctx->cu->name : "CU", cur,
				       btf__name_by_id(btf, cur));
			err = -ELOOP;
		}
		for (cur = id; cur && cur < n && state[cur] == 1; cur = chain_next(t)) {
			t = btf__type_by_id(btf, cur);
			state[cur] = 2;
		}
	}
	free(state);
	return err;
}
