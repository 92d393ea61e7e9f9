// SPDX-License-Identifier: GPL-2.0
/*
 * file.c - opening an ELF file's DWARF with its own libdw handle.
 *
 * Executables and vmlinux are read with dwarf_begin_elf() directly.
 * Relocatable objects (.o, .ko) carry their DWARF cross-references as
 * relocations, so they go through libdwfl, which applies them the way
 * pahole does (dwfl_report_offline + dwfl_module_getdwarf).  libdw
 * decompresses SHF_COMPRESSED and .zdebug sections by itself.
 */
#include "dw_internal.h"
#include "../btf/btf_internal.h"

#include <dwarf.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

struct dw_bytes {
	const unsigned char *lo, *hi;
	bool looked;
};

struct dw_file {
	int fd;
	Elf *elf;
	Dwarf *dw;   /* owned unless dwfl is set */
	Dwfl *dwfl;  /* ET_REL only; owns dw */
	Dwfl_Module *mod; /* ET_REL only: the module dwfl laid out */
	/* Looked up once: .debug_loc(lists) data for location views, .eh_frame CFI. */
	Elf_Data *loc_data[2];
	bool loc_looked[2];
	Dwarf_CFI *eh_cfi;
	bool eh_looked;
	/* .debug_info (die.c's bounds) and .debug_str as libdw reads them. */
	struct dw_bytes info, str, abbrev;
	struct dw_sub_memo sub_memo;
	struct dw_scratch scratch;
	Dwarf_Off *cu_offs; /* DIE offset of each CU's unit DIE */
	uint32_t nr_cus;
	size_t cus_cap;
	int machine;
	size_t ptr_size;
	/* -1 not known yet; 1: the file's image is a read-only private mapping. */
	int ro_map;
	/* Reads the relocated image of this handle (dw_file_open_shared()). */
	const struct dw_file *image_of;
};

static const Dwfl_Callbacks offline_callbacks = {
	.find_debuginfo = dwfl_standard_find_debuginfo,
	.section_address = dwfl_offline_section_address,
};

static int open_relocated(struct dw_file *f, const char *path, const struct btf_log *log)
{
	Dwfl_Module *mod;
	Dwarf_Addr bias;
	int fd;

	f->dwfl = dwfl_begin(&offline_callbacks);
	if (!f->dwfl)
		goto err;
	/* dwfl takes ownership of the descriptor it is given. */
	fd = dup(f->fd);
	if (fd < 0) {
		btf_log_printf(log, "%s: %s", path, strerror(errno));
		return -errno;
	}
	mod = dwfl_report_offline(f->dwfl, path, path, fd);
	if (!mod)
		goto err;
	if (dwfl_report_end(f->dwfl, NULL, NULL) != 0)
		goto err;
	f->dw = dwfl_module_getdwarf(mod, &bias);
	if (!f->dw)
		goto err;
	f->mod = mod;
	return 0;
err:
	btf_log_printf(log, "%s: cannot read DWARF: %s", path, dwfl_errmsg(-1));
	return -EINVAL;
}

static Elf_Scn *find_section(Elf *elf, const char *name, GElf_Shdr *shdr);
static void drop_pages(struct dw_file *f, const char *start, const char *end);

static int add_cu(struct dw_file *f, Dwarf_Off die_off)
{
	Dwarf_Off *slot = btf_add_mem((void **)&f->cu_offs, &f->cus_cap, sizeof(*slot), f->nr_cus,
				      UINT32_MAX, 1);

	if (!slot)
		return -ENOMEM;
	*slot = die_off;
	f->nr_cus++;
	return 0;
}

/*
 * The unit DIE offsets from the headers in .debug_info, each read with
 * pread(): reading them through the mapping faulted in the pages around
 * each one (vmlinux: 2172 units, ~40 ms before any worker could start).
 * 1 when the headers are not plainly readable so (compressed, foreign
 * byte order, relocated, an odd header): libdw walks them then, and says
 * what is wrong.
 */
