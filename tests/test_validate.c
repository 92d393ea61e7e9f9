// SPDX-License-Identifier: GPL-2.0
/*
 * test_validate.c - btf__parse_raw() + btf__validate() against a table of
 * malformed raw BTF (kernel selftests' raw_tests[] style): each input must
 * be rejected with its own message, without crashing.  Also: a BTF holding
 * every kind built with the builders, the running kernel's BTF, the debug
 * vmlinux's .BTF and the RFC pahole's split and multi-split outputs must
 * validate clean.
 *
 * Usage: test_validate table | builders | system | reference DIR
 */
#include "btf.h"
#include "fuzz/fuzz_base.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define SKIP 77

#define END 0xdeadbeefu
#define INFO(kind, kflag, vlen) (((uint32_t)!!(kflag) << 31) | ((kind) << 24) | ((vlen) & 0xffff))
#define TYPE(name, info, size_or_type) (name), (info), (size_or_type)
#define INT_DATA(enc, off, bits) (((enc) << 24) | ((off) << 16) | (bits))
#define INT(name, enc, off, bits, sz) \
	TYPE(name, INFO(BTF_KIND_INT, 0, 0), sz), INT_DATA(enc, off, bits)
#define INT32 INT(S_INT, BTF_INT_SIGNED, 0, 32, 4)
#define MEMBER(name, type, off) (name), (type), (off)
#define PTR(type) TYPE(0, INFO(BTF_KIND_PTR, 0, 0), type)
#define CONST(type) TYPE(0, INFO(BTF_KIND_CONST, 0, 0), type)
#define FUNC_PROTO(ret, vlen) TYPE(0, INFO(BTF_KIND_FUNC_PROTO, 0, vlen), ret)
#define LOC_PARAM_REG(size, reg, flags) \
	TYPE(0, INFO(BTF_KIND_LOC_PARAM, 0, 0), (uint32_t)(size)), ((flags) << 16 | (reg)), 0
#define LOC_PROTO(vlen) TYPE(0, INFO(BTF_KIND_LOC_PROTO, 0, vlen), 0)
#define LOCSEC(vlen) TYPE(S_INLINE, INFO(BTF_KIND_LOCSEC, 0, vlen), 0)
#define LOC(name, fp, lp, off) (name), (fp), (lp), (off)

/* The string section every case uses unless it brings its own. */
static const char strs[] = "\0int\0a\0b\0inline\0a-b";
enum { S_INT = 1, S_A = 5, S_B = 7, S_INLINE = 9, S_BAD_ID = 16 };

/* A header field a case overrides; 0 keeps the consistent value. */
#define SET(v) ((uint64_t)(uint32_t)(v) | (1ull << 32))

struct raw_test {
	const char *name;
	uint32_t types[48];
	const char *strs; /* NULL: strs[] above */
	uint32_t str_len;
	uint64_t magic, version, flags, hdr_len, type_off, type_len, str_off, str_sec_len;
	size_t size; /* truncate the image to this many bytes if set */
	const char *expect;
	/* Fuzzer finds: the input as bytes, parsed split on fuzz_base_new(). */
	const uint8_t *raw;
	size_t raw_len;
	bool split;
};

/*
 * fuzz_btf_read crash: split BTF with an empty string section; writing it
 * back passed memcpy() a NULL source (UBSan), fixed in write.c.
 */
static const uint8_t fuzz_empty_split_strs[] = {
	0x9f, 0xeb, 0x01, 0x00, 0x18, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x54, 0x00, 0x00, 0x00, 0x54, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x01, 0x00, 0x00, 0x00, 0x04, 0x00, 0x00, 0x01, 0x04, 0x00, 0x00, 0x00,
	0x20, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x02,
	0x01, 0x00, 0x00, 0x00, 0xfe, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x04,
	0x10, 0x00, 0x00, 0x00, 0x07, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x09, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x40,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x0d,
	0x01, 0x40, 0x00, 0x00, 0x0b, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00,
	0x00, 0x69, 0x6e, 0x74, 0x00, 0x73, 0x00, 0x61, 0x00, 0x70, 0x00, 0x68, 0x00,
};

