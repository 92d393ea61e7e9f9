// SPDX-License-Identifier: GPL-2.0
/*
 * locs.c - inline sites into the seed layout (DESIGN.md section 3): per
 * site a FUNC_PROTO (the inlined function's), a LOC_PROTO listing one
 * LOC_PARAM per parameter (two, the first with CONTINUE, for a value in a
 * register pair; 0 when not recoverable), and a 16-byte entry in a LOCSEC
 * named "inline".  Entries are sorted by (name, offset) across all the
 * LOCSECs, at most 65535 per LOCSEC, so a tracer can binary-search a name.
 */
#include "enc_internal.h"

#include <elf.h>
#include <stdlib.h>
#include <string.h>

struct loc_entry {
	const char *name;
	uint32_t func_proto;
	uint32_t loc_proto;
	uint32_t offset;
};

struct site_ctx {
	struct enc_state *s;
	struct btf *dst;
	struct enc_memo *protos, *params, *loc_protos;
	int text; /* ELF section index of .text */
};

/*
 * The range of addresses whose sites are kept, and the base of offsets.
 * A relocatable object (a module) has section-relative addresses: its
 * sites in .text are kept, at their offset in it, which is their offset
 * from the module's .text once loaded (seed 010 adds /proc/modules' base).
 */
static int text_range(const struct enc_state *s, uint64_t *lo, uint64_t *hi, uint64_t *base)
{
	int idx = enc_elf_sec_by_name(&s->elf, ".text");

	if (idx < 0) {
		btf_log_printf(s->log, "%s: no .text section for inline site offsets", s->o->path);
		return -ENOENT;
	}
	*lo = s->elf.is_rel ? 0 : s->elf.secs[idx].addr;
	*hi = *lo + s->elf.secs[idx].size;
	if (s->elf.is_rel) {
		*base = 0;
		return 0;
	}
	/* vmlinux: offsets from _text, which the kernel exports as its base. */
	*base = s->elf.has_text_sym ? s->elf.text_sym : *lo;
	return 0;
}

static int site_proto(struct site_ctx *c, const struct enc_site *site)
{
	struct enc_state *s = c->s;
	uint32_t key[2 + 2 * 64], n = 0, i;
	int id, err;

	key[n++] = site->ret_type;
	key[n++] = site->nr_params;
	for (i = 0; i < site->nr_params && n + 2 <= sizeof(key) / sizeof(key[0]); i++) {
		key[n++] = s->params[site->first_param + i].name_off;
		key[n++] = s->params[site->first_param + i].type;
	}
	id = site->nr_params <= 64 ? enc_memo_get(c->protos, key, n * 4) : 0;
	if (id)
		return id;
	id = btf__add_func_proto(c->dst, site->ret_type);
	for (i = 0; id > 0 && i < site->nr_params; i++) {
		const struct dw_param *p = &s->params[site->first_param + i];

		err = btf__add_func_param(c->dst, btf__str_by_offset(s->names, p->name_off), p->type);
		if (err)
			return err;
	}
	if (id > 0 && site->nr_params <= 64 && (err = enc_memo_put(c->protos, key, n * 4, id)))
		return err;
	return id;
}

static int loc_param(struct site_ctx *c, int32_t size, bool is_value, uint64_t value,
		     uint16_t reg, uint16_t flags, int32_t offset)
{
	struct {
		int32_t size;
		uint32_t is_value;
		uint64_t value;
		uint16_t reg, flags;
		int32_t offset;
	} key = { size, is_value, is_value ? value : 0, is_value ? 0 : reg, is_value ? 0 : flags,
		  is_value ? 0 : offset };
	int id = enc_memo_get(c->params, &key, sizeof(key));

	if (id)
		return id;
	id = btf__add_loc_param(c->dst, size, is_value, value, reg, flags, offset);
	if (id > 0 && enc_memo_put(c->params, &key, sizeof(key), id))
		return -ENOMEM;
	return id;
}

static bool size_ok(int size)
{
	int a = size < 0 ? -size : size;

	return a == 1 || a == 2 || a == 4 || a == 8;
}

/* Is type @id a pointer once modifiers and typedefs are peeled, as the
 * consumer peels them? */
