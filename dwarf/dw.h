/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dw.h - DWARF reading for btfenc: one CU at a time into a struct dw_cu,
 * with the CU's types as a standalone BTF plus records of its functions,
 * variables and inline sites.  No globals, no locks: each worker has
 * its own struct dw_file and Dwarf handle (libdw 0.188 is not safe
 * across threads on one), though handles may read one image of the file
 * (dw_file_open_shared()).
 */
#ifndef BTFENC_DW_H
#define BTFENC_DW_H

#include "../btf/btf.h"

#include <stdbool.h>
#include <stdint.h>

/* What the encoder wants from the DWARF (one struct, parsed in cmd/). */
struct dw_opts {
	bool encode_float;   /* DW_ATE_float -> FLOAT, else INT (pahole < float) */
	bool encode_enum64;  /* 64-bit enums -> ENUM64, else truncated ENUM */
	bool decl_tag;       /* btf_decl_tag annotations -> DECL_TAG */
	bool type_tag;       /* btf_type_tag annotations -> TYPE_TAG */
	bool skip_rust;      /* --lang_exclude=rust */
	bool collect_inlines;/* DW_TAG_inlined_subroutine -> dw_site */
	/*
	 * dw_file_str_base() of the file, or NULL.  Each CU's BTF is then
	 * split on it, and a name in .debug_str takes its offset there with
	 * no lookup (vmlinux: 7.6M names hashed in the workers, and the
	 * merge hashed each CU's strings again).
	 */
	struct btf *str_base;
};

/* A parameter or return slot of a prototype, ids local to dw_cu.btf. */
struct dw_param {
	uint32_t name_off; /* in dw_cu.names; 0 = unnamed ("" too, once merged) */
	uint32_t type;     /* id in dw_cu.btf, 0 = void */
};

/* dw_func.flags */
enum {
	DW_FUNC_EXTERNAL = 1 << 0,       /* DW_AT_external */
	DW_FUNC_DECLARATION = 1 << 1,    /* DW_AT_declaration, no code */
	DW_FUNC_INLINED = 1 << 2,        /* DW_AT_inline says inlined */
	DW_FUNC_HAS_CODE = 1 << 3,       /* low_pc, entry_pc or ranges */
	DW_FUNC_UNNAMED_PARAM = 1 << 4,  /* a parameter without a name */
	DW_FUNC_OPTIMIZED_PARAM = 1 << 5,/* a parameter with no location */
	DW_FUNC_UNEXPECTED_REG = 1 << 6, /* a parameter not where the ABI puts it */
	DW_FUNC_NOCALL = 1 << 7,         /* DW_CC_nocall: calling convention changed */
	DW_FUNC_VARARGS = 1 << 8,        /* DW_TAG_unspecified_parameters */
	DW_FUNC_UNCERTAIN_LOC = 1 << 9,  /* packed struct on the stack */
	DW_FUNC_KFUNC = 1 << 10,         /* reserved for the encoder */
	DW_FUNC_REORDERED = 1 << 11,     /* a concrete instance lists params out of order */
	DW_FUNC_RANGES_ADDR = 1 << 12,   /* addr from DW_AT_ranges: no DW_AT_low_pc */
};

/* A DW_TAG_subprogram of this CU (concrete or abstract). */
struct dw_func {
	uint32_t name_off;    /* in dw_cu.names */
	uint32_t ret_type;    /* id in dw_cu.btf */
	uint32_t first_param; /* index into dw_cu.params */
	uint16_t nr_params;
	uint16_t flags;       /* DW_FUNC_* */
	uint64_t addr;        /* low_pc / entry address, 0 if none */
	uint64_t die_off;     /* for messages */
	uint32_t first_tag;   /* index into dw_cu.tags (decl tags on it) */
	uint16_t nr_tags;
};

/* A top-level variable definition with a fixed address. */
struct dw_var {
	uint32_t name_off; /* in dw_cu.names */
	uint32_t type;     /* id in dw_cu.btf */
	uint64_t addr;
	uint64_t size;     /* byte size of the type */
	bool external;
	bool declaration;
	bool artificial;
	bool has_addr;
	uint32_t first_tag;
	uint16_t nr_tags;
};

