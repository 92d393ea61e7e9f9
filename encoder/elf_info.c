// SPDX-License-Identifier: GPL-2.0
/*
 * elf_info.c - sections and symbols of the input ELF: the function table
 * that decides which DWARF functions become FUNCs (pahole matches by the
 * name before the first '.', so "foo.isra.0" is a "foo"), the object
 * symbols for variables, and section bounds for DATASECs and LOCSECs.
 */
#include "elf_info.h"
#include "../btf/btf_internal.h"

#include <fcntl.h>
#include <pthread.h>
#include <gelf.h>
#include <libelf.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The first min(@len, 16) bytes of @s, big-endian: a name's order in two numbers. */
static void name_prefix(const char *s, size_t len, uint64_t out[2])
{
	size_t i;

	out[0] = out[1] = 0;
	for (i = 0; i < 16; i++)
		out[i / 8] = out[i / 8] << 8 | (i < len ? (unsigned char)s[i] : 0);
}

/* Keys and names hold no NUL: zero padding sorts a shorter one first. */
static int cmp_prefix(const uint64_t x[2], const uint64_t y[2])
{
	if (x[0] != y[0])
		return x[0] < y[0] ? -1 : 1;
	return x[1] < y[1] ? -1 : x[1] > y[1];
}

static int cmp_func(const void *a, const void *b)
{
	const struct enc_elf_sym *x = a, *y = b;
	uint32_t n = x->key_len < y->key_len ? x->key_len : y->key_len;
	int c = cmp_prefix(x->prefix, y->prefix);

	if (c)
		return c;
	c = memcmp(x->name, y->name, n);

	if (c)
		return c;
	if (x->key_len != y->key_len)
		return x->key_len < y->key_len ? -1 : 1;
	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return strcmp(x->name, y->name);
}

static int cmp_obj_name(const void *a, const void *b)
{
	const struct enc_elf_sym *x = a, *y = b;
	int c = cmp_prefix(x->prefix, y->prefix);

	return c ? c : strcmp(x->name, y->name);
}