static int collect_cus_raw(struct dw_file *f)
{
	uint64_t off = 0, len, end;
	unsigned char h[40];
	size_t lsz, osz, hsz;
	GElf_Ehdr eh;
	GElf_Shdr sh;
	uint32_t l32;
	uint16_t ver;
	uint8_t ut;
	ssize_t n;
	int err;

	if (f->dwfl || !gelf_getehdr(f->elf, &eh) ||
	    (eh.e_ident[EI_DATA] == ELFDATA2MSB) != (__BYTE_ORDER__ == __ORDER_BIG_ENDIAN__) ||
	    !find_section(f->elf, ".debug_info", &sh) || sh.sh_type != SHT_PROGBITS)
		return 1;
	end = sh.sh_size;
	while (off < end) {
		n = pread(f->fd, h, end - off < sizeof(h) ? end - off : sizeof(h), sh.sh_offset + off);
		if (n < 12)
			return 1;
		memcpy(&l32, h, 4);
		if (l32 == 0xffffffff) {
			memcpy(&len, h + 4, 8);
			lsz = 12;
			osz = 8;
		} else if (l32 >= 0xfffffff0) {
			return 1;
		} else {
			len = l32;
			lsz = 4;
			osz = 4;
		}
		if (len > end - off - lsz || n < (ssize_t)(lsz + 2 + 2 + osz))
			return 1;
		memcpy(&ver, h + lsz, 2);
		if (ver >= 2 && ver <= 4) {
			ut = DW_UT_compile;
			hsz = lsz + 2 + osz + 1;
		} else if (ver == 5) {
			ut = h[lsz + 2];
			hsz = lsz + 2 + 1 + 1 + osz;
			if (ut == DW_UT_skeleton || ut == DW_UT_split_compile)
				hsz += 8;
			else if (ut == DW_UT_type || ut == DW_UT_split_type)
				hsz += 8 + osz;
			else if (ut != DW_UT_compile && ut != DW_UT_partial)
				return 1;
		} else {
			return 1;
		}
		/* A unit without a DIE: libdw decides what it is. */
		if (hsz >= lsz + len)
			return 1;
		/* Type units hold nothing a CU does not reference itself. */
		if (ut != DW_UT_type && ut != DW_UT_split_type) {
			err = add_cu(f, off + hsz);
			if (err)
				return err;
		}
		off += lsz + len;
	}
	return 0;
}

/* Records the unit DIE offset of every compile/partial unit. */
static int collect_cus(struct dw_file *f, const char *path, const struct btf_log *log)
{
	Dwarf_CU *cu = NULL;
	Dwarf_Die cudie;
	Dwarf_Half version;
	uint8_t unit_type;
	int ret;

	ret = collect_cus_raw(f);
	if (ret <= 0)
		return ret;
	/* Whatever the headers gave is found again. */
	f->nr_cus = 0;
	while ((ret = dwarf_get_units(f->dw, cu, &cu, &version, &unit_type, &cudie, NULL)) == 0) {
		/* Type units hold nothing a CU does not reference itself. */
		if (unit_type == DW_UT_type || unit_type == DW_UT_split_type)
			continue;
		ret = add_cu(f, dwarf_dieoffset(&cudie));
		if (ret)
			return ret;
	}
	if (ret < 0) {
		btf_log_printf(log, "%s: cannot walk units: %s", path, dwarf_errmsg(-1));
		return -EINVAL;
	}
	/*
	 * Reading every unit header mapped the pages around each (the
	 * kernel's fault-around): 100 MB of vmlinux per handle.
	 */
	if (!f->dwfl) {
		size_t size;
		const char *raw = elf_rawfile(f->elf, &size);

		if (raw)
			drop_pages(f, raw, raw + size);
	}
	return 0;
}

static int read_header(struct dw_file *f, const char *path, const struct btf_log *log)
{
	GElf_Ehdr ehdr;

	if (!gelf_getehdr(f->elf, &ehdr)) {
		btf_log_printf(log, "%s: not an ELF file: %s", path, elf_errmsg(-1));
		return -EINVAL;
	}
	f->machine = ehdr.e_machine;
	f->ptr_size = ehdr.e_ident[EI_CLASS] == ELFCLASS32 ? 4 : 8;
	return ehdr.e_type == ET_REL;
}