/* A btf_decl_tag annotation on a function/param or variable. */
struct dw_tag {
	uint32_t value_off; /* in dw_cu.names */
	int32_t component;  /* -1 = the function/variable, else param index */
};

/*
 * Where one parameter lives at an inline site; independent of the output
 * layout (the seed layout and the merged layout are written from this).
 */
enum dw_loc_kind {
	DW_LOC_NONE,      /* not recoverable; see reason */
	DW_LOC_REG,       /* value in register reg */
	DW_LOC_REG_PAIR,  /* value in reg (low part) and reg2 (high part) */
	DW_LOC_DEREF,     /* value in memory at reg + offset */
	DW_LOC_REG_OFF,   /* value is reg + offset (not dereferenced) */
	DW_LOC_FBREG,     /* value in memory at frame base + offset (unresolved) */
	DW_LOC_CONST,     /* constant value */
	DW_LOC_ADDR,      /* constant address; ET_REL: in section reg at offset value */
};

/* Why a parameter is DW_LOC_NONE; stats counts these. */
enum dw_loc_miss {
	DW_MISS_NONE = 0,
	DW_MISS_NO_PARAM_DIE,    /* no formal_parameter child for it */
	DW_MISS_NO_LOCATION,     /* no DW_AT_location / const_value: optimized out */
	DW_MISS_NO_ENTRY,        /* no location-list entry covers the address */
	DW_MISS_EMPTY_EXPR,      /* empty expression */
	DW_MISS_ENTRY_VALUE,     /* DW_OP_entry_value */
	DW_MISS_PARAMETER_REF,   /* DW_OP_GNU_parameter_ref */
	DW_MISS_IMPLICIT_POINTER,/* DW_OP_implicit_pointer */
	DW_MISS_COMPUTED,        /* arithmetic or other multi-op expression */
	DW_MISS_PIECES,          /* pieces that are not all registers */
	DW_MISS_TOO_BIG,         /* value larger than 8 bytes (not a reg pair) */
	DW_MISS_BAD_SIZE,        /* type size not 1, 2, 4 or 8 */
	DW_MISS_FBREG,           /* frame base not resolvable */
	DW_MISS_BAD_DWARF,       /* malformed attribute or expression */
	DW_MISS_NR,
};

struct dw_loc {
	uint8_t kind;   /* enum dw_loc_kind */
	uint8_t reason; /* enum dw_loc_miss, for DW_LOC_NONE */
	int8_t size;    /* bytes, negative = signed, 0 = unknown */
	uint16_t reg;   /* DWARF register number */
	uint16_t reg2;
	int32_t offset;
	uint64_t value;
};

/*
 * DWARF itself has no location for the parameter at the site (optimized
 * out, a location-list gap, no parameter DIE): no encoder can recover it.
 */
static inline bool dw_loc_lost(const struct dw_loc *l)
{
	return l->kind == DW_LOC_NONE &&
	       (l->reason == DW_MISS_NO_LOCATION || l->reason == DW_MISS_NO_ENTRY ||
		l->reason == DW_MISS_NO_PARAM_DIE);
}

/* One DW_TAG_inlined_subroutine, nested ones included. */
struct dw_site {
	uint32_t name_off;    /* inlined function's name, in dw_cu.names */
	uint32_t ret_type;    /* prototype of the abstract origin */
	uint32_t first_param; /* index into dw_cu.params (origin's params) */
	uint16_t nr_params;
	uint64_t addr;        /* entry_pc, else low_pc, else lowest range */
	uint32_t first_loc;   /* index into dw_cu.locs, nr_params entries */
	uint32_t shndx;       /* ET_REL: addr's ELF section, addr its offset there */
	uint64_t die_off;
};

/* Everything a worker extracted from one CU. */
struct dw_cu {
	struct btf *btf; /* the CU's types, base BTF with local ids */
	/*
	 * Strings only: the names of funcs, vars and their params, decl tag
	 * values (the *_off fields).  Apart from the types' strings, so that
	 * merging the types takes just theirs.
	 */
	struct btf *names;
	char *name;      /* DW_AT_name of the CU */
	unsigned int lang;
	bool skipped;    /* excluded by language: no content */

