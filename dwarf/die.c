// SPDX-License-Identifier: GPL-2.0
/*
 * die.c - stepping over and into DIEs of the CU being decoded, and finding
 * their attributes, without libdw's per-call attribute scan.
 *
 * libdw 0.188 finds the end of a DIE, or one of its attributes, by
 * decoding the abbreviation's (name, form) list again on every call, and
 * finds the abbreviation itself in a hash that takes a rwlock: on vmlinux
 * dwarf_siblingof(), dwarf_child() and dwarf_attr() spent a fifth of the
 * encoder's instructions there.  Here each abbreviation of the CU is
 * decoded once into a table of (name, form, size); a DIE whose attributes
 * all have fixed sizes is then skipped with one addition.
 *
 * Only reading is done, and only within the unit's bytes; whatever is not
 * plainly understood (another CU's DIE, a form not listed below, foreign
 * byte order, a sibling reference out of range) goes to libdw unchanged,
 * which also reports the errors.  Values are still decoded by libdw: an
 * attribute found here is a Dwarf_Attribute as dwarf_attr() makes it.
 */
#include "dw_internal.h"
#include "../btf/btf_internal.h"

#include <dwarf.h>
#include <endian.h>
#include <gelf.h>
#include <stdlib.h>
#include <string.h>

/* Abbreviation codes at or above this are left to libdw. */
#define DW_MAX_CODE 65536

/* The size of a form's value: fixed, or read from the DIE. */
enum {
	SZ_ULEB = -1,	/* LEB128 (signed or not: same length rule) */
	SZ_STRING = -2, /* inline NUL-terminated */
	SZ_BLOCK1 = -3,
	SZ_BLOCK2 = -4,
	SZ_BLOCK4 = -5,
	SZ_BLOCK = -6, /* ULEB128 length, then the bytes */
	SZ_NONE = -7,  /* not understood: the abbreviation is left to libdw */
};

struct dw_attr_spec {
	uint16_t name;
	uint16_t form;
	int16_t size;
	/* Its value's offset past the code when all before have fixed sizes, else -1. */
	int16_t off;
	/* DW_FORM_implicit_const: where libdw keeps the value (abbrev data). */
	unsigned char *const_valp;
};

/*
 * How dw_member_attrs() reads the members of one abbreviation: where all
 * attributes have fixed sizes and plain forms, each field from its spec's
 * fixed offset, with no branch per attribute; otherwise by the loop over
 * the attributes.
 */
struct dw_member_plan {
	int8_t state; /* 0: not made yet, 1: by offsets, -1: by the loop */
	/* Index in the abbreviation's specs of each attribute read, -1: none. */
	int16_t name, type, loc, bits, dbo;
};

struct dw_abbrev_info {
	/* Which attribute names below 128 it has: most lookups are for one it has not. */
	uint64_t has[2];
	struct dw_member_plan member;
	/*
	 * Where its entry starts in .debug_abbrev (the code) and its (name,
	 * form) list; NULL: ask libdw for each.
	 */
	const unsigned char *entry, *attrp;
	bool listed_twice; /* the code is in the table twice: ask libdw */
	Dwarf_Abbrev *abbrev; /* NULL: code not met yet */
	uint32_t first;	      /* in dw_reader.specs */
	uint16_t nr;
	bool children;
	bool usable;
	int32_t fixed_len; /* bytes of all the attributes, -1 if they vary */
	/* DW_AT_sibling's value: at this byte of the attributes, or -1 (none), -2 (varies). */
	int32_t sib_pos;
	int16_t sib_size; /* its fixed size, or SZ_ULEB */
	bool signature;	  /* has DW_AT_signature: a stub of a type unit's type */
};

