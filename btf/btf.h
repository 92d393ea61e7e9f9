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
/* The merged layout widens vlen to 24 bits. */
#define BTF_MAX_VLEN_MERGED 0xffffff

/*
 * Which layout the location kinds (20-22) of a BTF object use:
 *
 *   BTF_LAYOUT_SEED   - the RFC series' (DESIGN.md section 3), 24-byte header;
 *   BTF_LAYOUT_MERGED - what bpf-next merged: a 32-byte header with a
 *                       layout section, 24-bit vlen, variable-length
 *                       LOC_PARAM with flags, 12-byte btf_loc_merged.
 *
 * The standard kinds 1-19 read the same in both.  Every BTF object has
 * one layout; type ids and string offsets mean the same in both, so a
 * split BTF may sit on a base of the other layout, but its location kinds
 * may only refer to location kinds of its own layout (btf__validate()).
 */
enum btf_loc_layout {
	BTF_LAYOUT_SEED = 0,
	BTF_LAYOUT_MERGED = 1,
};

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

/* The merged layout's header: the seed header plus the layout section. */
struct btf_header_layout {
	struct btf_header hdr;
	uint32_t layout_off;
	uint32_t layout_len;
};

/* One per kind, indexed by kind, in the merged layout's layout section. */
struct btf_layout {
	uint8_t info_sz; /* bytes after struct btf_type */
	uint8_t elem_sz; /* bytes of each of the vlen elements */
	uint16_t flags;  /* unused, 0 */
};

struct btf_type {
	uint32_t name_off;
	/*
	 * bits 0-15 vlen (seed) or 0-23 (merged; 16-23 must be 0 in the seed
	 * layout), 24-28 kind (24-30 in the merged layout, where no kind
	 * above 31 exists yet), 31 kind_flag
	 */
	uint32_t info;
	union {
		uint32_t size;
		uint32_t type;
	};
};

#define BTF_INFO_KIND(info)  (((info) >> 24) & 0x1f)
#define BTF_INFO_VLEN(info)  ((info) & 0xffffff)
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

/*
 * Location kinds, merged layout.  LOC_PARAM: btf_type{name_off=0,
 * info=kind|vlen, size=value size} then u32 flags and vlen u32 values:
 *   CONST (|SIGNED): vlen 1 or 2, the value, low word first;
 *   CONST|ADDR: an address relative to the section base;
 *   REG, vlen 1: {reg}; vlen 2: {reg, reg2}, a value in two registers;
 *   REG|DEREF, vlen 1: *(reg);
 *   REG|OFFSET, vlen 2: reg + (s32)offset, not dereferenced;
 *   REG|DEREF|OFFSET, vlen 2: *(reg + (s32)offset).
 * Register BTF_LOC_PARAM_FBREG is the frame base (DW_OP_fbreg).
 */
#define BTF_LOC_PARAM_SIGNED 0x1
#define BTF_LOC_PARAM_CONST  0x2
#define BTF_LOC_PARAM_ADDR   0x4
#define BTF_LOC_PARAM_REG    0x8
#define BTF_LOC_PARAM_DEREF  0x10
#define BTF_LOC_PARAM_OFFSET 0x20
#define BTF_LOC_PARAM_FLAGS  0x3f
#define BTF_LOC_PARAM_FBREG  0xffffffffu

struct btf_loc_param_merged {
	uint32_t flags;
	uint32_t values[];
};