/* @units: the unit DIE offsets, known from an earlier handle, or NULL. */
static struct dw_file *open_file(const char *path, const uint64_t *units, uint32_t nr_units,
				 const struct btf_log *log)
{
	struct dw_file *f;
	int err, is_rel;

	elf_version(EV_CURRENT);
	f = calloc(1, sizeof(*f));
	if (!f)
		return NULL;
	f->ro_map = -1;
	f->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (f->fd < 0) {
		err = -errno;
		btf_log_printf(log, "%s: %s", path, strerror(errno));
		goto fail;
	}
	f->elf = elf_begin(f->fd, ELF_C_READ_MMAP, NULL);
	if (!f->elf) {
		err = -EINVAL;
		btf_log_printf(log, "%s: %s", path, elf_errmsg(-1));
		goto fail;
	}
	is_rel = read_header(f, path, log);
	if (is_rel < 0) {
		err = is_rel;
		goto fail;
	}
	if (is_rel) {
		err = open_relocated(f, path, log);
	} else {
		f->dw = dwarf_begin_elf(f->elf, DWARF_C_READ, NULL);
		err = f->dw ? 0 : -ENODATA;
		if (err)
			btf_log_printf(log, "%s: no DWARF: %s", path, dwarf_errmsg(-1));
	}
	if (err)
		goto fail;
	if (units) {
		/* The same bytes: the same units; no second walk over the headers. */
		f->cu_offs = malloc((nr_units ? nr_units : 1) * sizeof(*f->cu_offs));
		if (!f->cu_offs) {
			err = -ENOMEM;
			goto fail;
		}
		memcpy(f->cu_offs, units, nr_units * sizeof(*f->cu_offs));
		f->nr_cus = f->cus_cap = nr_units;
		return f;
	}
	err = collect_cus(f, path, log);
	if (err)
		goto fail;
	return f;
fail:
	dw_file_close(f);
	errno = -err;
	return NULL;
}

struct dw_file *dw_file_open(const char *path, const struct btf_log *log)
{
	return open_file(path, NULL, 0, log);
}

struct dw_file *dw_file_open_units(const char *path, const uint64_t *units, uint32_t nr,
				   const struct btf_log *log)
{
	if (!units) {
		errno = EINVAL;
		return NULL;
	}
	return open_file(path, units, nr, log);
}

static bool in_readonly_file_map(const char *lo, const char *hi);

static bool is_debug_name(const char *name)
{
	return !strncmp(name, ".debug_", 7) || !strncmp(name, ".zdebug_", 8) ||
	       !strncmp(name, ".gnu.debuglto_", 14);
}

/*
 * Whether every debug section of @f is read where it lies in the file's
 * image, so that the image itself is what libdw reads (for a relocatable
 * file: libdwfl relocated it there, in a private mapping): not so for
 * compressed sections, decompressed elsewhere, whose headers libelf would
 * rewrite in the image.  (A foreign byte order is no obstacle: debug
 * sections are bytes, and libelf converts the headers into copies.)
 * @mapped: only where libelf maps the file; elf_rawfile() would
 * otherwise read all of it into memory.
 */
static bool debug_in_image(const struct dw_file *f, bool mapped, const char **raw, size_t *size)
{
	Elf *elf = dwarf_getelf(f->dw);
	bool checked = !mapped;
	size_t shstrndx;
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;

	if (!elf || elf_getshdrstrndx(elf, &shstrndx))
		return false;
	*raw = NULL;
	while ((scn = elf_nextscn(elf, scn))) {
		const char *name;
		Elf_Data *data;

		if (!gelf_getshdr(scn, &sh))
			return false;
		name = elf_strptr(elf, shstrndx, sh.sh_name);
		if (!name)
			return false;
		if (!is_debug_name(name) || sh.sh_type == SHT_NOBITS || !sh.sh_size)
			continue;
		data = elf_getdata(scn, NULL);
		if ((sh.sh_flags & SHF_COMPRESSED) || name[1] == 'z' || !data || !data->d_buf)
			return false;
		/* The first section's data tells whether the file is mapped. */
		if (!checked) {
			if (!in_readonly_file_map(data->d_buf, (char *)data->d_buf + data->d_size))
				return false;
			checked = true;
		}
		if (!*raw && !(*raw = elf_rawfile(elf, size)))
			return false;
		if (sh.sh_offset > *size || sh.sh_size > *size - sh.sh_offset ||
		    data->d_buf != *raw + sh.sh_offset || data->d_size != sh.sh_size)
			return false;
	}
	return *raw != NULL;
}

struct dw_file *dw_file_open_shared(const struct dw_file *first)
{
	struct dw_file *f;
	const char *raw;
	size_t size;