static int16_t form_size(const struct dw_reader *r, unsigned int form)
{
	switch (form) {
	case DW_FORM_flag_present:
	case DW_FORM_implicit_const:
		return 0;
	case DW_FORM_data1:
	case DW_FORM_ref1:
	case DW_FORM_flag:
	case DW_FORM_strx1:
	case DW_FORM_addrx1:
		return 1;
	case DW_FORM_data2:
	case DW_FORM_ref2:
	case DW_FORM_strx2:
	case DW_FORM_addrx2:
		return 2;
	case DW_FORM_strx3:
	case DW_FORM_addrx3:
		return 3;
	case DW_FORM_data4:
	case DW_FORM_ref4:
	case DW_FORM_strx4:
	case DW_FORM_addrx4:
	case DW_FORM_ref_sup4:
		return 4;
	case DW_FORM_data8:
	case DW_FORM_ref8:
	case DW_FORM_ref_sig8:
	case DW_FORM_ref_sup8:
		return 8;
	case DW_FORM_data16:
		return 16;
	case DW_FORM_addr:
		return r->addr_size;
	case DW_FORM_ref_addr:
		return r->version == 2 ? r->addr_size : r->offset_size;
	case DW_FORM_strp:
	case DW_FORM_line_strp:
	case DW_FORM_sec_offset:
	case DW_FORM_strp_sup:
	case DW_FORM_GNU_ref_alt:
	case DW_FORM_GNU_strp_alt:
		return r->offset_size;
	case DW_FORM_udata:
	case DW_FORM_sdata:
	case DW_FORM_ref_udata:
	case DW_FORM_strx:
	case DW_FORM_addrx:
	case DW_FORM_loclistx:
	case DW_FORM_rnglistx:
	case DW_FORM_GNU_addr_index:
	case DW_FORM_GNU_str_index:
		return SZ_ULEB;
	case DW_FORM_string:
		return SZ_STRING;
	case DW_FORM_block1:
		return SZ_BLOCK1;
	case DW_FORM_block2:
		return SZ_BLOCK2;
	case DW_FORM_block4:
		return SZ_BLOCK4;
	case DW_FORM_block:
	case DW_FORM_exprloc:
		return SZ_BLOCK;
	}
	return SZ_NONE; /* DW_FORM_indirect and anything unknown */
}

/* Reads a ULEB128 at *@p below @end; false if it runs past @end or 64 bits. */
static bool read_uleb(const unsigned char **p, const unsigned char *end, uint64_t *v)
{
	unsigned int shift = 0;

	*v = 0;
	while (*p < end && shift < 64) {
		unsigned char b = *(*p)++;

		*v |= (uint64_t)(b & 0x7f) << shift;
		if (!(b & 0x80))
			return true;
		shift += 7;
	}
	return false;
}

/* Past a LEB128 at @p below @end, however long (as libdw skips one). */
static const unsigned char *skip_leb(const unsigned char *p, const unsigned char *end)
{
	while (p < end)
		if (!(*p++ & 0x80))
			return p;
	return NULL;
}

/* Unaligned read of @n (1, 2, 4 or 8) bytes in the host's order. */
static uint64_t read_fixed(const unsigned char *p, int n)
{
	uint8_t v1;
	uint16_t v2;
	uint32_t v4;
	uint64_t v8;

	switch (n) {
	case 1:
		memcpy(&v1, p, 1);
		return v1;
	case 2:
		memcpy(&v2, p, 2);
		return v2;
	case 4:
		memcpy(&v4, p, 4);
		return v4;
	default:
		memcpy(&v8, p, 8);
		return v8;
	}
}

/* Past the value of @s at @p, or NULL if it does not fit below r->end. */
static const unsigned char *skip_value(const struct dw_reader *r, const struct dw_attr_spec *s,
				       const unsigned char *p)
{
	uint64_t len;

	switch (s->size) {
	case SZ_ULEB:
		return skip_leb(p, r->end);
	case SZ_STRING: {
		const unsigned char *nul = memchr(p, 0, r->end - p);

		return nul ? nul + 1 : NULL;
	}
	case SZ_BLOCK1:
	case SZ_BLOCK2:
	case SZ_BLOCK4: {
		int n = s->size == SZ_BLOCK1 ? 1 : s->size == SZ_BLOCK2 ? 2 : 4;

		if (r->end - p < n)
			return NULL;
		len = read_fixed(p, n);
		p += n;
		break;
	}
	case SZ_BLOCK:
		if (!read_uleb(&p, r->end, &len))
			return NULL;
		break;
	default:
		len = s->size;
		break;
	}
	return len <= (uint64_t)(r->end - p) ? p + len : NULL;
}