static int cmp_obj(const void *a, const void *b)
{
	const struct enc_elf_sym *x = a, *y = b;
	int c = cmp_obj_name(a, b);

	if (c)
		return c;
	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

static int load_sections(Elf *elf, struct enc_elf_info *info, const struct btf_log *log,
			 const char *path)
{
	size_t shnum, shstrndx, i;

	if (elf_getshdrnum(elf, &shnum) || elf_getshdrstrndx(elf, &shstrndx)) {
		btf_log_printf(log, "%s: cannot read section headers: %s", path, elf_errmsg(-1));
		return -EINVAL;
	}
	info->secs = calloc(shnum ? shnum : 1, sizeof(*info->secs));
	if (!info->secs)
		return -ENOMEM;
	info->nr_secs = shnum;
	for (i = 1; i < shnum; i++) {
		Elf_Scn *scn = elf_getscn(elf, i);
		const char *name;
		GElf_Shdr sh;

		if (!scn || !gelf_getshdr(scn, &sh)) {
			btf_log_printf(log, "%s: bad section header %zu", path, i);
			return -EINVAL;
		}
		name = elf_strptr(elf, shstrndx, sh.sh_name);
		info->secs[i].name = strdup(name ? name : "");
		if (!info->secs[i].name)
			return -ENOMEM;
		info->secs[i].addr = sh.sh_addr;
		info->secs[i].size = sh.sh_size;
		info->secs[i].flags = sh.sh_flags;
		info->secs[i].type = sh.sh_type;
	}
	return 0;
}

/* The funcs array keeps STT_FUNC symbols; .cold and .part pieces are not functions. */
static bool keep_func(const char *name)
{
	return *name && !strstr(name, ".cold") && !strstr(name, ".part.");
}

static int load_symbols(Elf *elf, struct enc_elf_info *info, const struct btf_log *log,
			const char *path)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	Elf_Data *data, *strdata;
	size_t i, n;

	while ((scn = elf_nextscn(elf, scn))) {
		if (gelf_getshdr(scn, &sh) && sh.sh_type == SHT_SYMTAB)
			break;
	}
	if (!scn)
		return 0; /* stripped: no FUNCs or VARs can be matched */
	data = elf_getdata(scn, NULL);
	strdata = elf_getdata(elf_getscn(elf, sh.sh_link), NULL);
	if (!data || !strdata || !sh.sh_entsize) {
		/* libelf has no error to give for a zero entry size. */
		btf_log_printf(log, "%s: cannot read the symbol table: %s", path,
			       sh.sh_entsize ? elf_errmsg(-1) : "entry size 0");
		return -EINVAL;
	}
	info->strtab = malloc(strdata->d_size + 1);
	n = sh.sh_size / sh.sh_entsize;
	info->funcs = calloc(n ? n : 1, sizeof(*info->funcs));
	info->objs = calloc(n ? n : 1, sizeof(*info->objs));
	if (!info->strtab || !info->funcs || !info->objs)
		return -ENOMEM;
	memcpy(info->strtab, strdata->d_buf, strdata->d_size);
	info->strtab[strdata->d_size] = '\0';

	for (i = 1; i < n; i++) {
		struct enc_elf_sym *s;
		const char *name;
		GElf_Sym sym;

		if (!gelf_getsym(data, i, &sym) || sym.st_name >= strdata->d_size)
			continue;
		name = info->strtab + sym.st_name;
		if (!strcmp(name, "_text")) {
			info->has_text_sym = true;
			info->text_sym = sym.st_value;
		}
		if (GELF_ST_TYPE(sym.st_info) == STT_FUNC && keep_func(name))
			s = &info->funcs[info->nr_funcs++];
		else if (GELF_ST_TYPE(sym.st_info) == STT_OBJECT && *name)
			s = &info->objs[info->nr_objs++];
		else
			continue;
		s->name = name;
		s->addr = sym.st_value;
		s->size = sym.st_size;
		s->shndx = sym.st_shndx;
		s->key_len = strcspn(name, ".");
		/* Functions go by their key, objects by their name. */
		name_prefix(name,
			    GELF_ST_TYPE(sym.st_info) == STT_FUNC ? s->key_len : strnlen(name, 16),
			    s->prefix);
	}
	qsort(info->funcs, info->nr_funcs, sizeof(*info->funcs), cmp_func);
	qsort(info->objs, info->nr_objs, sizeof(*info->objs), cmp_obj);
	return 0;
}

/* The symbol table read beside the decode's start (vmlinux: ~35 ms). */
struct enc_elf_syms_job {
	pthread_t th;
	bool th_started;
	int fd;
	Elf *elf;
	const char *path;
	struct enc_elf_info *info;
	int err;
	char *msg; /* the first line it logged */
};

/* Logged from the main thread later, whole (a path can be long). */
static void keep_first_line(void *ctx, const char *msg)
{
	struct enc_elf_syms_job *j = ctx;

	if (!j->msg)
		j->msg = strdup(msg);
}

static void *syms_thread(void *arg)
{
	struct enc_elf_syms_job *j = arg;
	struct btf_log log = { keep_first_line, j };

	j->err = load_symbols(j->elf, j->info, &log, j->path);
	/* The symbols are copied: unmap the file (vmlinux: 8 MB at the decode's peak). */
	elf_end(j->elf);
	close(j->fd);
	j->elf = NULL;
	j->fd = -1;
	return NULL;
}

int enc_elf_info_load_async(const char *path, struct enc_elf_info *info, const struct btf_log *log)
{
	struct enc_elf_syms_job *j;
	GElf_Ehdr eh;
	int err = -EINVAL;

	memset(info, 0, sizeof(*info));
	j = calloc(1, sizeof(*j));
	if (!j)
		return -ENOMEM;
	j->path = path;
	j->info = info;
	elf_version(EV_CURRENT);
	j->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (j->fd < 0) {
		err = -errno;
		btf_log_printf(log, "%s: %s", path, strerror(errno));
		free(j);
		return err;
	}
	j->elf = elf_begin(j->fd, ELF_C_READ_MMAP, NULL);
	if (!j->elf || elf_kind(j->elf) != ELF_K_ELF || !gelf_getehdr(j->elf, &eh)) {
		btf_log_printf(log, "%s: not an ELF file", path);
		goto fail;
	}
	info->machine = eh.e_machine;
	info->is_rel = eh.e_type == ET_REL;
	info->ptr_size = gelf_getclass(j->elf) == ELFCLASS32 ? 4 : 8;
	info->swapped = (eh.e_ident[EI_DATA] == ELFDATA2MSB) !=
			(__BYTE_ORDER__ == __ORDER_BIG_ENDIAN__);
	err = load_sections(j->elf, info, log, path);
	if (err)
		goto fail;
	info->job = j;
	/* Without a thread, the symbols are read here and now. */
	if (pthread_create(&j->th, NULL, syms_thread, j))
		syms_thread(j);
	else
		j->th_started = true;
	return 0;
fail:
	elf_end(j->elf);
	close(j->fd);
	free(j);
	enc_elf_info_free(info);
	return err;
}

