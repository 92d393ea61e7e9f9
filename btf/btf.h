/* SPDX-License-Identifier: GPL-2.0 */
/*
 * btf.h - btfenc's BTF library: an in-memory BTF of every kind 1..22,
 * builders, raw reader/writer (native or swapped byte order, base, split
 * and multi-split), validator, dedup and text dump.
 *
 * The on-disk structures are the kernel's UAPI (include/uapi/linux/btf.h)
 * plus the location kinds of the RFC series ("seed layout").  btfenc never
 * includes <linux/btf.h> or libbpf headers next to this one.
 *
 * Conventions, as in libbpf: functions returning int give a type id (> 0),
 * a string offset (>= 0) or 0 on success, and a negative errno on failure.
 * Functions returning a pointer give NULL on failure with errno set.
 * Nothing here prints; diagnostics go through a struct btf_log.
 */
#ifndef BTFENC_BTF_H
#define BTFENC_BTF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define BTF_MAGIC    0xeB9F
#define BTF_VERSION  1
#define BTF_MAX_VLEN 0xffff

enum btf_kind {
	BTF_KIND_UNKN = 0,
	BTF_KIND_INT = 1,
	BTF_KIND_PTR = 2,
	BTF_KIND_ARRAY = 3,
	BTF_KIND_STRUCT = 4,
	BTF_KIND_UNION = 5,
	BTF_KIND_ENUM = 6,
	BTF_KIND_FWD = 7,
	BTF_KIND_TYPEDEF = 8,
	BTF_KIND_VOLATILE = 9,
	BTF_KIND_CONST = 10,
	BTF_KIND_RESTRICT = 11,
	BTF_KIND_FUNC = 12,
	BTF_KIND_FUNC_PROTO = 13,
	BTF_KIND_VAR = 14,
	BTF_KIND_DATASEC = 15,
	BTF_KIND_FLOAT = 16,
	BTF_KIND_DECL_TAG = 17,
	BTF_KIND_TYPE_TAG = 18,
	BTF_KIND_ENUM64 = 19,
	BTF_KIND_LOC_PARAM = 20,
	BTF_KIND_LOC_PROTO = 21,
	BTF_KIND_LOCSEC = 22,
	NR_BTF_KINDS,
	BTF_KIND_MAX = NR_BTF_KINDS - 1,
};

struct btf_header {
	uint16_t magic;
	uint8_t version;
	uint8_t flags;
	uint32_t hdr_len;
	uint32_t type_off;
	uint32_t type_len;
	uint32_t str_off;
	uint32_t str_len;
};

struct btf_type {
	uint32_t name_off;
	/* bits 0-15 vlen, 24-28 kind, 31 kind_flag */
	uint32_t info;
	union {
		uint32_t size;
		uint32_t type;
	};
};

#define BTF_INFO_KIND(info)  (((info) >> 24) & 0x1f)
#define BTF_INFO_VLEN(info)  ((info) & 0xffff)
#define BTF_INFO_KFLAG(info) ((info) >> 31)

#define BTF_INT_ENCODING(v) (((v) & 0x0f000000) >> 24)
#define BTF_INT_OFFSET(v)   (((v) & 0x00ff0000) >> 16)
#define BTF_INT_BITS(v)     ((v) & 0x000000ff)
#define BTF_INT_SIGNED      (1 << 0)
#define BTF_INT_CHAR        (1 << 1)
#define BTF_INT_BOOL        (1 << 2)

struct btf_array {
	uint32_t type;
	uint32_t index_type;
	uint32_t nelems;
};

struct btf_member {
	uint32_t name_off;
	uint32_t type;
	uint32_t offset;
};

#define BTF_MEMBER_BITFIELD_SIZE(v) ((v) >> 24)
#define BTF_MEMBER_BIT_OFFSET(v)    ((v) & 0xffffff)

struct btf_enum {
	uint32_t name_off;
	int32_t val;
};