void dw_reader_init(struct dw_reader *r, struct dw_file *f, Dwarf_Die *cu_die)
{
	Dwarf_Off die_off = dwarf_dieoffset(cu_die), hdr_off, next_off;
	Elf *elf = dwarf_getelf(dwarf_cu_getdwarf(cu_die->cu));
	const char *ident = elf ? elf_getident(elf, NULL) : NULL;
	const unsigned char *lo, *hi, *start;
	uint8_t addr_size, offset_size;
	Dwarf_Off abbrev_off;
	Dwarf_Half version;
	struct dw_reader keep = *r;

	/* The arrays of the last unit read (if any) are reused, emptied. */
	if (keep.infos)
		memset(keep.infos, 0, keep.used_infos * sizeof(*keep.infos));
	memset(r, 0, sizeof(*r));
	r->infos = keep.infos;
	r->nr_infos = keep.nr_infos;
	r->specs = keep.specs;
	r->specs_cap = keep.specs_cap;
	/* Only the host's byte order is read here; the rest goes to libdw. */
	if (!ident ||
	    ident[EI_DATA] != (__BYTE_ORDER == __LITTLE_ENDIAN ? ELFDATA2LSB : ELFDATA2MSB))
		return;
	/* A type unit (.debug_types) or anything not in those bytes: libdw's. */
	start = (const unsigned char *)cu_die->addr - dwarf_cuoffset(cu_die);
	if (!dw_file_info_bytes(f, &lo, &hi) || start < lo || start >= hi)
		return;
	if (!dwarf_cu_die(cu_die->cu, &(Dwarf_Die){}, &version, &abbrev_off, &addr_size,
			  &offset_size, NULL, NULL))
		return;
	hdr_off = die_off - dwarf_cuoffset(cu_die);
	/* libdw returns a unit whose length overruns the section, and -1 if it wraps. */
	if (dwarf_next_unit(dwarf_cu_getdwarf(cu_die->cu), hdr_off, &next_off, NULL, NULL, NULL,
			    NULL, NULL, NULL, NULL) != 0 ||
	    next_off == (Dwarf_Off)-1 || next_off <= die_off)
		return;
	r->cu = cu_die->cu;
	r->start = start;
	r->start_off = hdr_off;
	r->end = next_off - hdr_off < (Dwarf_Off)(hi - start) ? start + (next_off - hdr_off) : hi;
	r->version = version;
	r->addr_size = addr_size;
	r->offset_size = offset_size;
	if (dw_file_abbrev_bytes(f, &lo, &hi) && abbrev_off < (Dwarf_Off)(hi - lo)) {
		r->abbrev_sec = lo;
		r->abbrev_lo = lo + abbrev_off;
		r->abbrev_hi = hi;
	}
	if (dw_file_str_bytes(f, &lo, &hi)) {
		r->str_lo = (const char *)lo;
		r->str_hi = (const char *)hi;
	}
}

void dw_reader_free(struct dw_reader *r)
{
	free(r->infos);
	free(r->specs);
	memset(r, 0, sizeof(*r));
}

/* More attributes than this in one abbreviation: left to libdw. */
#define DW_MAX_ATTRS 256

/* The forms of a reference within the unit (all libdw follows as DW_AT_sibling). */
static bool is_unit_ref_form(unsigned int form)
{
	return form == DW_FORM_ref1 || form == DW_FORM_ref2 || form == DW_FORM_ref4 ||
	       form == DW_FORM_ref8 || form == DW_FORM_ref_udata;
}

/* Whether @info lists attribute @name, for a name below 128. */
static bool abbrev_has(const struct dw_abbrev_info *info, unsigned int name)
{
	return info->has[name >> 6] & (1ull << (name & 63));
}

/* Room in r->infos for @code; false if out of memory. */
static bool infos_reserve(struct dw_reader *r, uint64_t code)
{
	struct dw_abbrev_info *info;
	size_t n;

	if (code >= r->nr_infos) {
		n = r->nr_infos ? r->nr_infos : 64;
		while (n <= code)
			n *= 2;
		info = realloc(r->infos, n * sizeof(*info));
		if (!info)
			return false;
		memset(info + r->nr_infos, 0, (n - r->nr_infos) * sizeof(*info));
		r->infos = info;
		r->nr_infos = n;
	}
	/* The next unit empties only the codes this one used. */
	if (code >= r->used_infos)
		r->used_infos = code + 1;
	return true;
}

/*
 * The next (name, form) of an abbreviation's list at *@p: 1, 0 at its
 * end, -1 where libdw could read it otherwise: it keeps names and forms
 * in 32 bits (a longer value would be cut, and could end the list) and
 * reads at most 10 bytes of a LEB128.
 */
static int next_abbrev_attr(const unsigned char **p, const unsigned char *end,
			    unsigned int *name, unsigned int *form)
{
	const unsigned char *q;
	uint64_t n, f;

	if (!read_uleb(p, end, &n) || !read_uleb(p, end, &f) || n > UINT32_MAX || f > UINT32_MAX)
		return -1;
	if (!n && !f)
		return 0;
	if (f == DW_FORM_implicit_const) {
		q = skip_leb(*p, end);
		if (!q || q - *p > 10)
			return -1;
		*p = q;
	}
	*name = n;
	*form = f;
	return 1;
}