static struct raw_test tests[] = {
	/* ---- header and sections (read.c) ---- */
	{ "truncated header", { INT32, END }, .size = 6,
	  .expect = "BTF header truncated: 6 bytes" },
	{ "bad magic", { INT32, END }, .magic = SET(0xeb9e),
	  .expect = "bad BTF magic 0xeb9e" },
	{ "bad version", { INT32, END }, .version = SET(2),
	  .expect = "unsupported BTF version 2" },
	{ "non-zero flags", { INT32, END }, .flags = SET(1),
	  .expect = "unsupported BTF flags 0x1" },
	{ "hdr_len too large", { INT32, END }, .hdr_len = SET(4096),
	  .expect = "bad BTF header length 4096" },
	{ "hdr_len too small", { INT32, END }, .hdr_len = SET(16),
	  .expect = "bad BTF header length 16" },
	{ "type_len past the end", { INT32, END }, .type_len = SET(4000),
	  .expect = "type section [0, +4000) past the end" },
	{ "str section past the end", { INT32, END }, .str_sec_len = SET(100),
	  .expect = "string section [16, +100) past the end" },
	{ "overlapping sections", { INT32, END }, .str_off = SET(8),
	  .expect = "type and string sections overlap" },
	{ "unaligned type_off", { INT32, END }, .type_off = SET(2),
	  .expect = "type section offset 2 not 4-byte aligned" },
	{ "type_len not a multiple of 4", { INT32, END }, .type_len = SET(14),
	  .expect = "type section length 14 not a multiple of 4" },
	{ "string section not NUL-terminated", { INT32, END }, .strs = "\0int", .str_len = 4,
	  .expect = "string section not NUL-terminated" },
	{ "base strings not starting with NUL", { INT32, END }, .strs = "x\0int", .str_len = 6,
	  .expect = "string section does not start with \"\"" },
	{ "empty base string section", { INT32, END }, .strs = "", .str_len = 0,
	  .expect = "string section is empty" },
	{ "invalid kind 0", { TYPE(0, INFO(0, 0, 0), 0), END },
	  .expect = "[1] invalid kind 0" },
	{ "invalid kind 23", { INT32, TYPE(0, INFO(23, 0, 0), 0), END },
	  .expect = "[2] invalid kind 23" },
	{ "type header truncated", { INT32, S_A, END },
	  .expect = "[2] type header truncated" },
	{ "vlen overflows type section",
	  { INT32, TYPE(S_A, INFO(BTF_KIND_STRUCT, 0, 5), 4), MEMBER(S_B, 1, 0), END },
	  .expect = "[2] STRUCT vlen 5 runs 48 bytes past the type section" },
	/* ---- common rules ---- */
	{ "type name offset out of range", { INT(100, 0, 0, 32, 4), END },
	  .expect = "[1] INT '(invalid-name-offset)' string offset 100 out of range" },
	{ "member name offset out of range",
	  { INT32, TYPE(S_A, INFO(BTF_KIND_STRUCT, 0, 1), 4), MEMBER(200, 1, 0), END },
	  .expect = "[2] STRUCT 'a' string offset 200 out of range" },
	{ "type id out of range", { INT32, PTR(99), END },
	  .expect = "[2] PTR '(anon)' type id 99 out of range (type count 3)" },
	{ "reserved btf_info bits", { TYPE(S_INT, INFO(BTF_KIND_INT, 0, 0) | 0x00010000u, 4),
				      INT_DATA(0, 0, 32), END },
	  .expect = "[1] INT 'int' invalid btf_info 0x01010000" },
	/* ---- INT ---- */
	{ "INT bad size", { INT(S_INT, 0, 0, 8, 3), END },
	  .expect = "[1] INT 'int' unsupported size 3" },
	{ "INT bits exceed size", { INT(S_INT, 0, 0, 64, 4), END },
	  .expect = "[1] INT 'int' nr_bits 64 exceeds size 4" },
	{ "INT offset+bits exceed 128", { INT(S_INT, 0, 120, 16, 16), END },
	  .expect = "[1] INT 'int' nr_bits 136 exceeds 128" },
	{ "INT bad encoding", { INT(S_INT, 8, 0, 32, 4), END },
	  .expect = "[1] INT 'int' unsupported encoding 0x8" },
	{ "INT with vlen", { TYPE(S_INT, INFO(BTF_KIND_INT, 0, 1), 4), INT_DATA(0, 0, 32), END },
	  .expect = "[1] INT 'int' vlen 1 != 0" },
	/* ---- references ---- */
	{ "PTR with a name", { INT32, TYPE(S_A, INFO(BTF_KIND_PTR, 0, 0), 1), END },
	  .expect = "[2] PTR 'a' invalid name (must be anonymous)" },
	{ "PTR to a FUNC", { INT32, FUNC_PROTO(1, 0), TYPE(S_A, INFO(BTF_KIND_FUNC, 0, 0), 2),
			     PTR(3), END },
	  .expect = "[4] PTR '(anon)' invalid type_id 3: points at FUNC [3]" },
	{ "TYPEDEF name not an identifier", { INT32, TYPE(S_BAD_ID, INFO(BTF_KIND_TYPEDEF, 0, 0), 1),
					      END },
	  .expect = "[2] TYPEDEF 'a-b' invalid name (typedef needs a C identifier)" },
	{ "TYPE_TAG without a name", { INT32, TYPE(0, INFO(BTF_KIND_TYPE_TAG, 0, 0), 1), END },
	  .expect = "[2] TYPE_TAG '(anon)' invalid name (type tag needs a value)" },
	{ "CONST self loop", { CONST(1), END },
	  .expect = "[1] CONST '(anon)' reference loop through [1]" },
	{ "PTR -> CONST -> PTR loop", { PTR(2), CONST(1), END },
	  .expect = "[1] PTR '(anon)' reference loop through [1] (pointers and modifiers only)" },
	{ "struct containing itself",
	  { TYPE(S_A, INFO(BTF_KIND_STRUCT, 0, 1), 8), MEMBER(S_B, 1, 0), END },
	  .expect = "[1] STRUCT 'a' reference loop through [1]" },
	{ "CONST of a VAR", { INT32, TYPE(S_A, INFO(BTF_KIND_VAR, 0, 0), 1), 0, CONST(2), END },
	  .expect = "[3] CONST '(anon)' invalid type_id 2: VAR" },
	/* ---- ARRAY ---- */
	{ "ARRAY index not an int",
	  { INT32, TYPE(S_A, INFO(BTF_KIND_STRUCT, 0, 0), 4),
	    TYPE(0, INFO(BTF_KIND_ARRAY, 0, 0), 0), 1, 2, 4, END },
	  .expect = "[3] ARRAY '(anon)' invalid index type 2" },
	{ "ARRAY of void", { INT32, TYPE(0, INFO(BTF_KIND_ARRAY, 0, 0), 0), 0, 1, 4, END },
	  .expect = "[2] ARRAY '(anon)' invalid elem type 0" },
	{ "ARRAY size overflow", { INT32, TYPE(0, INFO(BTF_KIND_ARRAY, 0, 0), 0), 1, 1, 0x40000001,
				   END },
	  .expect = "[2] ARRAY '(anon)' array size overflows u32" },
	/* ---- STRUCT / UNION ---- */
	{ "STRUCT member offset past size",
	  { INT32, TYPE(S_A, INFO(BTF_KIND_STRUCT, 0, 1), 4), MEMBER(S_B, 1, 64), END },
	  .expect = "[2] STRUCT 'a' member #0: bits_offset 64 exceeds struct size 4" },
	{ "STRUCT member does not fit",
	  { INT32, TYPE(S_A, INFO(BTF_KIND_STRUCT, 0, 1), 4), MEMBER(S_B, 1, 8), END },
	  .expect = "[2] STRUCT 'a' member #0: exceeds struct size 4" },
	{ "bitfield too big",
	  { INT32, TYPE(S_A, INFO(BTF_KIND_STRUCT, 1, 1), 8), MEMBER(S_B, 1, 40u << 24), END },
	  .expect = "[2] STRUCT 'a' member #0: bitfield_size 40 exceeds int bits 32" },
	{ "UNION member at non-zero offset",
	  { INT32, TYPE(S_A, INFO(BTF_KIND_UNION, 0, 1), 8), MEMBER(S_B, 1, 8), END },
	  .expect = "[2] UNION 'a' member #0: union member bits_offset 8 != 0" },
	{ "STRUCT member of FWD type",
	  { TYPE(S_B, INFO(BTF_KIND_FWD, 0, 0), 0), TYPE(S_A, INFO(BTF_KIND_STRUCT, 0, 1), 4),
	    MEMBER(S_B, 1, 0), END },
	  .expect = "[2] STRUCT 'a' member #0: invalid member type 1 (FWD, no size)" },
	/* ---- ENUM, FWD, FLOAT ---- */
	{ "ENUM bad size", { TYPE(S_A, INFO(BTF_KIND_ENUM, 0, 1), 3), S_B, 0, END },
	  .expect = "[1] ENUM 'a' unexpected size 3" },
	{ "ENUM value without a name", { TYPE(S_A, INFO(BTF_KIND_ENUM, 0, 1), 4), 0, 0, END },
	  .expect = "[1] ENUM 'a' value #0: invalid name" },
	{ "FWD with vlen", { TYPE(S_A, INFO(BTF_KIND_FWD, 0, 1), 0), END },
	  .expect = "[1] FWD 'a' vlen 1 != 0" },
	{ "FLOAT bad size", { TYPE(S_A, INFO(BTF_KIND_FLOAT, 0, 0), 3), END },
	  .expect = "[1] FLOAT 'a' invalid size 3" },
	/* ---- FUNC, FUNC_PROTO ---- */
	{ "FUNC pointing at non-proto", { INT32, TYPE(S_A, INFO(BTF_KIND_FUNC, 0, 0), 1), END },
	  .expect = "[2] FUNC 'a' invalid type_id 1: INT, not a FUNC_PROTO" },
	{ "FUNC bad linkage", { INT32, FUNC_PROTO(1, 0), TYPE(S_A, INFO(BTF_KIND_FUNC, 0, 3), 2),
				END },
	  .expect = "[3] FUNC 'a' invalid func linkage 3" },
	{ "FUNC_PROTO with a name", { INT32, TYPE(S_A, INFO(BTF_KIND_FUNC_PROTO, 0, 0), 1), END },
	  .expect = "[2] FUNC_PROTO 'a' invalid name (must be anonymous)" },
	{ "FUNC_PROTO void in the middle", { INT32, FUNC_PROTO(1, 2), 0, 0, S_B, 1, END },
	  .expect = "[2] FUNC_PROTO '(anon)' invalid arg#1: void" },
	{ "FUNC_PROTO returning a FWD", { TYPE(S_A, INFO(BTF_KIND_FWD, 0, 0), 0), FUNC_PROTO(1, 0),
					  END },
	  .expect = "[2] FUNC_PROTO '(anon)' invalid return type 1" },
	/* ---- VAR, DATASEC, DECL_TAG ---- */
	{ "VAR bad linkage", { INT32, TYPE(S_A, INFO(BTF_KIND_VAR, 0, 0), 1), 5, END },
	  .expect = "[2] VAR 'a' linkage 5 not supported" },
	{ "VAR of a FUNC_PROTO", { INT32, FUNC_PROTO(1, 0), TYPE(S_A, INFO(BTF_KIND_VAR, 0, 0), 2),
				   0, END },
	  .expect = "[3] VAR 'a' invalid type_id 2: FUNC_PROTO has no size" },
	{ "DATASEC with non-VAR",
	  { INT32, TYPE(S_INLINE, INFO(BTF_KIND_DATASEC, 0, 1), 8), 1, 0, 4, END },
	  .expect = "[2] DATASEC 'inline' entry #0: type 1 is INT, not a VAR" },
	{ "DATASEC entry of size 0",
	  { INT32, TYPE(S_A, INFO(BTF_KIND_VAR, 0, 0), 1), 0,
	    TYPE(S_INLINE, INFO(BTF_KIND_DATASEC, 0, 1), 8), 2, 0, 0, END },
	  .expect = "[3] DATASEC 'inline' entry #0: invalid size 0" },
	{ "DECL_TAG component_idx past the members",
	  { INT32, TYPE(S_A, INFO(BTF_KIND_STRUCT, 0, 1), 4), MEMBER(S_B, 1, 0),
	    TYPE(S_B, INFO(BTF_KIND_DECL_TAG, 0, 0), 2), 3, END },
	  .expect = "[3] DECL_TAG 'b' invalid component_idx 3 (target has 1)" },
	{ "DECL_TAG component_idx below -1",
	  { INT32, TYPE(S_A, INFO(BTF_KIND_STRUCT, 0, 1), 4), MEMBER(S_B, 1, 0),
	    TYPE(S_B, INFO(BTF_KIND_DECL_TAG, 0, 0), 2), (uint32_t)-2, END },
	  .expect = "[3] DECL_TAG 'b' invalid component_idx -2" },
	{ "DECL_TAG on an INT", { INT32, TYPE(S_B, INFO(BTF_KIND_DECL_TAG, 0, 0), 1), (uint32_t)-1,
				  END },
	  .expect = "[2] DECL_TAG 'b' invalid type_id 1: cannot tag a INT" },
	/* ---- location kinds ---- */
	{ "LOC_PARAM size 3", { LOC_PARAM_REG(3, 5, 0), END },
	  .expect = "[1] LOC_PARAM '(anon)' invalid size 3" },
	{ "LOC_PARAM size 16", { LOC_PARAM_REG(16, 5, 0), END },
	  .expect = "[1] LOC_PARAM '(anon)' invalid size 16" },
	{ "LOC_PARAM size -3", { LOC_PARAM_REG(-3, 5, 0), END },
	  .expect = "[1] LOC_PARAM '(anon)' invalid size -3" },
	{ "LOC_PARAM size INT32_MIN", { LOC_PARAM_REG(0x80000000u, 5, 0), END },
	  .expect = "[1] LOC_PARAM '(anon)' invalid size -2147483648" },
	{ "LOC_PARAM with a name", { TYPE(S_A, INFO(BTF_KIND_LOC_PARAM, 0, 0), 8), 5, 0, END },
	  .expect = "[1] LOC_PARAM 'a' invalid name (must be anonymous)" },
	{ "LOC_PARAM with vlen", { TYPE(0, INFO(BTF_KIND_LOC_PARAM, 0, 2), 8), 5, 0, END },
	  .expect = "[1] LOC_PARAM '(anon)' vlen 2 != 0" },
	{ "LOC_PARAM unknown flags", { LOC_PARAM_REG(8, 5, 4), END },
	  .expect = "[1] LOC_PARAM '(anon)' unknown flags 0x4" },
	{ "LOC_PROTO with a name",
	  { LOC_PARAM_REG(8, 5, 0), TYPE(S_A, INFO(BTF_KIND_LOC_PROTO, 0, 1), 0), 1, END },
	  .expect = "[2] LOC_PROTO 'a' invalid name (must be anonymous)" },
	{ "LOC_PROTO pointing at non-LOC_PARAM", { INT32, LOC_PROTO(2), 0, 1, END },
	  .expect = "[2] LOC_PROTO '(anon)' param #1: type 1 is INT, not a LOC_PARAM" },
	{ "LOCSEC vlen past end", { LOCSEC(3), LOC(S_A, 0, 0, 0), END },
	  .expect = "[1] LOCSEC vlen 3 runs 32 bytes past the type section" },
	{ "LOCSEC loc name out of range",
	  { INT32, FUNC_PROTO(1, 0), LOC_PROTO(0), LOCSEC(1), LOC(300, 2, 3, 0), END },
	  .expect = "[4] LOCSEC 'inline' string offset 300 out of range" },
	{ "LOCSEC func_proto not a FUNC_PROTO",
	  { INT32, LOC_PROTO(0), LOCSEC(1), LOC(S_A, 1, 2, 0), END },
	  .expect = "[3] LOCSEC 'inline' loc #0: func_proto 1 is INT, not a FUNC_PROTO" },
	{ "LOCSEC loc_proto not a LOC_PROTO",
	  { INT32, FUNC_PROTO(1, 0), LOCSEC(1), LOC(S_A, 2, 1, 0), END },
	  .expect = "[3] LOCSEC 'inline' loc #0: loc_proto 1 is INT, not a LOC_PROTO" },
	{ "LOCSEC LOC_PROTO shorter than the FUNC_PROTO",
	  { INT32, FUNC_PROTO(1, 1), S_B, 1, LOC_PROTO(0), LOCSEC(1), LOC(S_A, 2, 3, 0), END },
	 
	  .expect = "[4] LOCSEC 'inline' loc #0: LOC_PROTO [3] has 0 entries, FUNC_PROTO [2] has 1 params" },
	/* ---- fuzzer finds ---- */
	{ "fuzz: split BTF without strings", .raw = fuzz_empty_split_strs,
	  .raw_len = sizeof(fuzz_empty_split_strs), .split = true,
	  .expect = "[8] FUNC_PROTO '(anon)' type id 16385 out of range (type count 9)" },
	{ "LOCSEC loc without a name",
	  { INT32, FUNC_PROTO(1, 0), LOCSEC(1), LOC(0, 2, 0, 0), END },
	  .expect = "[3] LOCSEC 'inline' loc #0: empty name" },
};