struct btf_enum64 {
	uint32_t name_off;
	uint32_t val_lo32;
	uint32_t val_hi32;
};

struct btf_param {
	uint32_t name_off;
	uint32_t type;
};

enum {
	BTF_VAR_STATIC = 0,
	BTF_VAR_GLOBAL_ALLOCATED = 1,
	BTF_VAR_GLOBAL_EXTERN = 2,
};

enum btf_func_linkage {
	BTF_FUNC_STATIC = 0,
	BTF_FUNC_GLOBAL = 1,
	BTF_FUNC_EXTERN = 2,
};

struct btf_var {
	uint32_t linkage;
};

struct btf_var_secinfo {
	uint32_t type;
	uint32_t offset;
	uint32_t size;
};

struct btf_decl_tag {
	int32_t component_idx;
};

/* Location kinds, seed layout (RFC bpf-next 01/15). */
#define BTF_LOC_FLAG_DEREF    0x1
#define BTF_LOC_FLAG_CONTINUE 0x2

struct btf_loc_param {
	union {
		struct {
			uint16_t reg;
			uint16_t flags;
			int32_t offset;
		};
		struct {
			uint32_t val_lo32;
			uint32_t val_hi32;
		};
	};
};

struct btf_loc {
	uint32_t name_off;
	uint32_t func_proto;
	uint32_t loc_proto;
	uint32_t offset;
};

/* ---- accessors on raw records ---- */

static inline unsigned int btf_kind(const struct btf_type *t)
{
	return BTF_INFO_KIND(t->info);
}

static inline unsigned int btf_vlen(const struct btf_type *t)
{
	return BTF_INFO_VLEN(t->info);
}

static inline bool btf_kflag(const struct btf_type *t)
{
	return BTF_INFO_KFLAG(t->info);
}

static inline uint32_t btf_type_info(unsigned int kind, unsigned int vlen, bool kflag)
{
	return ((uint32_t)kflag << 31) | ((kind & 0x1f) << 24) | (vlen & 0xffff);
}

static inline void *btf_type_body(const struct btf_type *t)
{
	return (void *)(t + 1);
}

static inline uint64_t btf_enum64_value(const struct btf_enum64 *e)
{
	return ((uint64_t)e->val_hi32 << 32) | e->val_lo32;
}

static inline uint64_t btf_loc_param_value(const struct btf_type *t)
{
	const struct btf_loc_param *p = btf_type_body(t);

	return ((uint64_t)p->val_hi32 << 32) | p->val_lo32;
}

/* Name of a kind as bpftool prints it ("INT", "LOC_PARAM", ...), or "UNKN". */
const char *btf_kind_str(unsigned int kind);

/*
 * Bytes a type record occupies, header included, from its kind and vlen;
 * -EINVAL for an unknown kind.
 */
long btf_type_size(const struct btf_type *t);

/* ---- diagnostics ---- */

/* Receives one line, without a newline. */
struct btf_log {
	void (*fn)(void *ctx, const char *msg);
	void *ctx;
};

/* ---- object lifetime and lookup ---- */

struct btf;

/* An empty base BTF (type 0 = void, string 0 = ""). */
struct btf *btf__new_empty(void);
/* An empty BTF split on @base; @base must outlive it and is not owned. */
struct btf *btf__new_empty_split(struct btf *base);
/* Frees @btf (not its base). NULL is a no-op. */
void btf__free(struct btf *btf);

/* One past the last type id, counting base types: ids run 1..cnt-1. */
uint32_t btf__type_cnt(const struct btf *btf);
/* First id owned by this BTF (1 for a base BTF). */
uint32_t btf__start_id(const struct btf *btf);
/* First string offset owned by this BTF (0 for a base BTF). */
uint32_t btf__start_str_off(const struct btf *btf);
const struct btf *btf__base_btf(const struct btf *btf);
/* Type @id, looked up through the base chain; NULL if out of range. */
const struct btf_type *btf__type_by_id(const struct btf *btf, uint32_t id);
/* Writable type; only for ids this BTF owns. */
struct btf_type *btf__type_by_id_mut(struct btf *btf, uint32_t id);
/* String at @off through the base chain; NULL if out of range. */
const char *btf__str_by_offset(const struct btf *btf, uint32_t off);
/* Name of type @id, "" if anonymous. */
const char *btf__name_by_id(const struct btf *btf, uint32_t id);