/*
 * Where each abbreviation of the unit lists its attributes, from one
 * pass over its table: libdw hands them out one at a time, each call
 * walking the list from its start.  A code met twice (listed_twice), and
 * every code from the first entry that does not parse as libdw would
 * read it on (attrp NULL), are left to libdw.
 */
static void index_abbrevs(struct dw_reader *r)
{
	const unsigned char *p = r->abbrev_lo, *end = r->abbrev_hi, *entry, *list;
	unsigned int name, form;
	uint64_t code, tag;
	int more;

	r->abbrevs_indexed = true;
	/* Up to anything libdw could read otherwise (next_abbrev_attr()). */
	for (;;) {
		entry = p;
		if (!read_uleb(&p, end, &code) || !code || code > UINT32_MAX ||
		    !read_uleb(&p, end, &tag) || tag > UINT32_MAX || p >= end)
			return;
		list = ++p; /* past DW_CHILDREN_yes/no */
		while ((more = next_abbrev_attr(&p, end, &name, &form)) > 0)
			;
		if (more < 0)
			return;
		if (code < DW_MAX_CODE && infos_reserve(r, code)) {
			r->infos[code].listed_twice = r->infos[code].attrp != NULL;
			r->infos[code].entry = entry;
			r->infos[code].attrp = list;
		}
	}
}

/*
 * Decodes the abbreviation of @die (code @code) into r->infos[code].  One
 * that cannot be used here is remembered as such (usable false).
 */
static struct dw_abbrev_info *info_build(struct dw_reader *r, Dwarf_Die *die, uint64_t code)
{
	struct dw_abbrev_info *info;
	const unsigned char *attrp;
	struct dw_attr_spec *s;
	int32_t fixed = 0;
	Dwarf_Off off;
	size_t i, j;
	int more;

	if (!r->abbrevs_indexed)
		index_abbrevs(r);
	if (!infos_reserve(r, code))
		return NULL;
	info = &r->infos[code];
	attrp = info->listed_twice ? NULL : info->attrp;
	/* Let libdw find (and check) the abbreviation once: DW_TAG_invalid if bad. */
	dwarf_tag(die);
	if (!die->abbrev || die->abbrev == (Dwarf_Abbrev *)-1l)
		return NULL;
	/*
	 * The indexed list only if libdw took the same entry for the code:
	 * its first attribute is at the entry's offset.  (One without
	 * attributes is left to libdw: there is nothing to list.)
	 */
	if (attrp && (dwarf_getabbrevattr_data(die->abbrev, 0, NULL, NULL, NULL, &off) != 0 ||
		      off != (Dwarf_Off)(info->entry - r->abbrev_sec)))
		attrp = NULL;
	info->abbrev = die->abbrev;
	info->first = r->nr_specs;
	info->has[0] = info->has[1] = 0;
	info->nr = 0;
	info->children = dwarf_abbrevhaschildren(die->abbrev) == 1;
	info->usable = true;
	info->signature = false;
	info->sib_pos = -1;
	/*
	 * From the table's bytes (index_abbrevs()), or else listed until
	 * libdw says there are no more: its attribute count
	 * (dwarf_getattrcnt) misses DW_FORM_implicit_const ones in 0.188.
	 * Each libdw call walks the list from its start, hence the limit.
	 */
	for (i = 0; info->usable; i++) {
		unsigned int name, form;
		Dwarf_Attribute attr;
		Dwarf_Sword cval;

		if (attrp) {
			more = next_abbrev_attr(&attrp, r->abbrev_hi, &name, &form);
			if (more < 0)
				info->usable = false;
			if (more <= 0)
				break;
		} else if (dwarf_getabbrevattr_data(die->abbrev, i, &name, &form, &cval, NULL) != 0) {
			break;
		}
		s = i < DW_MAX_ATTRS ? btf_reserve_mem((void **)&r->specs, &r->specs_cap,
						       sizeof(*s), r->nr_specs, UINT32_MAX, 1)
				     : NULL;
		if (!s) {
			info->usable = false;
			break;
		}
		r->nr_specs++;
		info->nr++;
		s->name = name;
		s->form = form;
		s->size = form_size(r, form);
		s->const_valp = NULL;
		if (name == DW_AT_sibling) {
			info->sib_pos = fixed >= 0 ? fixed : -2;
			info->sib_size = s->size;
		}
		if (name == DW_AT_signature)
			info->signature = true;
		if (s->size == SZ_NONE || name > UINT16_MAX || form > UINT16_MAX)
			info->usable = false;
		s->off = fixed >= 0 && fixed <= INT16_MAX ? fixed : -1;
		if (name < 128)
			info->has[name >> 6] |= 1ull << (name & 63);
		if (s->size < 0)
			fixed = -1;
		else if (fixed >= 0)
			fixed += s->size;
		/* libdw follows only these as DW_AT_sibling. */
		if (name == DW_AT_sibling && !is_unit_ref_form(form))
			info->usable = false;
		/* A name twice: which one libdw picks is its business. */
		for (j = info->first; j < r->nr_specs - 1; j++)
			if (r->specs[j].name == name)
				info->usable = false;
		if (form == DW_FORM_implicit_const && info->usable) {
			if (!dwarf_attr(die, name, &attr) || attr.form != DW_FORM_implicit_const)
				info->usable = false;
			else
				s->const_valp = attr.valp;
		}
	}
	info->fixed_len = fixed;
	if (!info->usable) {
		r->nr_specs = info->first;
		info->nr = 0;
	}
	return info;
}

