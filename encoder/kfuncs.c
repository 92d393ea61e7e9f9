// SPDX-License-Identifier: GPL-2.0
/*
 * kfuncs.c - feature decl_tag_kfuncs, after pahole 1.31.
 *
 * The kernel lists the functions BPF programs may call (kfuncs) in the
 * .BTF_ids section with the BTF_KFUNCS_START()/BTF_ID_FLAGS() macros of
 * include/linux/btf_ids.h.  Before resolve_btfids fills in the ids, the
 * section holds:
 *
 *   __BTF_ID__set8__NAME:        u32 cnt, u32 flags      (a "set8")
 *   __BTF_ID__func__FUNC__N:     u32 id, u32 kfunc flags (one per entry)
 *
 * and the set8 symbol's size covers its entries.  A set8 whose flags have
 * BTF_SET8_KFUNCS is a kfunc set; every __BTF_ID__func__ symbol inside
 * its range names a kfunc, and the word after its id are KF_* flags.
 *
 * A kfunc's FUNC gets DECL_TAG "bpf_kfunc" (component -1), and also
 * "bpf_fastcall" with KF_FASTCALL.  With the attributes feature the
 * KF_ARENA_* flags make the return value / first / second argument a
 * pointer to a TYPE_TAG attribute "address_space(1)" on the pointee.
 * Selection is not changed: a kfunc pahole skips is skipped here too.
 */
#include "enc_internal.h"

#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define BTF_IDS_SECTION ".BTF_ids"
#define SET8_PREFIX "__BTF_ID__set8__"
#define FUNC_PREFIX "__BTF_ID__func__"
#define BTF_SET8_KFUNCS (1u << 0)

/* KF_* flags of include/linux/btf.h that change the BTF. */
#define KF_FASTCALL (1u << 12)
#define KF_ARENA_RET (1u << 13)
#define KF_ARENA_ARG1 (1u << 14)
#define KF_ARENA_ARG2 (1u << 15)

#define ARENA_ATTR "address_space(1)"

struct kfunc {
	char *name;
	uint32_t flags;
	uint32_t order; /* symbol table position: the last marking wins */
};

struct enc_kfuncs {
	struct kfunc *v;
	size_t n, cap;
};

struct range {
	uint64_t start, end; /* [start, end) */
};

/* What kfuncs.c needs from the ELF file; all views into one Elf. */
struct ids_view {
	Elf_Data *syms;
	size_t nr_syms;
	size_t strtab;
	size_t ids_shndx;
	uint64_t ids_addr;
	Elf_Data *ids; /* .BTF_ids as 32-bit words in host order */
};

void enc_kfuncs_free(struct enc_kfuncs *k)
{
	size_t i;

	if (!k)
		return;
	for (i = 0; i < k->n; i++)
		free(k->v[i].name);
	free(k->v);
	free(k);
}

/* The 32-bit word at byte @off of .BTF_ids; false if outside it. */
static bool ids_word(const struct ids_view *w, uint64_t off, uint32_t *val)
{
	if (off > w->ids->d_size || w->ids->d_size - off < sizeof(*val))
		return false;
	memcpy(val, (const char *)w->ids->d_buf + off, sizeof(*val));
	return true;
}

/*
 * NAME of __BTF_ID__func__NAME__N, as a new string; NULL if @sym is no
 * such symbol.  The suffix is everything after the last "__", as the
 * counter the macros append has no underscore.
 */
static char *func_of_symbol(const char *sym)
{
	const char *p = sym + strlen(FUNC_PREFIX), *end;

	if (strncmp(sym, FUNC_PREFIX, strlen(FUNC_PREFIX)))
		return NULL;
	end = strrchr(p, '_');
	if (!end || end == p || end[-1] != '_' || end - 1 == p)
		return NULL;
	return strndup(p, (size_t)(end - 1 - p));
}