	/*
	 * A dwz alternate file would be found by libdwfl only: not shared.
	 * dwfl_module_relocate_address() loads the symbol table and the
	 * section table on first use: done here, before any worker runs,
	 * so that the workers' calls only read them.
	 */
	if (dwarf_getalt(first->dw) || !debug_in_image(first, !first->dwfl, &raw, &size) ||
	    (first->dwfl && dwfl_module_relocations(first->mod) < 0)) {
		errno = ENOTSUP;
		return NULL;
	}
	if (first->dwfl)
		dwfl_module_getsymtab(first->mod);
	f = calloc(1, sizeof(*f));
	if (!f)
		return NULL;
	f->fd = -1;
	/*
	 * A relocated image is the first handle's own memory; a plain one
	 * is its read-only mapping of the file, whose pages this handle may
	 * drop (dw_file_drop_pages()) and whose Dwarf it may renew.
	 */
	f->ro_map = first->dwfl ? 0 : -1;
	f->image_of = first->dwfl ? first : NULL;
	f->machine = first->machine;
	f->ptr_size = first->ptr_size;
	/* libelf reads a memory image in place; nothing here writes to it. */
	f->elf = elf_memory((char *)raw, size);
	f->dw = f->elf ? dwarf_begin_elf(f->elf, DWARF_C_READ, NULL) : NULL;
	f->cu_offs = malloc((first->nr_cus ? first->nr_cus : 1) * sizeof(*f->cu_offs));
	if (!f->dw || !f->cu_offs) {
		int err = f->cu_offs ? EINVAL : ENOMEM;

		dw_file_close(f);
		errno = err;
		return NULL;
	}
	memcpy(f->cu_offs, first->cu_offs, first->nr_cus * sizeof(*f->cu_offs));
	f->nr_cus = f->cus_cap = first->nr_cus;
	return f;
}

const uint64_t *dw_file_units(const struct dw_file *f)
{
	return f->cu_offs;
}

bool dw_file_relocated(const struct dw_file *f)
{
	return f->dwfl != NULL;
}

void dw_file_close(struct dw_file *f)
{
	if (!f)
		return;
	if (f->eh_cfi)
		dwarf_cfi_end(f->eh_cfi);
	if (f->dwfl)
		dwfl_end(f->dwfl);
	else if (f->dw)
		dwarf_end(f->dw);
	if (f->elf)
		elf_end(f->elf);
	if (f->fd >= 0)
		close(f->fd);
	free(f->cu_offs);
	dw_scratch_free(&f->scratch);
	free(f);
}

uint32_t dw_file_cu_count(const struct dw_file *f)
{
	return f->nr_cus;
}

int dw_file_machine(const struct dw_file *f)
{
	return f->machine;
}

size_t dw_file_pointer_size(const struct dw_file *f)
{
	return f->ptr_size;
}

/* For cu.c: the Dwarf handle and the unit DIE of CU @idx. */
int dw_file_cu_die(struct dw_file *f, uint32_t idx, Dwarf **dw, Dwarf_Die *cudie)
{
	if (idx >= f->nr_cus)
		return -ERANGE;
	*dw = f->dw;
	if (!dwarf_offdie(f->dw, f->cu_offs[idx], cudie))
		return -EINVAL;
	return 0;
}

/* Whether [@lo, @hi) lies in one mapping of a file that cannot be written through. */
static bool in_readonly_file_map(const char *lo, const char *hi)
{
	FILE *maps = fopen("/proc/self/maps", "re");
	unsigned long start, end, ino;
	char perms[8], line[4096];
	bool ro = false;

	if (!maps)
		return false;
	while (fgets(line, sizeof(line), maps)) {
		if (sscanf(line, "%lx-%lx %7s %*s %*s %lu", &start, &end, perms, &ino) != 4)
			continue;
		if ((unsigned long)lo < start || (unsigned long)lo >= end)
			continue;
		ro = (unsigned long)hi <= end && perms[1] == '-' && perms[3] == 'p' && ino;
		break;
	}
	fclose(maps);
	return ro;
}

/*
 * Drops the resident pages of [@start, @end) of the file image, widened
 * to whole pages.  Only from a read-only private file mapping: there
 * MADV_DONTNEED cannot lose data, a later read faults the page in again
 * from the page cache.  libdwfl (ET_REL) relocates in memory, and libelf
 * falls back to reading the file into the heap when it cannot map it:
 * neither is touched.
 */
/*
 * The file's image in *@raw, *@size, if it is a read-only private file
 * mapping (looked up once), where MADV_DONTNEED cannot lose data.
 */
static bool readonly_image(struct dw_file *f, const char **raw, size_t *size)
{
	if (f->dwfl || !f->ro_map)
		return false;
	*raw = elf_rawfile(f->elf, size);
	if (!*raw)
		return false;
	if (f->ro_map < 0)
		f->ro_map = in_readonly_file_map(*raw, *raw + *size);
	return f->ro_map;
}