/*
 * The abbreviation of the DIE at @p (in r's unit), its attributes' start
 * in *@attrs; NULL if it is not for this reader.  Fills die->abbrev.
 */
static inline struct dw_abbrev_info *info_at(struct dw_reader *r, Dwarf_Die *die,
					     const unsigned char **attrs)
{
	const unsigned char *p = die->addr;
	struct dw_abbrev_info *info;
	uint64_t code;

	if (die->cu != r->cu || !r->cu || p < r->start || p >= r->end)
		return NULL;
	if (*p < 0x80)
		code = *p++;
	else if (!read_uleb(&p, r->end, &code) || code >= DW_MAX_CODE)
		return NULL;
	if (!code)
		return NULL;
	info = code < r->nr_infos && r->infos[code].abbrev ? &r->infos[code]
							   : info_build(r, die, code);
	if (!info || !info->usable)
		return NULL;
	die->abbrev = info->abbrev;
	*attrs = p;
	return info;
}

/*
 * Past the attributes of a DIE, NULL if they do not fit or its
 * DW_AT_sibling points backwards or out of the unit (libdw then says what).
 * *@sib: where DW_AT_sibling points, NULL without one.
 */
static const unsigned char *skip_attrs(struct dw_reader *r, const struct dw_abbrev_info *info,
				       const unsigned char *p, const unsigned char **sib)
{
	const struct dw_attr_spec *s = &r->specs[info->first];
	const unsigned char *v;
	uint64_t off;
	size_t i;

	*sib = NULL;
	if (info->fixed_len >= 0) {
		if (info->fixed_len > r->end - p)
			return NULL;
		v = p + info->sib_pos;
		p += info->fixed_len;
	} else {
		for (i = 0, v = NULL; i < info->nr && p; i++) {
			if (s[i].name == DW_AT_sibling)
				v = p;
			p = skip_value(r, &s[i], p);
		}
		if (!p)
			return NULL;
	}
	if (info->sib_pos == -1)
		return p;
	/* The value is inside the attributes just checked. */
	if (info->sib_size == SZ_ULEB) {
		if (!read_uleb(&v, p, &off))
			return NULL;
	} else {
		off = read_fixed(v, info->sib_size);
	}
	if (off >= (uint64_t)(r->end - r->start))
		return NULL;
	*sib = r->start + off;
	/* Into the DIE itself or backwards: corrupt, libdw's to judge. */
	return *sib < p ? NULL : p;
}

/*
 * Address past the DIE @die and all its descendants; NULL where libdw
 * must do it.
 */
static const unsigned char *skip_die(struct dw_reader *r, Dwarf_Die *die)
{
	Dwarf_Die cur = *die;
	const unsigned char *p, *sib;
	struct dw_abbrev_info *info;
	size_t depth = 0;

	for (;;) {
		info = info_at(r, &cur, &p);
		if (!info)
			return NULL;
		p = skip_attrs(r, info, p, &sib);
		if (!p)
			return NULL;
		/* As libdw: DW_AT_sibling is followed even without the children flag. */
		if (sib)
			p = sib;
		else if (info->children)
			depth++;
		/* Null entries close the children lists that end here. */
		while (depth && p < r->end && !*p) {
			p++;
			depth--;
		}
		if (!depth)
			return p;
		if (p >= r->end)
			return NULL;
		cur = (Dwarf_Die){ .addr = (void *)p, .cu = r->cu };
	}
}