static int find_sections(Elf *elf, struct ids_view *w)
{
	size_t shstrndx;
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	bool have_syms = false, have_ids = false;

	if (elf_getshdrstrndx(elf, &shstrndx))
		return -EINVAL;
	while ((scn = elf_nextscn(elf, scn))) {
		const char *name;

		if (!gelf_getshdr(scn, &sh))
			return -EINVAL;
		name = elf_strptr(elf, shstrndx, sh.sh_name);
		if (sh.sh_type == SHT_SYMTAB && sh.sh_entsize) {
			w->syms = elf_getdata(scn, NULL);
			if (!w->syms)
				return -EINVAL;
			w->nr_syms = sh.sh_size / sh.sh_entsize;
			w->strtab = sh.sh_link;
			have_syms = true;
		} else if (name && !strcmp(name, BTF_IDS_SECTION) && sh.sh_type != SHT_NOBITS) {
			/* PROGBITS: ask for words so libelf converts the byte order. */
			w->ids = elf_getdata_rawchunk(elf, (int64_t)sh.sh_offset, sh.sh_size,
						      ELF_T_WORD);
			if (!w->ids)
				return -EINVAL;
			w->ids_shndx = elf_ndxscn(scn);
			w->ids_addr = sh.sh_addr;
			have_ids = true;
		}
	}
	return have_syms && have_ids ? 1 : 0;
}

/* The [start, end) of every set8 flagged as a kfunc set. */
static int kfunc_ranges(Elf *elf, const struct ids_view *w, struct range **out, size_t *nr)
{
	struct range *r = NULL, *tmp;
	size_t i, n = 0, cap = 0;
	GElf_Sym sym;
	uint32_t flags;

	for (i = 0; i < w->nr_syms; i++) {
		const char *name;

		if (!gelf_getsym(w->syms, (int)i, &sym) || sym.st_shndx != w->ids_shndx)
			continue;
		name = elf_strptr(elf, w->strtab, sym.st_name);
		if (!name || strncmp(name, SET8_PREFIX, strlen(SET8_PREFIX)))
			continue;
		/* struct btf_id_set8 { u32 cnt; u32 flags; ... } */
		if (sym.st_value < w->ids_addr ||
		    !ids_word(w, sym.st_value - w->ids_addr + 4, &flags) ||
		    !(flags & BTF_SET8_KFUNCS))
			continue;
		if (n == cap) {
			cap = cap ? cap * 2 : 64;
			tmp = realloc(r, cap * sizeof(*r));
			if (!tmp) {
				free(r);
				return -ENOMEM;
			}
			r = tmp;
		}
		r[n].start = sym.st_value;
		r[n].end = sym.st_value + sym.st_size;
		n++;
	}
	*out = r;
	*nr = n;
	return 0;
}

static int push_kfunc(struct enc_kfuncs *k, char *name, uint32_t flags)
{
	struct kfunc *tmp;

	if (k->n == k->cap) {
		k->cap = k->cap ? k->cap * 2 : 64;
		tmp = realloc(k->v, k->cap * sizeof(*tmp));
		if (!tmp) {
			free(name);
			return -ENOMEM;
		}
		k->v = tmp;
	}
	k->v[k->n].name = name;
	k->v[k->n].flags = flags;
	k->v[k->n].order = (uint32_t)k->n;
	k->n++;
	return 0;
}

static int cmp_kfunc(const void *a, const void *b)
{
	const struct kfunc *x = a, *y = b;
	int c = strcmp(x->name, y->name);

	if (c)
		return c;
	return x->order < y->order ? -1 : x->order > y->order;
}

/* Every __BTF_ID__func__ symbol inside a kfunc range, with its flags. */
static int collect(Elf *elf, const struct ids_view *w, const struct range *r, size_t nr,
		   struct enc_kfuncs *k)
{
	size_t i, j;
	GElf_Sym sym;
	int err;

	for (i = 0; i < w->nr_syms; i++) {
		const char *name;
		uint32_t flags;
		char *func;

		if (!gelf_getsym(w->syms, (int)i, &sym) || sym.st_shndx != w->ids_shndx)
			continue;
		name = elf_strptr(elf, w->strtab, sym.st_name);
		func = name ? func_of_symbol(name) : NULL;
		if (!func)
			continue;
		for (j = 0; j < nr; j++)
			if (r[j].start <= sym.st_value && sym.st_value < r[j].end)
				break;
		/* struct btf_id_and_flag { u32 id; u32 flags; } */
		if (j == nr || sym.st_value < w->ids_addr ||
		    !ids_word(w, sym.st_value - w->ids_addr + 4, &flags)) {
			free(func);
			continue;
		}
		err = push_kfunc(k, func, flags);
		if (err)
			return err;
	}
	qsort(k->v, k->n, sizeof(*k->v), cmp_kfunc);
	return 0;
}