int enc_elf_info_wait(struct enc_elf_info *info, const struct btf_log *log, bool quiet)
{
	struct enc_elf_syms_job *j = info->job;
	int err;

	if (!j)
		return 0;
	if (j->th_started)
		pthread_join(j->th, NULL);
	err = j->err;
	if (err && j->msg && !quiet)
		btf_log_printf(log, "%s", j->msg);
	free(j->msg);
	free(j);
	info->job = NULL;
	return err;
}

int enc_elf_info_load(const char *path, struct enc_elf_info *info, const struct btf_log *log)
{
	int err = enc_elf_info_load_async(path, info, log);

	if (!err)
		err = enc_elf_info_wait(info, log, false);
	if (err)
		enc_elf_info_free(info);
	return err;
}

void enc_elf_info_free(struct enc_elf_info *info)
{
	uint32_t i;

	enc_elf_info_wait(info, NULL, true);
	for (i = 0; i < info->nr_secs; i++)
		free(info->secs[i].name);
	free(info->secs);
	free(info->strtab);
	free(info->funcs);
	free(info->objs);
	memset(info, 0, sizeof(*info));
}

const struct enc_elf_sym *enc_elf_find_funcs(const struct enc_elf_info *info, const char *name,
					     uint32_t *nr)
{
	size_t len = strlen(name);
	uint64_t prefix[2];
	uint32_t lo = 0, hi = info->nr_funcs, end;

	name_prefix(name, len, prefix);
	/* Lower bound of the key. */
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		const struct enc_elf_sym *s = &info->funcs[mid];
		uint32_t n = s->key_len < len ? s->key_len : len;
		int c = cmp_prefix(s->prefix, prefix);

		if (!c)
			c = memcmp(s->name, name, n);
		if (!c)
			c = s->key_len < len ? -1 : s->key_len > len;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (end = lo; end < info->nr_funcs; end++) {
		const struct enc_elf_sym *s = &info->funcs[end];

		if (s->key_len != len || memcmp(s->name, name, len))
			break;
	}
	*nr = end - lo;
	return *nr ? &info->funcs[lo] : NULL;
}

const struct enc_elf_sym *enc_elf_find_obj(const struct enc_elf_info *info, const char *name)
{
	struct enc_elf_sym key = { .name = name };

	name_prefix(name, strnlen(name, 16), key.prefix);

	return bsearch(&key, info->objs, info->nr_objs, sizeof(key), cmp_obj_name);
}

int enc_elf_sec_by_addr(const struct enc_elf_info *info, uint64_t addr)
{
	uint32_t i;

	for (i = 1; i < info->nr_secs; i++) {
		const struct enc_elf_sec *s = &info->secs[i];

		if ((s->flags & SHF_ALLOC) && s->type != SHT_NOBITS && addr >= s->addr &&
		    addr < s->addr + s->size)
			return i;
	}
	for (i = 1; i < info->nr_secs; i++) {
		const struct enc_elf_sec *s = &info->secs[i];

		/* .bss-like sections hold variables too. */
		if ((s->flags & SHF_ALLOC) && addr >= s->addr && addr < s->addr + s->size)
			return i;
	}
	return -1;
}

int enc_elf_sec_by_name(const struct enc_elf_info *info, const char *name)
{
	uint32_t i;

	for (i = 1; i < info->nr_secs; i++)
		if (!strcmp(info->secs[i].name, name))
			return i;
	return -1;
}