/* A Dwarf_Die at @p if a DIE (not a null entry) starts there. */
static int die_at(struct dw_reader *r, const unsigned char *p, Dwarf_Die *out)
{
	const unsigned char *attrs;

	if (p >= r->end || !*p)
		return 1;
	*out = (Dwarf_Die){ .addr = (void *)p, .cu = r->cu };
	info_at(r, out, &attrs); /* only to fill out->abbrev */
	return 0;
}

int dw_child(struct dw_cu_ctx *ctx, Dwarf_Die *die, Dwarf_Die *child)
{
	struct dw_reader *r = &ctx->rd;
	const unsigned char *p, *q, *sib;
	struct dw_abbrev_info *info = info_at(r, die, &p);

	if (!info)
		return dwarf_child(die, child);
	if (!info->children)
		return 1;
	p = skip_attrs(r, info, p, &sib);
	if (!p)
		return dwarf_child(die, child);
	/* As libdw: a null entry padded to more bytes (0x80 ... 0x00) is one too. */
	for (q = p; q < r->end && *q == 0x80; q++)
		;
	if (q >= r->end || !*q)
		return 1;
	return die_at(r, p, child);
}

int dw_sibling(struct dw_cu_ctx *ctx, Dwarf_Die *die)
{
	struct dw_reader *r = &ctx->rd;
	const unsigned char *p = skip_die(r, die);

	if (!p)
		return dwarf_siblingof(die, die);
	return die_at(r, p, die);
}

/* The attribute of @s whose value is at @p, as libdw makes it. */
static void make_attr(const struct dw_attr_spec *s, const unsigned char *p, Dwarf_Die *die,
		      Dwarf_Attribute *attr)
{
	attr->code = s->name;
	attr->form = s->form;
	attr->valp = s->const_valp ? s->const_valp : (unsigned char *)p;
	attr->cu = die->cu;
}

Dwarf_Attribute *dw_attr(struct dw_cu_ctx *ctx, Dwarf_Die *die, unsigned int name,
			 Dwarf_Attribute *attr)
{
	struct dw_reader *r = &ctx->rd;
	const struct dw_attr_spec *s;
	const unsigned char *p;
	struct dw_abbrev_info *info = info_at(r, die, &p);
	size_t i;

	if (!info)
		return dwarf_attr(die, name, attr);
	if (name < 128 && !abbrev_has(info, name))
		return NULL;
	s = &r->specs[info->first];
	for (i = 0; i < info->nr; i++) {
		if (s[i].name != name)
			continue;
		/* The values before it fit in the unit: from its offset, or skipped one by one. */
		if (s[i].off >= 0 && s[i].off <= r->end - p) {
			make_attr(&s[i], p + s[i].off, die, attr);
			return attr;
		}
		break;
	}
	for (i = 0; i < info->nr; i++) {
		if (s[i].name == name) {
			make_attr(&s[i], p, die, attr);
			return attr;
		}
		if (!(p = skip_value(r, &s[i], p)))
			return dwarf_attr(die, name, attr);
	}
	return NULL;
}

bool dw_hasattr(struct dw_cu_ctx *ctx, Dwarf_Die *die, unsigned int name)
{
	const unsigned char *p;
	struct dw_abbrev_info *info = info_at(&ctx->rd, die, &p);
	size_t i;

	if (!info)
		return dwarf_hasattr(die, name) == 1;
	if (name < 128)
		return abbrev_has(info, name);
	for (i = 0; i < info->nr; i++)
		if (ctx->rd.specs[info->first + i].name == name)
			return true;
	return false;
}

int dw_signature_type(struct dw_cu_ctx *ctx, Dwarf_Die *die, Dwarf_Die *type)
{
	const unsigned char *p;
	struct dw_abbrev_info *info = info_at(&ctx->rd, die, &p);
	Dwarf_Attribute attr;

	/* The abbreviation's flag: most DIEs are answered without a lookup. */
	if (info ? !info->signature : dwarf_hasattr(die, DW_AT_signature) != 1)
		return 0;
	if (!dw_attr(ctx, die, DW_AT_signature, &attr))
		return 0;
	return dwarf_formref_die(&attr, type) ? 1 : -1;
}