static bool is_pointer(const struct btf *btf, uint32_t id)
{
	const struct btf_type *t;
	unsigned int hops, k;

	for (hops = 0; hops < 64; hops++) {
		t = btf__type_by_id(btf, id);
		if (!t)
			return false;
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

/*
 * Registers seed 010's consumer can read from pt_regs: on x86-64 DWARF
 * 0-15 (rax..r15); anything else (xmm, st) makes it fail the whole
 * attachment, so such a parameter is left out.
 */
static bool reg_ok(const struct enc_state *s, uint16_t reg)
{
	return s->elf.machine != EM_X86_64 || reg <= 15;
}

/*
 * The value a constant LOC_PARAM stores so that seed 010's consumer
 * computes the parameter's run-time value.  The consumer adds the run-time
 * text base (_text, or a module's load address) to a constant exactly
 * when the FUNC_PROTO parameter is a pointer and the size is 8, so:
 *
 *   DW_OP_addr X, pointer parameter      -> X - base (relocates with it)
 *   plain number, non-pointer parameter  -> the number
 *   DW_OP_addr X, non-pointer parameter  -> left out: the consumer would
 *     read the link-time address, wrong once KASLR or module loading moves
 *     the text (unsigned long holding an address)
 *   plain number, pointer parameter      -> left out: NULL or an ERR_PTR
 *     would come out as number + run-time base, and the run-time base is
 *     not known here (storing -link_base is right only without KASLR)
 *
 * Returns false for the left-out cases.
 */
static bool const_value(const struct site_ctx *c, const struct dw_loc *l, bool ptr, uint64_t base,
			uint64_t *out)
{
	bool relocated = ptr && (l->size == 8 || l->size == -8);

	/* A module: only an address in its .text moves with the base. */
	if (l->kind == DW_LOC_ADDR && c->s->elf.is_rel && l->reg != c->text)
		return false;
	if (l->kind == DW_LOC_ADDR && relocated) {
		*out = l->value - base;
		return true;
	}
	if (l->kind == DW_LOC_CONST && !relocated) {
		*out = l->value;
		return true;
	}
	return false;
}

/* Appends the LOC_PARAM ids for one parameter to @ids; returns how many. */
static int param_ids(struct site_ctx *c, const struct dw_loc *l, uint32_t type, uint32_t *ids,
		     uint64_t base)
{
	struct enc_site_counts *cnt = &c->s->counts;
	int id = -EINVAL, id2;
	uint64_t v;

	cnt->params++;
	ids[0] = 0;
	if (l->kind != DW_LOC_NONE && l->kind != DW_LOC_REG_PAIR && !size_ok(l->size)) {
		cnt->miss[DW_MISS_BAD_SIZE]++;
		return 1;
	}
	if ((l->kind == DW_LOC_REG || l->kind == DW_LOC_DEREF || l->kind == DW_LOC_REG_PAIR) &&
	    (!reg_ok(c->s, l->reg) || (l->kind == DW_LOC_REG_PAIR && !reg_ok(c->s, l->reg2)))) {
		cnt->miss[ENC_MISS_REGISTER]++;
		return 1;
	}
	switch ((enum dw_loc_kind)l->kind) {
	case DW_LOC_REG:
		id = loc_param(c, l->size, false, 0, l->reg, 0, 0);
		break;
	case DW_LOC_DEREF:
		id = loc_param(c, l->size, false, 0, l->reg, BTF_LOC_FLAG_DEREF, l->offset);
		break;
	case DW_LOC_CONST:
	case DW_LOC_ADDR:
		if (!const_value(c, l, is_pointer(c->dst, type), base, &v)) {
			cnt->miss[ENC_MISS_RELOC_CONST]++;
			return 1;
		}
		id = loc_param(c, l->size, true, v, 0, 0, 0);
		break;
	case DW_LOC_REG_PAIR:
		id = loc_param(c, 8, false, 0, l->reg, BTF_LOC_FLAG_CONTINUE, 0);
		id2 = id > 0 ? loc_param(c, 8, false, 0, l->reg2, 0, 0) : id;
		if (id2 < 0)
			return id2;
		cnt->params_located++;
		ids[0] = id;
		ids[1] = id2;
		return 2;
	case DW_LOC_REG_OFF:
	case DW_LOC_FBREG:
		/* Only the merged layout can say "reg + offset" or "frame base". */
		cnt->layout_only++;
		return 1;
	case DW_LOC_NONE:
		cnt->miss[l->reason < DW_MISS_NR ? l->reason : DW_MISS_BAD_DWARF]++;
		return 1;
	}
	if (id < 0)
		return id;
	cnt->params_located++;
	ids[0] = id;
	return 1;
}

static int site_loc_proto(struct site_ctx *c, const struct enc_site *site, uint64_t base)
{
	uint32_t *ids, n = 0, i;
	int id, k;

	ids = malloc((2 * site->nr_params + 1) * sizeof(*ids));
	if (!ids)
		return -ENOMEM;
	for (i = 0; i < site->nr_params; i++) {
		k = param_ids(c, &c->s->locs[site->first_loc + i],
			      c->s->params[site->first_param + i].type, ids + n, base);
		if (k < 0) {
			free(ids);
			return k;
		}
		n += k;
	}
	id = enc_memo_get(c->loc_protos, ids, n * 4);
	if (!id) {
		id = btf__add_loc_proto(c->dst);
		for (i = 0; id > 0 && i < n; i++) {
			int err = btf__add_loc_proto_param(c->dst, ids[i]);

			if (err)
				id = err;
		}
		if (id > 0 && enc_memo_put(c->loc_protos, ids, n * 4, id))
			id = -ENOMEM;
	}
	free(ids);
	return id;
}

static int cmp_entry(const void *a, const void *b)
{
	const struct loc_entry *x = a, *y = b;
	int c = strcmp(x->name, y->name);

	if (c)
		return c;
	if (x->offset != y->offset)
		return x->offset < y->offset ? -1 : 1;
	if (x->func_proto != y->func_proto)
		return x->func_proto < y->func_proto ? -1 : 1;
	return x->loc_proto < y->loc_proto ? -1 : x->loc_proto > y->loc_proto;
}

static int emit_locsecs(struct btf *dst, struct loc_entry *e, size_t n)
{
	size_t i;
	int err;

	qsort(e, n, sizeof(*e), cmp_entry);
	for (i = 0; i < n; i++) {
		if (i % BTF_MAX_VLEN == 0) {
			err = btf__add_locsec(dst, "inline");
			if (err < 0)
				return err;
		}
		err = btf__add_locsec_loc(dst, e[i].name, e[i].func_proto, e[i].loc_proto,
					  e[i].offset);
		if (err)
			return err;
	}
	return 0;
}

int enc_add_sites(struct enc_state *s, struct btf *dst)
{
	struct site_ctx c = { s, dst, enc_memo_new(), enc_memo_new(), enc_memo_new(), -1 };
	struct loc_entry *entries;
	uint64_t lo, hi, base;
	size_t i, n = 0;
	int err;

	entries = calloc(s->nr_sites ? s->nr_sites : 1, sizeof(*entries));
	if (!entries || !c.protos || !c.params || !c.loc_protos) {
		err = -ENOMEM;
		goto out;
	}
	err = text_range(s, &lo, &hi, &base);
	c.text = enc_elf_sec_by_name(&s->elf, ".text");
	for (i = 0; i < s->nr_sites && !err; i++) {
		const struct enc_site *site = &s->sites[i];
		int fp, lp;

		s->counts.sites++;
		if (site->addr < lo || site->addr >= hi || site->addr - base > UINT32_MAX ||
		    (s->elf.is_rel && site->shndx != (uint32_t)c.text)) {
			s->counts.outside_text++;
			continue;
		}
		enc_count_dwarf_complete(s, site);
		fp = site_proto(&c, site);
		lp = fp > 0 ? site_loc_proto(&c, site, base) : fp;
		if (lp < 0) {
			err = lp;
			break;
		}
		entries[n].name = btf__str_by_offset(s->names, site->name_off);
		entries[n].func_proto = fp;
		entries[n].loc_proto = lp;
		entries[n++].offset = site->addr - base;
	}
	if (!err)
		err = emit_locsecs(dst, entries, n);
out:
	free(entries);
	enc_memo_free(c.protos);
	enc_memo_free(c.params);
	enc_memo_free(c.loc_protos);
	return err;
}