/* True if the data this BTF was read from had the other byte order. */
bool btf__is_swapped(const struct btf *btf);
/* Pointer size used for dumps and by the encoder (default 8). */
void btf__set_pointer_size(struct btf *btf, size_t size);
size_t btf__pointer_size(const struct btf *btf);

/* ---- strings ---- */

/* Offset of @s, adding it if new; base strings are reused. */
int btf__add_str(struct btf *btf, const char *s);
/* Offset of @s or -ENOENT. */
int btf__find_str(const struct btf *btf, const char *s);

/* ---- builders (libbpf's signatures where libbpf has them) ---- */

int btf__add_int(struct btf *btf, const char *name, size_t byte_sz, int encoding);
int btf__add_float(struct btf *btf, const char *name, size_t byte_sz);
int btf__add_ptr(struct btf *btf, int ref_type_id);
int btf__add_array(struct btf *btf, int index_type_id, int elem_type_id, uint32_t nr_elems);
int btf__add_struct(struct btf *btf, const char *name, uint32_t byte_sz);
int btf__add_union(struct btf *btf, const char *name, uint32_t byte_sz);
/* Appends a member to the last STRUCT/UNION. */
int btf__add_field(struct btf *btf, const char *name, int field_type_id, uint32_t bit_offset,
		   uint32_t bit_size);
int btf__add_enum(struct btf *btf, const char *name, uint32_t byte_sz);
/* Appends a value to the last ENUM; a negative value sets kflag (signed). */
int btf__add_enum_value(struct btf *btf, const char *name, int64_t value);
int btf__add_enum64(struct btf *btf, const char *name, uint32_t byte_sz, bool is_signed);
int btf__add_enum64_value(struct btf *btf, const char *name, uint64_t value);

enum btf_fwd_kind {
	BTF_FWD_STRUCT = 0,
	BTF_FWD_UNION = 1,
	BTF_FWD_ENUM = 2,
};

int btf__add_fwd(struct btf *btf, const char *name, enum btf_fwd_kind fwd_kind);
int btf__add_typedef(struct btf *btf, const char *name, int ref_type_id);
int btf__add_volatile(struct btf *btf, int ref_type_id);
int btf__add_const(struct btf *btf, int ref_type_id);
int btf__add_restrict(struct btf *btf, int ref_type_id);
int btf__add_type_tag(struct btf *btf, const char *value, int ref_type_id);
int btf__add_func(struct btf *btf, const char *name, enum btf_func_linkage linkage,
		  int proto_type_id);
int btf__add_func_proto(struct btf *btf, int ret_type_id);
/* Appends a parameter to the last FUNC_PROTO. */
int btf__add_func_param(struct btf *btf, const char *name, int type_id);
int btf__add_var(struct btf *btf, const char *name, int linkage, int type_id);
int btf__add_datasec(struct btf *btf, const char *name, uint32_t byte_sz);
/* Appends an entry to the last DATASEC. */
int btf__add_datasec_var_info(struct btf *btf, int var_type_id, uint32_t offset, uint32_t byte_sz);
int btf__add_decl_tag(struct btf *btf, const char *value, int ref_type_id, int component_idx);

/*
 * LOC_PARAM.  @size is the value's byte size, negative for signed; |size|
 * must be 1, 2, 4 or 8.  @is_value: a 64-bit constant @value (kflag 1);
 * otherwise DWARF register @reg, BTF_LOC_FLAG_* @flags and @offset.
 */