/* ---- building raw images ---- */

static size_t nr_words(const uint32_t *types)
{
	size_t n = 0;

	while (types[n] != END)
		n++;
	return n;
}

static uint32_t pick(uint64_t override, uint32_t def)
{
	return override ? (uint32_t)override : def;
}

/* Header, then types, then strings; *@size is the image size. */
static void *build_raw(const struct raw_test *t, size_t *size)
{
	const char *s = t->strs ? t->strs : strs;
	uint32_t slen = t->strs ? t->str_len : sizeof(strs);
	uint32_t tlen = nr_words(t->types) * 4;
	struct btf_header hdr = {
		.magic = pick(t->magic, BTF_MAGIC),
		.version = pick(t->version, BTF_VERSION),
		.flags = pick(t->flags, 0),
		.hdr_len = pick(t->hdr_len, sizeof(hdr)),
		.type_off = pick(t->type_off, 0),
		.type_len = pick(t->type_len, tlen),
		.str_off = pick(t->str_off, tlen),
		.str_len = pick(t->str_sec_len, slen),
	};
	size_t total = sizeof(hdr) + tlen + slen;
	char *buf = calloc(1, total);

	if (!buf)
		abort();
	memcpy(buf, &hdr, sizeof(hdr));
	memcpy(buf + sizeof(hdr), t->types, tlen);
	memcpy(buf + sizeof(hdr) + tlen, s, slen);
	*size = t->size ? t->size : total;
	return buf;
}