static int load_elf(Elf *elf, struct enc_kfuncs *k)
{
	struct ids_view w = { 0 };
	struct range *r = NULL;
	size_t nr = 0;
	int err = find_sections(elf, &w);

	if (err <= 0)
		return err; /* no symbols or no .BTF_ids: no kfuncs */
	err = kfunc_ranges(elf, &w, &r, &nr);
	if (!err && nr)
		err = collect(elf, &w, r, nr, k);
	free(r);
	return err;
}

int enc_kfuncs_load(const struct enc_state *s, struct enc_kfuncs **out)
{
	struct enc_kfuncs *k;
	Elf *elf;
	int fd, err;

	*out = NULL;
	k = calloc(1, sizeof(*k));
	if (!k)
		return -ENOMEM;
	fd = open(s->o->path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		err = -errno;
		goto out;
	}
	elf_version(EV_CURRENT);
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (!elf) {
		err = -EINVAL;
		goto out_fd;
	}
	err = load_elf(elf, k);
	elf_end(elf);
out_fd:
	close(fd);
out:
	if (err) {
		btf_log_printf(s->log, "%s: cannot read the kfunc sets of %s", s->o->path,
			       BTF_IDS_SECTION);
		enc_kfuncs_free(k);
		return err;
	}
	*out = k;
	return 0;
}

bool enc_kfunc_find(const struct enc_kfuncs *k, const char *name, uint32_t *flags)
{
	size_t lo = 0, hi = k ? k->n : 0;

	/* The last entry of @name's run: pahole keeps the last marking's flags. */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (strcmp(k->v[mid].name, name) <= 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo || strcmp(k->v[lo - 1].name, name))
		return false;
	*flags = k->v[lo - 1].flags;
	return true;
}

/* *@id, a PTR, becomes a new PTR to an "address_space(1)" attribute on its pointee. */
static int arena_ptr(struct enc_state *s, const char *func, uint32_t *id)
{
	const struct btf_type *t = *id ? btf__type_by_id(s->all, *id) : NULL;
	int attr, ptr;

	if (!t || btf_kind(t) != BTF_KIND_PTR) {
		btf_log_printf(s->log, "%s: kfunc %s: an arena flag on a value that is no pointer",
			       s->o->path, func);
		return -EINVAL;
	}
	attr = btf__add_type_attr(s->all, ARENA_ATTR, (int)t->type);
	if (attr < 0)
		return attr;
	ptr = btf__add_ptr(s->all, attr);
	if (ptr < 0)
		return ptr;
	*id = (uint32_t)ptr;
	return 0;
}

int enc_kfunc_arena_types(struct enc_state *s, const char *func, uint32_t flags,
			  uint32_t nr_slots, uint32_t types[3])
{
	static const uint32_t bit[3] = { KF_ARENA_RET, KF_ARENA_ARG1, KF_ARENA_ARG2 };
	uint32_t i;
	int err;

	if (!(s->o->features & ENC_F_ATTRIBUTES))
		return 0;
	for (i = 0; i < 3; i++) {
		if (!(flags & bit[i]))
			continue;
		if (i && i > nr_slots) {
			btf_log_printf(s->log, "%s: kfunc %s: arena flag on argument %u of %u",
				       s->o->path, func, i, nr_slots);
			return -EINVAL;
		}
		err = arena_ptr(s, func, &types[i]);
		if (err)
			return err;
	}
	return 0;
}

int enc_kfunc_tag(struct enc_state *s, uint32_t flags, int func_id)
{
	int err;

	if (!(s->o->features & ENC_F_DECL_TAG))
		return 0;
	err = btf__add_decl_tag(s->all, "bpf_kfunc", func_id, -1);
	if (err >= 0 && (flags & KF_FASTCALL))
		err = btf__add_decl_tag(s->all, "bpf_fastcall", func_id, -1);
	return err < 0 ? err : 0;
}