static void drop_pages(struct dw_file *f, const char *start, const char *end)
{
	uintptr_t page = sysconf(_SC_PAGESIZE), lo, hi;
	size_t raw_size;
	const char *raw;

	if (!readonly_image(f, &raw, &raw_size) || start < raw || end > raw + raw_size ||
	    end < start)
		return;
	lo = (uintptr_t)start & ~(page - 1);
	hi = ((uintptr_t)end + page - 1) & ~(page - 1);
	madvise((void *)lo, hi - lo, MADV_DONTNEED);
}

/*
 * The whole image but .debug_str, which every CU reads all over: mapping
 * its pages back after each drop cost more than its 3 MB (vmlinux, -j2:
 * ~5K of ~38K page faults, wall -11% in two of three sets of alternating
 * runs, the same peak).
 */
bool dw_file_drop_pages(struct dw_file *f)
{
	const unsigned char *lo, *hi;
	const char *raw, *end;
	size_t raw_size;

	if (!readonly_image(f, &raw, &raw_size))
		return false;
	end = raw + raw_size;
	if (!dw_file_str_bytes(f, &lo, &hi) || (const char *)lo < raw || (const char *)hi > end) {
		drop_pages(f, raw, end);
		return true;
	}
	drop_pages(f, raw, (const char *)lo);
	drop_pages(f, (const char *)hi, end);
	return true;
}

/*
 * libdw keeps every unit's abbreviations until dwarf_end(): vmlinux,
 * -j2, ~15 MB per handle by the last CU, at the run's peak.  A new Dwarf
 * on the same Elf starts empty.  It finds a unit by walking the headers
 * before it, and each header read faults in the pages around it (on a
 * page cache of 2 MB folios, all of .debug_info); the walk is done here,
 * 16 units at a time, dropping the pages after each step.
 *
 * Only the span a step walked goes, widened by WALK_REACH for what a
 * fault maps around the header it reads (a whole 2 MB folio at most).
 * Dropping the whole image each time cost 7% of a vmlinux run's wall
 * and CPU time (-j2, six alternating runs), for the same peak.
 */
#define WALK_REACH ((size_t)4 << 20)

int dw_file_renew(struct dw_file *f, uint32_t upto)
{
	const char *raw, *lo, *hi;
	size_t size;
	Dwarf_Die d;
	Dwarf *dw;
	uint32_t i;

	/* Only a plain read-only mapping: a relocated image is a module's. */
	if (f->image_of || !readonly_image(f, &raw, &size))
		return 0;
	dw = dwarf_begin_elf(f->elf, DWARF_C_READ, NULL);
	if (!dw)
		return -ENODATA;
	dwarf_end(f->dw);
	f->dw = dw;
	memset(&f->sub_memo, 0, sizeof(f->sub_memo));
	/* Where the new Dwarf reads its sections, looked up again. */
	memset(&f->info, 0, sizeof(f->info));
	memset(&f->str, 0, sizeof(f->str));
	memset(&f->abbrev, 0, sizeof(f->abbrev));
	for (i = 0, lo = raw; i < upto && i < f->nr_cus; i += 16) {
		/* A unit that fails here fails again, and is reported, when decoded. */
		if (!dwarf_offdie(dw, f->cu_offs[i], &d))
			continue;
		hi = (size_t)(raw + size - (const char *)d.addr) > WALK_REACH ?
			     (const char *)d.addr + WALK_REACH :
			     raw + size;
		drop_pages(f, lo, hi);
		lo = (size_t)((const char *)d.addr - raw) > WALK_REACH ?
			     (const char *)d.addr - WALK_REACH :
			     raw;
	}
	return 1;
}

int dw_file_addr_section(struct dw_file *f, uint64_t *addr)
{
	/*
	 * A shared image's addresses are its owner's layout.  Both calls
	 * only read the module's symbol and section tables, loaded before
	 * the workers start (dw_file_open_shared()), so handles may share
	 * them.
	 */
	Dwfl_Module *mod = f->image_of ? f->image_of->mod : f->mod;
	Dwarf_Addr a = *addr;
	GElf_Word shndx;
	int idx;

	if (!mod)
		return 0;
	idx = dwfl_module_relocate_address(mod, &a);
	if (idx < 0 || !dwfl_module_relocation_info(mod, idx, &shndx))
		return -ENOENT;
	*addr = a;
	return shndx;
}