Dwarf_Die *dw_formref_die(struct dw_cu_ctx *ctx, Dwarf_Attribute *attr, Dwarf_Die *out)
{
	const struct dw_reader *r = &ctx->rd;
	const unsigned char *p = attr->valp;
	int size = form_size(r, attr->form);
	uint64_t off;

	if (!r->cu || attr->cu != r->cu || !p || p < r->start || p >= r->end ||
	    !is_unit_ref_form(attr->form))
		return dwarf_formref_die(attr, out);
	if (size == SZ_ULEB) {
		if (!read_uleb(&p, r->end, &off))
			return dwarf_formref_die(attr, out);
	} else {
		if (size > r->end - p)
			return dwarf_formref_die(attr, out);
		off = read_fixed(p, size);
	}
	/* Outside the unit: libdw says what is wrong. */
	if (off >= (uint64_t)(r->end - r->start))
		return dwarf_formref_die(attr, out);
	*out = (Dwarf_Die){ .addr = (void *)(r->start + off), .cu = attr->cu };
	return out;
}

int dw_getattrs(struct dw_cu_ctx *ctx, Dwarf_Die *die, int (*fn)(Dwarf_Attribute *, void *),
		void *arg)
{
	struct dw_reader *r = &ctx->rd;
	const struct dw_attr_spec *s;
	const unsigned char *p;
	struct dw_abbrev_info *info = info_at(r, die, &p);
	Dwarf_Attribute attr;
	size_t i;

	if (!info)
		return dwarf_getattrs(die, fn, arg, 0) < 0 ? -1 : 0;
	s = &r->specs[info->first];
	for (i = 0; i < info->nr; i++) {
		make_attr(&s[i], p, die, &attr);
		if (fn(&attr, arg) != DWARF_CB_OK)
			return 0;
		/* As libdw: an attribute is reported, then found not to fit. */
		p = skip_value(r, &s[i], p);
		if (!p)
			return -1;
	}
	return 0;
}

/* A constant of a data form, as dwarf_formudata() reads it; false for others. */
static bool plain_udata(const struct dw_attr_spec *s, const unsigned char *v,
			const unsigned char *end, uint64_t *val)
{
	switch (s->form) {
	case DW_FORM_data1:
	case DW_FORM_data2:
	case DW_FORM_data4:
	case DW_FORM_data8:
		*val = read_fixed(v, s->size);
		return true;
	case DW_FORM_udata:
		return read_uleb(&v, end, val);
	}
	return false;
}

static bool is_data_form(unsigned int form)
{
	return form == DW_FORM_data1 || form == DW_FORM_data2 || form == DW_FORM_data4 ||
	       form == DW_FORM_data8;
}

/* A name by DW_FORM_strp of @size bytes at @v, in .debug_str; false if outside it. */
static bool strp_name(const struct dw_reader *r, const unsigned char *v, int size, const char **name)
{
	uint64_t off = read_fixed(v, size);

	if (off >= (uint64_t)(r->str_hi - r->str_lo))
		return false;
	*name = r->str_lo + off;
	return true;
}

/* Fills @info's member plan (dw_member_plan above). */
static void member_plan_make(const struct dw_reader *r, struct dw_abbrev_info *info)
{
	const struct dw_attr_spec *s = &r->specs[info->first];
	struct dw_member_plan *pl = &info->member;
	size_t i;

	*pl = (struct dw_member_plan){ .state = -1, .name = -1, .type = -1, .loc = -1,
				       .bits = -1, .dbo = -1 };
	/* Every attribute at a fixed offset (dw_attr_spec.off). */
	if (info->fixed_len < 0 || info->fixed_len > INT16_MAX)
		return;
	for (i = 0; i < info->nr; i++) {
		switch (s[i].name) {
		case DW_AT_name:
			if (s[i].form != DW_FORM_strp)
				return;
			pl->name = i;
			break;
		case DW_AT_type:
			if (!is_unit_ref_form(s[i].form))
				return;
			pl->type = i;
			break;
		case DW_AT_data_member_location:
		case DW_AT_bit_size:
		case DW_AT_data_bit_offset:
			if (!is_data_form(s[i].form))
				return;
			*(s[i].name == DW_AT_data_member_location ? &pl->loc :
			  s[i].name == DW_AT_bit_size		  ? &pl->bits :
								    &pl->dbo) = i;
			break;
		case DW_AT_decl_file:
		case DW_AT_decl_line:
		case DW_AT_decl_column:
		case DW_AT_sibling:
			break;
		default:
			return;
		}
	}
	pl->state = 1;
}