/* ---- log capture ---- */

struct capture {
	char text[4096];
	size_t len;
};

static void capture_fn(void *ctx, const char *msg)
{
	struct capture *c = ctx;
	int n = snprintf(c->text + c->len, sizeof(c->text) - c->len, "%s\n", msg);

	if (n > 0 && c->len + n < sizeof(c->text))
		c->len += n;
}

/* What fuzz_btf_read does after a parse: write both byte orders, re-read. */
static int write_back(const struct raw_test *t, const struct btf *btf, struct btf *base)
{
	for (int swap = 0; swap < 2; swap++) {
		struct btf *back;
		void *raw;
		size_t size;

		if (btf__write_raw(btf, swap, &raw, &size)) {
			printf("FAIL %s: write_raw failed\n", t->name);
			return 1;
		}
		back = btf__parse_raw(raw, size, base, NULL);
		free(raw);
		if (!back) {
			printf("FAIL %s: written image does not parse\n", t->name);
			return 1;
		}
		btf__free(back);
	}
	return 0;
}

static int run_case(const struct raw_test *t)
{
	struct capture cap = { .len = 0 };
	struct btf_log log = { capture_fn, &cap };
	struct btf *base = t->split ? fuzz_base_new() : NULL;
	size_t size = t->raw_len;
	void *raw = t->raw ? malloc(t->raw_len) : build_raw(t, &size);
	struct btf *btf;
	const char *stage = "parse";
	int err, fails = 0;

	if (!raw || (t->split && !base))
		abort();
	if (t->raw)
		memcpy(raw, t->raw, t->raw_len);
	btf = btf__parse_raw(raw, size, base, &log);
	err = btf ? 0 : -errno;
	if (btf) {
		stage = "validate";
		fails += write_back(t, btf, base);
		err = btf__validate(btf, &log);
	}
	btf__free(btf);
	btf__free(base);
	free(raw);
	if (err != -EINVAL) {
		printf("FAIL %s: %s returned %d, expected -EINVAL\n", t->name, stage, err);
		return 1;
	}
	if (!strstr(cap.text, t->expect)) {
		printf("FAIL %s: log lacks \"%s\"; log was:\n%s", t->name, t->expect, cap.text);
		return 1;
	}
	if (!fails)
		printf("ok   %s (%s)\n", t->name, stage);
	return fails;
}