/* LOCSEC entry, merged layout: @func is a FUNC id. */
struct btf_loc_merged {
	uint32_t func;
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
	return ((uint32_t)kflag << 31) | ((kind & 0x1f) << 24) | (vlen & 0xffffff);
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
 * -EINVAL for an unknown kind.  btf_type_size() is the seed layout's.
 */
long btf_type_size(const struct btf_type *t);
long btf_type_size_layout(const struct btf_type *t, enum btf_loc_layout layout);
/* @kind's entry of @layout's layout section; -EINVAL for an unknown kind. */
int btf_kind_layout(unsigned int kind, enum btf_loc_layout layout, struct btf_layout *out);

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
/*
 * An empty BTF split on @base; @base must outlive it and is not owned,
 * and gains no types or strings while it is split on.
 */
struct btf *btf__new_empty_split(struct btf *base);
/* An empty base BTF whose location kinds use @layout. */
struct btf *btf__new_empty_layout(enum btf_loc_layout layout);
/*
 * Layout of @btf's location kinds.  A split BTF starts with its base's;
 * btf__set_layout() changes it while @btf owns no location-kind types
 * (else -EBUSY).
 */
enum btf_loc_layout btf__layout(const struct btf *btf);
int btf__set_layout(struct btf *btf, enum btf_loc_layout layout);
/*
 * The ELF section of the location kinds split on .BTF, per layout: the
 * seeds' kbuild reads .BTF.extra; bpf-next names it .BTF.inline.
 */
static inline const char *btf_loc_split_sec(enum btf_loc_layout layout)
{
	return layout == BTF_LAYOUT_MERGED ? ".BTF.inline" : ".BTF.extra";
}
/* Bytes of type record @t of @btf (its layout's btf_type_size). */
long btf__type_size(const struct btf *btf, const struct btf_type *t);
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
/* A TYPE_TAG with kflag set: a type attribute (libbpf 1.6's btf__add_type_attr). */
int btf__add_type_attr(struct btf *btf, const char *value, int ref_type_id);
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
 * Merged-layout location builders (the seed builders above return -EINVAL
 * on a merged-layout BTF and these on a seed-layout one).  LOC_PARAM:
 * @size the value's byte size (1, 2, 4, 8; 16 for a register pair),
 * BTF_LOC_PARAM_* @flags, @n values (1 or 2) as described above; the
 * combination must be one the merged kernel accepts.
 */
int btf__add_loc_param_merged(struct btf *btf, uint32_t size, uint32_t flags,
			      const uint32_t *values, unsigned int n);
/* Appends {@func, @loc_proto, @offset} to the last LOCSEC. */
int btf__add_locsec_loc_merged(struct btf *btf, uint32_t func, uint32_t loc_proto,
			       uint32_t offset);
/*
 * The merged kernel's rule for a LOC_PARAM's flags, size and vlen: NULL
 * if they agree, else why not.
 */
const char *btf_loc_param_merged_check(uint32_t size, uint32_t flags, unsigned int vlen);

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
 * .BTF image; a merged-layout BTF gets the 32-byte header and the layout
 * section (between types and strings, as libbpf writes it).  @swap writes the other byte order.  *@data is malloc'ed
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
 * btf__parse_raw() with the layout chosen: BTF_PARSE_AUTO takes it from
 * the header (a 32-byte header with a non-empty layout section is the
 * merged layout, anything else the seed layout); the others force it, for
 * merged-layout data written without a layout section (libbpf's default).
 */
enum btf_parse_layout {
	BTF_PARSE_AUTO = 0,
	BTF_PARSE_SEED,
	BTF_PARSE_MERGED,
};
struct btf *btf__parse_raw_layout(const void *data, size_t size, struct btf *base,
				  enum btf_parse_layout layout, const struct btf_log *log);

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
	/*
	 * Work on the BTF's own type records instead of a copy: a vmlinux
	 * encode needs 130 MB less, but a failure leaves the BTF unusable
	 * (only btf__free() is safe), so only a caller that discards it on
	 * error may ask for it.
	 */
	bool in_place;
	/*
	 * Skip the string phase before the types are compared when the
	 * table is known to hold no string twice (built by btf__add_str()
	 * and the like, not loaded) and @btf has no base: names compare by
	 * offset already.  The kept types' strings get a table of their own
	 * afterwards, in another order than libbpf's (so for a caller that
	 * writes the result through a second, plain dedup: the encoder).
	 */
	bool keep_strings;
	/*
	 * At 2 or more, the struct phase of a BTF without base runs on two
	 * threads when it has 2 x round_types types or more and two CPUs
	 * are free; the result is the same byte for byte.
	 */
	unsigned int jobs;
	/* The least work of a round of the two threads, in types (0: 4096). */
	uint32_t round_types;
};

/*
 * Deduplicates the types @btf owns against themselves and its (unchanged)
 * base chain, with libbpf btf__dedup() semantics, extended to LOC_PARAM
 * (by kflag, size, payload), LOC_PROTO (by its id list) and LOCSEC (never
 * merged, references rewritten).  All-or-nothing.  The base's types, as
 * candidates, are hashed once and kept with the base for the next dedup
 * split on it (freed with it, or when it changes): two dedups split on
 * one base must not run at the same time.
 */
int btf__dedup(struct btf *btf, const struct btf_dedup_opts *opts);

/*
 * The same dedup, run ahead while the BTF is being built, in place only
 * (opts->in_place; without it, feeding does nothing).  Types may be
 * appended between the calls; no record already there may change.
 * btf_dedup_feed() takes the types appended since the last call through
 * the string, primitive and struct phases; btf_dedup_finish() runs the
 * rest, stores the id map (if @id_map) and frees @dd, giving what
 * btf__dedup(@btf, @opts) would have given on the finished BTF.  Only
 * btf__free() is safe on @btf after a failure, or after
 * btf_dedup_free() dropped a dedup that was fed.  opts->id_map is
 * ignored.
 */
struct btf_dedup;
struct btf_dedup *btf_dedup_new(struct btf *btf, const struct btf_dedup_opts *opts);
int btf_dedup_feed(struct btf_dedup *dd);
int btf_dedup_finish(struct btf_dedup *dd, uint32_t **id_map);
void btf_dedup_free(struct btf_dedup *dd);

/*
 * Reorders the types @btf owns (not its base's): type start_id + i moves
 * to id @id_map[i], for each of them, and every type id referring to one
 * of them is rewritten.  -EINVAL unless @id_map is a permutation of those
 * ids.  (bpf-next libbpf's btf__permute as it treats a split BTF; for a
 * base BTF, too, @id_map starts at type 1, not at void.)
 */
int btf__permute(struct btf *btf, const uint32_t *id_map);
/*
 * Sorts the types @btf owns as bpf-next's resolve_btfids --btf_sort does:
 * named types first, by name (strcmp), then anonymous ones; ties keep
 * their order.  *@id_map (malloc'ed, old id - start_id -> new id) says
 * where each went.
 */
int btf__sort_by_name(struct btf *btf, uint32_t **id_map);


/* ---- distilled base (out-of-tree modules) ---- */

/*
 * Splits @src (split BTF on a full base) into a minimal base that names
 * only what can be matched by name in another base (named INT, FLOAT,
 * FWD; STRUCT/UNION with size, no members; ENUM/ENUM64 as sized ENUM),
 * and split BTF on it holding @src's types followed by every other base
 * type they reference (location kinds included).  libbpf semantics.  On
 * success the caller owns *@new_base and *@new_split (free the split
 * first).
 */
int btf__distill_base(const struct btf *src, struct btf **new_base, struct btf **new_split);

/*
 * Moves @btf, split BTF on a distilled base, onto the full base @base:
 * each distilled type is matched in @base by name, kind, size and
 * encoding, and ids and strings are rewritten; afterwards @btf's base is
 * @base (not owned; @base itself is not changed).  All-or-nothing.  Why a
 * match failed goes to @log (may be NULL).
 */
int btf__relocate_log(struct btf *btf, const struct btf *base, const struct btf_log *log);
int btf__relocate(struct btf *btf, const struct btf *base);

#endif /* BTFENC_BTF_H */