	struct dw_func *funcs;
	uint32_t nr_funcs;
	struct dw_var *vars;
	uint32_t nr_vars;
	struct dw_param *params;
	uint32_t nr_params;
	struct dw_tag *tags;
	uint32_t nr_tags;
	struct dw_site *sites;
	uint32_t nr_sites;
	struct dw_loc *locs;
	uint32_t nr_locs;
};

struct dw_file;

/*
 * Opens @path with its own libdw handle; ET_REL objects get their
 * relocations applied (libdwfl).  Errors go to @log as one line naming
 * @path.  NULL on failure, with errno set.
 */
struct dw_file *dw_file_open(const char *path, const struct btf_log *log);
/*
 * dw_file_open() for a file already opened once (a worker's own handle):
 * its @nr units start at the DIE offsets @units (dw_file_units() of the
 * first handle) instead of being found again (vmlinux: 55 ms each).  The
 * file must not have changed in between.
 */
struct dw_file *dw_file_open_units(const char *path, const uint64_t *units, uint32_t nr,
				   const struct btf_log *log);
void dw_file_close(struct dw_file *f);

/* Number of CUs (stable order: .debug_info order). */
uint32_t dw_file_cu_count(const struct dw_file *f);
/* The unit DIE offset of each CU, dw_file_cu_count() of them. */
const uint64_t *dw_file_units(const struct dw_file *f);
/* The size of the file's .debug_info as libdw reads it; 0 if none. */
size_t dw_file_info_size(struct dw_file *f);
/*
 * Whether opening @f relocated its DWARF in memory (a relocatable object
 * through libdwfl): what makes another handle on the same file costly.
 */
bool dw_file_relocated(const struct dw_file *f);
/*
 * Another handle on @first's file that reads @first's image of it: for a
 * relocated file, instead of relocating it again; for any other, so
 * that the workers share one mapping of the file (each page faulted in
 * once, counted once in the RSS; vmlinux, -j2: each worker's libdw read
 * every unit header, the other worker's pages mostly not yet mapped in
 * its own mapping).  Call it before @first is used by another thread;
 * close it before @first.  NULL with errno set (and nothing logged):
 * ENOTSUP where the image is not what libdw reads (compressed sections),
 * or not a mapping of the file.  A handle from dw_file_open_units()
 * does the same work, only slower.
 */
struct dw_file *dw_file_open_shared(const struct dw_file *first);

/*
 * ET_REL files: the ELF section index holding the relocated DWARF address
 * *@addr (libdwfl's layout), with *@addr rewritten to its offset in that
 * section; -ENOENT if no section holds it.  Other files: 0, *@addr kept.
 */
int dw_file_addr_section(struct dw_file *f, uint64_t *addr);

/*
 * A BTF with no types whose strings are "" and the file's .debug_str, for
 * dw_opts.str_base; NULL (errno set) if the file has none to use.
 */
struct btf *dw_file_str_base(struct dw_file *f);
/* Machine (EM_*), ELF class pointer size (4 or 8) and byte order. */
int dw_file_machine(const struct dw_file *f);
size_t dw_file_pointer_size(const struct dw_file *f);

/*
 * Decodes CU number @idx into @cu (zeroed by the caller).  Returns 0 or a
 * negative errno, with a line naming the DIE offset sent to @log.
 */
int dw_cu_decode(struct dw_file *f, uint32_t idx, const struct dw_opts *opts, struct dw_cu *cu,
		 const struct btf_log *log);
/*
 * Between CUs: gives back the pages of this handle's mapping of the file
 * but those of .debug_str (the page cache keeps them; a later read
 * faults them in again), so that a run's resident size need not grow
 * with the file.  False, doing nothing, when the DIEs are not read in
 * place from a read-only mapping (a relocated file).
 */
bool dw_file_drop_pages(struct dw_file *f);
/*
 * Between CUs: replaces the handle's Dwarf with a new one, to free what
 * libdw keeps of every CU decoded so far; the new one has walked the unit
 * headers up to about CU @upto, dropping the pages it read.  1 when done;
 * 0 where it does not apply (a relocated file, or a file not mapped
 * read-only); a negative errno if no new handle could be had, the old
 * one being kept.
 */
int dw_file_renew(struct dw_file *f, uint32_t upto);
/* Frees what dw_cu_decode() put in @cu.  */
void dw_cu_release(struct dw_cu *cu);

#endif /* BTFENC_DW_H */