/* Section @name of @elf and its header, uncompressed only; NULL if none. */
static Elf_Scn *find_section(Elf *elf, const char *name, GElf_Shdr *shdr)
{
	Elf_Scn *scn = NULL;
	size_t shstrndx;
	const char *s;

	if (!elf || elf_getshdrstrndx(elf, &shstrndx) != 0)
		return NULL;
	while ((scn = elf_nextscn(elf, scn))) {
		/* The one libdw reads: it skips group members and NOBITS too. */
		if (!gelf_getshdr(scn, shdr) ||
		    (shdr->sh_flags & (SHF_COMPRESSED | SHF_GROUP)) || shdr->sh_type == SHT_NOBITS)
			continue;
		s = elf_strptr(elf, shstrndx, shdr->sh_name);
		if (s && !strcmp(s, name))
			return scn;
	}
	return NULL;
}

/* The data of section @name of the ELF file libdw reads, uncompressed only. */
static Elf_Data *section_data(Elf *elf, const char *name)
{
	GElf_Shdr shdr;
	Elf_Scn *scn = find_section(elf, name, &shdr);

	return scn ? elf_getdata(scn, NULL) : NULL;
}

/* Section @name (or its .zdebug twin) as libdw reads it, looked up once. */
static bool debug_bytes(struct dw_file *f, struct dw_bytes *b, const char *name,
			const unsigned char **lo, const unsigned char **hi)
{
	Elf *elf = dwarf_getelf(f->dw);
	char zname[32];
	Elf_Data *data;

	if (!b->looked) {
		/* libdw decompressed it in place: this is what it reads. */
		data = section_data(elf, name);
		snprintf(zname, sizeof(zname), ".z%s", name + 1);
		if (!data)
			data = section_data(elf, zname);
		if (data && data->d_buf && data->d_size) {
			b->lo = data->d_buf;
			b->hi = b->lo + data->d_size;
		}
		b->looked = true;
	}
	*lo = b->lo;
	*hi = b->hi;
	return b->lo != NULL;
}

bool dw_file_info_bytes(struct dw_file *f, const unsigned char **lo, const unsigned char **hi)
{
	return debug_bytes(f, &f->info, ".debug_info", lo, hi);
}

size_t dw_file_info_size(struct dw_file *f)
{
	const unsigned char *lo, *hi;

	return dw_file_info_bytes(f, &lo, &hi) ? (size_t)(hi - lo) : 0;
}

bool dw_file_str_bytes(struct dw_file *f, const unsigned char **lo, const unsigned char **hi)
{
	return debug_bytes(f, &f->str, ".debug_str", lo, hi);
}

bool dw_file_abbrev_bytes(struct dw_file *f, const unsigned char **lo, const unsigned char **hi)
{
	return debug_bytes(f, &f->abbrev, ".debug_abbrev", lo, hi);
}

struct btf *dw_file_str_base(struct dw_file *f)
{
	const unsigned char *lo, *hi;
	struct btf *btf;

	if (!dw_file_str_bytes(f, &lo, &hi)) {
		errno = ENOENT;
		return NULL;
	}
	btf = btf_new_str_base(lo, hi - lo);
	if (!btf && !errno)
		errno = EINVAL;
	return btf;
}

Elf_Data *dw_file_loc_data(struct dw_file *f, bool dwarf5)
{
	/*
	 * Once per handle: a section walk per parameter cost libelf's
	 * lock round trips a third of a vmlinux run.
	 */
	if (!f->loc_looked[dwarf5]) {
		f->loc_data[dwarf5] = section_data(dwarf_getelf(f->dw),
						   dwarf5 ? ".debug_loclists" : ".debug_loc");
		f->loc_looked[dwarf5] = true;
	}
	return f->loc_data[dwarf5];
}

Dwarf_CFI *dw_file_eh_cfi(struct dw_file *f)
{
	if (!f->eh_looked) {
		f->eh_cfi = dwarf_getelf(f->dw) ? dwarf_getcfi_elf(dwarf_getelf(f->dw)) : NULL;
		f->eh_looked = true;
	}
	return f->eh_cfi;
}

struct dw_sub_memo *dw_file_sub_memo(struct dw_file *f)
{
	return &f->sub_memo;
}

struct dw_scratch *dw_file_scratch(struct dw_file *f)
{
	return &f->scratch;
}