/* dw_member_attrs() by the plan: @p is past the abbreviation code. */
static bool member_by_plan(const struct dw_reader *r, const struct dw_abbrev_info *info,
			   const unsigned char *p, Dwarf_Die *die, struct dw_member_attrs *m)
{
	const struct dw_member_plan *pl = &info->member;
	const struct dw_attr_spec *s = &r->specs[info->first];

	if (info->fixed_len > r->end - p)
		return false;
	memset(m, 0, sizeof(*m));
	if (pl->name >= 0 && !strp_name(r, p + s[pl->name].off, s[pl->name].size, &m->name))
		return false;
	if (pl->type >= 0)
		make_attr(&s[pl->type], p + s[pl->type].off, die, &m->type);
	if (pl->loc >= 0)
		m->has_byte_off = plain_udata(&s[pl->loc], p + s[pl->loc].off, r->end, &m->byte_off);
	if (pl->bits >= 0)
		m->has_bit_size = plain_udata(&s[pl->bits], p + s[pl->bits].off, r->end,
					      &m->bit_size);
	if (pl->dbo >= 0)
		m->has_data_bit_off = plain_udata(&s[pl->dbo], p + s[pl->dbo].off, r->end,
						  &m->data_bit_off);
	m->has_children = info->children;
	return true;
}

bool dw_member_attrs(struct dw_cu_ctx *ctx, Dwarf_Die *die, struct dw_member_attrs *m)
{
	struct dw_reader *r = &ctx->rd;
	const struct dw_attr_spec *s;
	const unsigned char *p, *v;
	struct dw_abbrev_info *info = info_at(r, die, &p);
	size_t i;
	bool ok;

	if (!info || !r->str_lo)
		return false;
	if (!info->member.state)
		member_plan_make(r, info);
	if (info->member.state > 0)
		return member_by_plan(r, info, p, die, m);
	memset(m, 0, sizeof(*m));
	s = &r->specs[info->first];
	for (i = 0; i < info->nr; i++) {
		v = p;
		p = skip_value(r, &s[i], p);
		if (!p)
			return false;
		switch (s[i].name) {
		case DW_AT_name:
			if (s[i].form == DW_FORM_string) {
				m->name = (const char *)v;
				continue;
			}
			if (s[i].form != DW_FORM_strp || !strp_name(r, v, s[i].size, &m->name))
				return false;
			continue;
		case DW_AT_type:
			if (!is_unit_ref_form(s[i].form))
				return false;
			make_attr(&s[i], v, die, &m->type);
			continue;
		case DW_AT_data_member_location:
			ok = m->has_byte_off = plain_udata(&s[i], v, p, &m->byte_off);
			break;
		case DW_AT_bit_size:
			ok = m->has_bit_size = plain_udata(&s[i], v, p, &m->bit_size);
			break;
		case DW_AT_data_bit_offset:
			ok = m->has_data_bit_off = plain_udata(&s[i], v, p, &m->data_bit_off);
			break;
		case DW_AT_decl_file:
		case DW_AT_decl_line:
		case DW_AT_decl_column:
		case DW_AT_sibling:
			continue;
		default:
			return false;
		}
		if (!ok)
			return false;
	}
	m->has_children = info->children;
	return true;
}

/* dwarf_attr_integrate(): through abstract_origin/specification, as libdw. */
Dwarf_Attribute *dw_attr_integrate(struct dw_cu_ctx *ctx, Dwarf_Die *die, unsigned int name,
				   Dwarf_Attribute *attr)
{
	Dwarf_Die mem, *cur = die;
	int chain = 16;

	do {
		if (dw_attr(ctx, cur, name, attr))
			return attr;
		if (!dw_attr(ctx, cur, DW_AT_abstract_origin, attr) &&
		    !dw_attr(ctx, cur, DW_AT_specification, attr))
			break;
		cur = dw_formref_die(ctx, attr, &mem);
	} while (cur && chain-- > 0);
	/* A unit DIE may have a split unit to look in: libdw knows how. */
	if (cur && (cur->addr == ctx->cu_die.addr || cur->cu != ctx->rd.cu))
		return dwarf_attr_integrate(die, name, attr);
	return NULL;
}

const char *dw_diename(struct dw_cu_ctx *ctx, Dwarf_Die *die)
{
	Dwarf_Attribute attr;

	return dw_attr_integrate(ctx, die, DW_AT_name, &attr) ? dwarf_formstring(&attr) : NULL;
}