static int test_table(void)
{
	size_t i, j, n = sizeof(tests) / sizeof(tests[0]);
	int fails = 0;

	/* Each case must pin down its own rule, not a shared message. */
	for (i = 0; i < n; i++)
		for (j = i + 1; j < n; j++)
			if (!strcmp(tests[i].expect, tests[j].expect)) {
				printf("FAIL cases '%s' and '%s' expect the same message\n",
				       tests[i].name, tests[j].name);
				fails++;
			}
	for (i = 0; i < n; i++)
		fails += run_case(&tests[i]);
	printf("%zu cases, %d failed\n", n, fails);
	return fails ? 1 : 0;
}

/* ---- valid inputs ---- */

static void print_log(void *ctx, const char *msg)
{
	printf("  %s\n", msg);
}

static const struct btf_log stdout_log = { print_log, NULL };

#define CHECK(cond)                                                               \
	do {                                                                      \
		if (!(cond)) {                                                    \
			printf("FAIL %s:%d: %s\n", __FILE__, __LINE__, #cond);    \
			return 1;                                                 \
		}                                                                 \
	} while (0)

/* One type of every kind 1..22, the way the encoder would write them. */
static struct btf *build_all_kinds(void)
{
	struct btf *btf = btf__new_empty();
	int i32, s, fp, fn, var, lp0, lp1, lproto;

	if (!btf)
		return NULL;
	i32 = btf__add_int(btf, "int", 4, BTF_INT_SIGNED);		/* INT */
	btf__add_ptr(btf, i32);						/* PTR */
	btf__add_array(btf, i32, i32, 4);				/* ARRAY */
	s = btf__add_struct(btf, "s", 8);				/* STRUCT */
	btf__add_field(btf, "a", i32, 0, 0);
	btf__add_field(btf, "b", i32, 32, 0);
	btf__add_union(btf, "u", 4);					/* UNION */
	btf__add_field(btf, "x", i32, 0, 0);
	btf__add_enum(btf, "e", 4);					/* ENUM */
	btf__add_enum_value(btf, "E_A", -1);
	btf__add_fwd(btf, "f", BTF_FWD_STRUCT);				/* FWD */
	btf__add_typedef(btf, "td", i32);				/* TYPEDEF */
	btf__add_volatile(btf, i32);					/* VOLATILE */
	btf__add_const(btf, i32);					/* CONST */
	btf__add_restrict(btf, btf__add_ptr(btf, i32));			/* RESTRICT */
	fp = btf__add_func_proto(btf, i32);				/* FUNC_PROTO */
	btf__add_func_param(btf, "p", i32);
	btf__add_func_param(btf, "q", s);
	fn = btf__add_func(btf, "fn", BTF_FUNC_GLOBAL, fp);		/* FUNC */
	var = btf__add_var(btf, "v", BTF_VAR_GLOBAL_ALLOCATED, i32);	/* VAR */
	btf__add_datasec(btf, ".data", 8);				/* DATASEC */
	btf__add_datasec_var_info(btf, var, 0, 4);
	btf__add_float(btf, "double", 8);				/* FLOAT */
	btf__add_decl_tag(btf, "tag", fn, 1);				/* DECL_TAG */
	btf__add_type_tag(btf, "user", i32);				/* TYPE_TAG */
	btf__add_enum64(btf, "e64", 8, false);				/* ENUM64 */
	btf__add_enum64_value(btf, "E64_A", 1ull << 40);
	lp0 = btf__add_loc_param(btf, -4, true, 7, 0, 0, 0);		/* LOC_PARAM */
	lp1 = btf__add_loc_param(btf, 8, false, 0, 5, BTF_LOC_FLAG_CONTINUE, 0);
	btf__add_loc_param(btf, 8, false, 0, 4, BTF_LOC_FLAG_DEREF, 16);
	lproto = btf__add_loc_proto(btf);				/* LOC_PROTO */
	btf__add_loc_proto_param(btf, lp0);
	btf__add_loc_proto_param(btf, lp1);
	btf__add_loc_proto_param(btf, lp1 + 1);
	btf__add_locsec(btf, "inline");					/* LOCSEC */
	btf__add_locsec_loc(btf, "fn", fp, lproto, 0x40);
	if (btf__add_locsec_loc(btf, "fn", fp, 0, 0x80) < 0) {
		btf__free(btf);
		return NULL;
	}
	return btf;
}

static int test_builders(void)
{
	struct btf *btf = build_all_kinds(), *back;
	bool seen[NR_BTF_KINDS] = { false };
	void *raw;
	size_t size;
	uint32_t id;
	int kind;

	CHECK(btf);
	for (id = 1; id < btf__type_cnt(btf); id++)
		seen[btf_kind(btf__type_by_id(btf, id))] = true;
	for (kind = 1; kind < NR_BTF_KINDS; kind++)
		if (!seen[kind]) {
			printf("FAIL kind %d (%s) not covered\n", kind, btf_kind_str(kind));
			return 1;
		}
	CHECK(btf__validate(btf, &stdout_log) == 0);
	/* Both byte orders read back to a BTF that validates too. */
	for (int swap = 0; swap < 2; swap++) {
		CHECK(btf__write_raw(btf, swap, &raw, &size) == 0);
		back = btf__parse_raw(raw, size, NULL, &stdout_log);
		free(raw);
		CHECK(back);
		CHECK(btf__validate(back, &stdout_log) == 0);
		btf__free(back);
	}
	btf__free(btf);
	printf("ok   builders: every kind 1..%d validates clean\n", BTF_KIND_MAX);
	return 0;
}

static int validate_file(const char *path, const char *sec, struct btf *base, struct btf **out)
{
	struct btf *btf = btf__parse_file(path, sec, base, &stdout_log);
	int err;

	if (!btf) {
		printf("FAIL %s: parse: %s\n", path, strerror(errno));
		return 1;
	}
	err = btf__validate(btf, &stdout_log);
	if (err) {
		printf("FAIL %s: validate returned %d\n", path, err);
		btf__free(btf);
		return 1;
	}
	printf("ok   %s: %u types (from id %u) validate clean\n", path,
	       btf__type_cnt(btf) - btf__start_id(btf), btf__start_id(btf));
	if (out)
		*out = btf;
	else
		btf__free(btf);
	return 0;
}

static int test_system(void)
{
	static const char *const sysfs = "/sys/kernel/btf/vmlinux";
	static const char *const dbg = "/usr/lib/debug/boot/vmlinux-6.1.0-57-cloud-amd64";
	int ran = 0, fails = 0;

	if (access(sysfs, R_OK) == 0) {
		fails += validate_file(sysfs, NULL, NULL, NULL);
		ran++;
	} else {
		printf("note: %s not readable, skipped\n", sysfs);
	}
	if (access(dbg, R_OK) == 0) {
		fails += validate_file(dbg, ".BTF", NULL, NULL);
		ran++;
	} else {
		printf("note: %s absent, skipped\n", dbg);
	}
	return fails ? 1 : ran ? 0 : SKIP;
}

/* vmlinux.BTF; .extra on it; xfs.BTF on it; xfs.BTF.extra on xfs.BTF. */
static int test_reference(const char *dir)
{
	struct btf *vmlinux = NULL, *xfs = NULL;
	char a[4096], b[4096], c[4096], d[4096];
	int fails = 0;

	snprintf(a, sizeof(a), "%s/vmlinux.BTF", dir);
	snprintf(b, sizeof(b), "%s/vmlinux.BTF.extra", dir);
	snprintf(c, sizeof(c), "%s/xfs.BTF", dir);
	snprintf(d, sizeof(d), "%s/xfs.BTF.extra", dir);
	if (access(a, R_OK) || access(b, R_OK) || access(c, R_OK) || access(d, R_OK)) {
		printf("note: RFC pahole outputs not found in %s, skipped\n", dir);
		return SKIP;
	}
	if (validate_file(a, NULL, NULL, &vmlinux))
		return 1;
	fails += validate_file(b, NULL, vmlinux, NULL);
	if (!validate_file(c, NULL, vmlinux, &xfs)) {
		fails += validate_file(d, NULL, xfs, NULL);
		btf__free(xfs);
	} else {
		fails++;
	}
	btf__free(vmlinux);
	return fails ? 1 : 0;
}

int main(int argc, char **argv)
{
	if (argc >= 2 && !strcmp(argv[1], "table"))
		return test_table();
	if (argc >= 2 && !strcmp(argv[1], "builders"))
		return test_builders();
	if (argc >= 2 && !strcmp(argv[1], "system"))
		return test_system();
	if (argc >= 3 && !strcmp(argv[1], "reference"))
		return test_reference(argv[2]);
	fprintf(stderr, "usage: %s table | builders | system | reference DIR\n", argv[0]);
	return 2;
}