int btf__add_loc_param(struct btf *btf, int32_t size, bool is_value, uint64_t value, uint16_t reg,
		       uint16_t flags, int32_t offset);
/* An empty LOC_PROTO; fill it with btf__add_loc_proto_param(). */
int btf__add_loc_proto(struct btf *btf);
/* Appends LOC_PARAM id @id (0 = unknown) to the last LOC_PROTO. */
int btf__add_loc_proto_param(struct btf *btf, uint32_t id);
/* An empty LOCSEC named @name; fill it with btf__add_locsec_loc(). */
int btf__add_locsec(struct btf *btf, const char *name);
int btf__add_locsec_loc(struct btf *btf, const char *name, uint32_t func_proto, uint32_t loc_proto,
			uint32_t offset);

/*
 * Appends a copy of every type of @src (its own types, not its base's) to
 * @dst, renumbering ids that point into @src's own range and re-adding
 * strings.  Ids below @src's start id are kept: they must mean the same in
 * @dst.  Returns the id the first copied type got, or a negative errno; on
 * failure @dst is unchanged.
 */
int btf__add_btf(struct btf *dst, const struct btf *src);

/* ---- raw I/O ---- */

/*
 * Serializes the types and strings this BTF owns (not its base) as a raw
 * .BTF image.  @swap writes the other byte order.  *@data is malloc'ed
 * and owned by the caller.
 */
int btf__write_raw(const struct btf *btf, bool swap, void **data, size_t *size);

/*
 * Parses a raw BTF image, on top of @base (NULL for base BTF).  Types are
 * checked for structure only (kinds known, records inside the type
 * section); use btf__validate() for the kernel's rules.  Errors are
 * reported through @log and returned as NULL with errno set.
 */
struct btf *btf__parse_raw(const void *data, size_t size, struct btf *base,
			   const struct btf_log *log);

/*
 * Reads @path: a raw BTF file, or an ELF object whose section @sec_name
 * (".BTF" if NULL) is parsed.  Errors name @path through @log.
 */
struct btf *btf__parse_file(const char *path, const char *sec_name, struct btf *base,
			    const struct btf_log *log);

/* ---- validation ---- */

/*
 * Applies the kernel's per-kind meta checks, id and string-offset range
 * checks and reference resolution to the types @btf owns.  Each failure
 * is one line "[id] KIND 'name' rule" to @log.  Returns 0 or -EINVAL.
 */
int btf__validate(const struct btf *btf, const struct btf_log *log);

/* ---- text dump, the BPF selftests' raw format ---- */

enum btf_dump_style {
	BTF_DUMP_BPFTOOL,  /* `bpftool btf dump file F` */
	BTF_DUMP_SELFTEST, /* tools/testing/selftests/bpf/btf_helpers.c */
};

/* Writes "[id] KIND 'name' ..." with member lines, no trailing newline. */
int btf__dump_type_style(const struct btf *btf, uint32_t id, FILE *out,
			 enum btf_dump_style style);
/* btf__dump_type_style() in bpftool's dialect. */
int btf__dump_type(const struct btf *btf, uint32_t id, FILE *out);
/* Same, into a malloc'ed string the caller frees. */
char *btf__dump_type_str(const struct btf *btf, uint32_t id, enum btf_dump_style style);

/* ---- dedup ---- */

struct btf_dedup_opts {
	/*
	 * If non-NULL, receives a malloc'ed array indexed by (id - start id)
	 * of this BTF's types before dedup, giving each one's id after it.
	 */
	uint32_t **id_map;
};

/*
 * Deduplicates the types @btf owns against themselves and its (unchanged)
 * base chain, with libbpf btf__dedup() semantics, extended to LOC_PARAM
 * (by kflag, size, payload), LOC_PROTO (by its id list) and LOCSEC (never
 * merged, references rewritten).  All-or-nothing.
 */
int btf__dedup(struct btf *btf, const struct btf_dedup_opts *opts);

#endif /* BTFENC_BTF_H */
