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
#include <unistd.h>

struct dw_file {
	int fd;
	Elf *elf;
	Dwarf *dw;   /* owned unless dwfl is set */
	Dwfl *dwfl;  /* ET_REL only; owns dw */
	Dwarf_Off *cu_offs; /* DIE offset of each CU's unit DIE */
	uint32_t nr_cus;
	size_t cus_cap;
	int machine;
	size_t ptr_size;
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
	return 0;
err:
	btf_log_printf(log, "%s: cannot read DWARF: %s", path, dwfl_errmsg(-1));
	return -EINVAL;
}

/* Records the unit DIE offset of every compile/partial unit. */
static int collect_cus(struct dw_file *f, const char *path, const struct btf_log *log)
{
	Dwarf_CU *cu = NULL;
	Dwarf_Die cudie;
	Dwarf_Half version;
	uint8_t unit_type;
	Dwarf_Off *slot;
	int ret;

	while ((ret = dwarf_get_units(f->dw, cu, &cu, &version, &unit_type, &cudie, NULL)) == 0) {
		/* Type units hold nothing a CU does not reference itself. */
		if (unit_type == DW_UT_type || unit_type == DW_UT_split_type)
			continue;
		slot = btf_add_mem((void **)&f->cu_offs, &f->cus_cap, sizeof(*slot), f->nr_cus,
				   UINT32_MAX, 1);
		if (!slot)
			return -ENOMEM;
		*slot = dwarf_dieoffset(&cudie);
		f->nr_cus++;
	}
	if (ret < 0) {
		btf_log_printf(log, "%s: cannot walk units: %s", path, dwarf_errmsg(-1));
		return -EINVAL;
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

struct dw_file *dw_file_open(const char *path, const struct btf_log *log)
{
	struct dw_file *f;
	int err, is_rel;

	elf_version(EV_CURRENT);
	f = calloc(1, sizeof(*f));
	if (!f)
		return NULL;
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
	err = collect_cus(f, path, log);
	if (err)
		goto fail;
	return f;
fail:
	dw_file_close(f);
	errno = -err;
	return NULL;
}

void dw_file_close(struct dw_file *f)
{
	if (!f)
		return;
	if (f->dwfl)
		dwfl_end(f->dwfl);
	else if (f->dw)
		dwarf_end(f->dw);
	if (f->elf)
		elf_end(f->elf);
	if (f->fd >= 0)
		close(f->fd);
	free(f->cu_offs);
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
