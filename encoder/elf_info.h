/* SPDX-License-Identifier: GPL-2.0 */
/* elf_info.h - what the encoder needs from the input ELF besides DWARF. */
#ifndef BTFENC_ELF_INFO_H
#define BTFENC_ELF_INFO_H

#include "../btf/btf.h"

#include <stdbool.h>
#include <stdint.h>

struct enc_elf_sec {
	char *name;
	uint64_t addr;
	uint64_t size;
	uint64_t flags; /* SHF_* */
	uint32_t type;  /* SHT_* */
};

/* An STT_FUNC or STT_OBJECT symbol. */
struct enc_elf_sym {
	const char *name; /* points into enc_elf_info.strtab */
	uint64_t addr;
	uint64_t size;
	uint32_t shndx;
	uint32_t key_len; /* length of the name before the first '.' */
	/*
	 * The first 16 bytes of the key (a function) or of the name (an
	 * object), big-endian and zero-padded: compared as numbers, they
	 * order as the strings do, without reading them.
	 */
	uint64_t prefix[2];
};

struct enc_elf_info {
	int machine;     /* EM_* */
	bool is_rel;     /* ET_REL: addresses are section-relative */
	size_t ptr_size; /* 4 or 8 */
	bool swapped;    /* byte order differs from this machine's */
	struct enc_elf_sec *secs; /* indexed by section number */
	uint32_t nr_secs;
	char *strtab;    /* copy of the symbol string table */
	struct enc_elf_sym *funcs; /* sorted by (key, addr) */
	uint32_t nr_funcs;
	struct enc_elf_sym *objs;  /* sorted by name */
	uint32_t nr_objs;
	bool has_text_sym;
	uint64_t text_sym;         /* value of _text, if any */
	struct enc_elf_syms_job *job; /* symbols still being read */
};

/* Reads sections and symbols of @path.  0 or negative errno (logged). */
int enc_elf_info_load(const char *path, struct enc_elf_info *info, const struct btf_log *log);
/*
 * The same, but the symbols are read on a thread of their own until
 * enc_elf_info_wait(), which logs what went wrong there, if anything,
 * unless @quiet.  In between, only the header fields and the sections
 * may be used.
 */
int enc_elf_info_load_async(const char *path, struct enc_elf_info *info, const struct btf_log *log);
int enc_elf_info_wait(struct enc_elf_info *info, const struct btf_log *log, bool quiet);
void enc_elf_info_free(struct enc_elf_info *info);

/*
 * The run of function symbols whose key (name before the first '.')
 * equals @name; *@nr = 0 if none.
 */
const struct enc_elf_sym *enc_elf_find_funcs(const struct enc_elf_info *info, const char *name,
					     uint32_t *nr);
/* The STT_OBJECT symbol named @name, or NULL. */
const struct enc_elf_sym *enc_elf_find_obj(const struct enc_elf_info *info, const char *name);
/* The allocated section containing @addr (not ET_REL), or -1. */
int enc_elf_sec_by_addr(const struct enc_elf_info *info, uint64_t addr);
/* The section named @name, or -1. */
int enc_elf_sec_by_name(const struct enc_elf_info *info, const char *name);

#endif /* BTFENC_ELF_INFO_H */
