// SPDX-License-Identifier: GPL-2.0
/*
 * test_roundtrip.c - write -> read -> write gives the same bytes, in
 * native and swapped byte order, for base, split and multi-split BTF.
 *
 *   test_roundtrip kinds        every kind 1..BTF_KIND_MAX, built with the
 *                               builders, as base, split and multi-split
 *   test_roundtrip elf FILE     the .BTF section of an ELF file (vmlinux)
 *   test_roundtrip rfc DIR      the RFC pahole's vmlinux/xfs/drop_monitor
 *                               .BTF and .BTF.extra chains
 *   test_roundtrip write-std F [swapped]
 *                               writes kinds 1..19 built with the builders
 *                               to F, in native or the other byte order
 *                               (for the dump tests)
 *
 * For each BTF: the native image parses back (not swapped) and writes
 * the same bytes; the swapped image parses back (swapped), dumps the
 * same text as the original, writes the native image again and the
 * swapped image again.  Exit 77 when an input file is absent.
 */
#include "btf.h"

#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define SKIP 77

static int failures;

#define CHECK(cond, ...)                                                                           \
	({                                                                                         \
		bool __ok = (cond);                                                                \
		if (!__ok) {                                                                       \
			fprintf(stderr, "%s:%d: ", __FILE__, __LINE__);                            \
			fprintf(stderr, __VA_ARGS__);                                              \
			fputc('\n', stderr);                                                       \
			failures++;                                                                \
		}                                                                                  \
		__ok;                                                                              \
	})

static void log_stderr(void *ctx, const char *msg)
{
	fprintf(stderr, "  btf: %s\n", msg);
}

static const struct btf_log test_log = { log_stderr, NULL };

struct image {
	void *data;
	size_t size;
};

static void image_free(struct image *im)
{
	free(im->data);
	im->data = NULL;
	im->size = 0;
}

static bool image_eq(const struct image *a, const struct image *b)
{
	return a->size == b->size && !memcmp(a->data, b->data, a->size);
}

/* Offset of the first differing byte, for the failure message. */
static size_t image_diff_at(const struct image *a, const struct image *b)
{
	size_t i, n = a->size < b->size ? a->size : b->size;

	for (i = 0; i < n; i++)
		if (((const unsigned char *)a->data)[i] != ((const unsigned char *)b->data)[i])
			return i;
	return n;
}

static bool write_image(const struct btf *btf, bool swap, struct image *im)
{
	int err = btf__write_raw(btf, swap, &im->data, &im->size);

	return CHECK(!err, "btf__write_raw(swap=%d): %d", swap, err);
}

/* Every type this BTF owns, bpftool dialect, one block per line. */
static char *dump_all(const struct btf *btf)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	uint32_t id;

	if (!f)
		return NULL;
	for (id = btf__start_id(btf); id < btf__type_cnt(btf); id++) {
		if (btf__dump_type(btf, id, f)) {
			fclose(f);
			free(buf);
			return NULL;
		}
		fputc('\n', f);
	}
	fclose(f);
	return buf;
}

/* String offsets of @btf continue exactly where @base's string section ends. */
static void check_str_chain(const char *what, const struct btf *btf, const struct btf *base)
{
	struct image im = {};
	struct btf_header hdr;

	if (!write_image(base, false, &im))
		return;
	memcpy(&hdr, im.data, sizeof(hdr));
	CHECK(btf__start_str_off(btf) == btf__start_str_off(base) + hdr.str_len,
	      "%s: strings start at %u, base's %u + %u bytes", what, btf__start_str_off(btf),
	      btf__start_str_off(base), hdr.str_len);
	image_free(&im);
}

/* Reparses @im on @base and checks it is @btf again, byte for byte. */
static void check_parsed(const char *what, const struct btf *btf, struct btf *base,
			 const struct image *im, bool swapped, const struct image *native,
			 const struct image *swap_im, const char *exp_dump)
{
	struct image again = {};
	struct btf *b = btf__parse_raw(im->data, im->size, base, &test_log);
	char *dump;

	if (!CHECK(b, "%s: parse of the %s image failed", what, swapped ? "swapped" : "native"))
		return;
	CHECK(btf__is_swapped(b) == swapped, "%s: is_swapped=%d, expected %d", what,
	      btf__is_swapped(b), swapped);
	CHECK(btf__start_id(b) == btf__start_id(btf) && btf__type_cnt(b) == btf__type_cnt(btf),
	      "%s: ids [%u, %u) after reading, [%u, %u) before", what, btf__start_id(b),
	      btf__type_cnt(b), btf__start_id(btf), btf__type_cnt(btf));
	CHECK(btf__start_str_off(b) == btf__start_str_off(btf), "%s: start_str_off %u, was %u",
	      what, btf__start_str_off(b), btf__start_str_off(btf));
	dump = dump_all(b);
	CHECK(dump && !strcmp(dump, exp_dump), "%s: dump of the %s image differs", what,
	      swapped ? "swapped" : "native");
	free(dump);
	if (write_image(b, false, &again))
		CHECK(image_eq(&again, native),
		      "%s: native rewrite of the %s image differs (%zu vs %zu bytes, at %zu)", what,
		      swapped ? "swapped" : "native", again.size, native->size,
		      image_diff_at(&again, native));
	image_free(&again);
	if (write_image(b, true, &again))
		CHECK(image_eq(&again, swap_im),
		      "%s: swapped rewrite of the %s image differs (at byte %zu)", what,
		      swapped ? "swapped" : "native", image_diff_at(&again, swap_im));
	image_free(&again);
	btf__free(b);
}

/*
 * The round trips of one BTF whose base (NULL for base BTF) is @base.
 * @orig, if given, is the image @btf was read from: writing it back must
 * give exactly those bytes.
 */
static void roundtrip(const char *what, const struct btf *btf, struct btf *base,
		      const struct image *orig)
{
	struct image native = {}, swapped = {};
	const uint16_t *magic;
	char *dump = dump_all(btf);

	if (!CHECK(dump, "%s: dump failed", what))
		return;
	if (!write_image(btf, false, &native) || !write_image(btf, true, &swapped))
		goto out;
	if (orig)
		CHECK(image_eq(&native, orig),
		      "%s: written image differs from the input (%zu vs %zu bytes, at %zu)", what,
		      native.size, orig->size, image_diff_at(&native, orig));
	magic = swapped.data;
	CHECK(*magic == 0x9feb, "%s: swapped magic reads 0x%04x natively", what, *magic);
	CHECK(native.size == swapped.size, "%s: swapped image has %zu bytes, native %zu", what,
	      swapped.size, native.size);
	check_parsed(what, btf, base, &native, false, &native, &swapped, dump);
	check_parsed(what, btf, base, &swapped, true, &native, &swapped, dump);
	printf("%s: types [%u, %u), %zu bytes: native and swapped round trips %s\n", what,
	       btf__start_id(btf), btf__type_cnt(btf), native.size,
	       failures ? "checked (with failures)" : "ok");
out:
	image_free(&native);
	image_free(&swapped);
	free(dump);
}

/* ---- every kind, built with the builders ---- */

#define ADD(call)                                                                                  \
	({                                                                                         \
		int __r = (call);                                                                  \
		CHECK(__r >= 0, "%s failed: %d", #call, __r);                                      \
		__r;                                                                               \
	})

/* Types [1]..[25]: every kind bpftool 7.1 knows (1..19). */
static struct btf *build_std_kinds(void)
{
	struct btf *btf = btf__new_empty();
	int i_int, i_char, i_s, i_proto, i_var;

	if (!btf)
		return NULL;
	i_int = ADD(btf__add_int(btf, "int", 4, BTF_INT_SIGNED));		/* INT */
	i_char = ADD(btf__add_int(btf, "char", 1, BTF_INT_CHAR));
	ADD(btf__add_int(btf, "_Bool", 1, BTF_INT_BOOL));
	ADD(btf__add_ptr(btf, i_int));						/* PTR */
	ADD(btf__add_array(btf, i_int, i_char, 16));				/* ARRAY */
	i_s = ADD(btf__add_struct(btf, "s", 8));				/* STRUCT */
	ADD(btf__add_field(btf, "a", i_int, 0, 0));
	ADD(btf__add_field(btf, "b", i_int, 32, 3));				/* kflag */
	ADD(btf__add_field(btf, "c", i_int, 35, 29));
	ADD(btf__add_union(btf, "u", 4));					/* UNION */
	ADD(btf__add_field(btf, "x", i_int, 0, 0));
	ADD(btf__add_field(btf, NULL, i_char, 0, 0));
	ADD(btf__add_enum(btf, "e", 4));					/* ENUM */
	ADD(btf__add_enum_value(btf, "E_NEG", -2));
	ADD(btf__add_enum_value(btf, "E_MAX", 0x7fffffff));
	ADD(btf__add_fwd(btf, "fs", BTF_FWD_STRUCT));				/* FWD */
	ADD(btf__add_fwd(btf, "fu", BTF_FWD_UNION));
	ADD(btf__add_typedef(btf, "s_t", i_s));					/* TYPEDEF */
	ADD(btf__add_volatile(btf, i_int));					/* VOLATILE */
	ADD(btf__add_const(btf, i_int));					/* CONST */
	ADD(btf__add_restrict(btf, 4));						/* RESTRICT */
	i_proto = ADD(btf__add_func_proto(btf, i_int));				/* FUNC_PROTO */
	ADD(btf__add_func_param(btf, "p", 4));
	ADD(btf__add_func_param(btf, "n", i_int));
	ADD(btf__add_func(btf, "f", BTF_FUNC_GLOBAL, i_proto));			/* FUNC */
	i_var = ADD(btf__add_var(btf, "v", BTF_VAR_GLOBAL_ALLOCATED, i_int));	/* VAR */
	ADD(btf__add_var(btf, "xv", BTF_VAR_GLOBAL_EXTERN, i_int));
	ADD(btf__add_datasec(btf, ".data", 64));				/* DATASEC */
	ADD(btf__add_datasec_var_info(btf, i_var, 8, 4));
	ADD(btf__add_float(btf, "double", 8));					/* FLOAT */
	ADD(btf__add_decl_tag(btf, "tag1", i_s, 1));				/* DECL_TAG */
	ADD(btf__add_decl_tag(btf, "tag2", i_var, -1));
	ADD(btf__add_type_tag(btf, "user", i_int));				/* TYPE_TAG */
	ADD(btf__add_enum64(btf, "e64", 8, false));				/* ENUM64 */
	ADD(btf__add_enum64_value(btf, "BIG", 0xfedcba9876543210ULL));
	ADD(btf__add_enum64(btf, "se64", 8, true));
	ADD(btf__add_enum64_value(btf, "MIN", 0x8000000000000000ULL));
	return btf;
}

/* Types [1]..[33]: the above plus LOC_PARAM in all its forms, LOC_PROTO, LOCSEC. */
static struct btf *build_all_kinds(void)
{
	struct btf *btf = build_std_kinds();
	int i_lp_reg, i_lp_neg, i_lp_deref, i_lp_val, i_lproto;

	if (!btf)
		return NULL;
	/* LOC_PARAM: register, register+negative offset, DEREF, constants. */
	i_lp_reg = ADD(btf__add_loc_param(btf, 8, false, 0, 5, 0, 0));
	i_lp_neg = ADD(btf__add_loc_param(btf, -4, false, 0, 7, 0, -24));
	i_lp_deref = ADD(btf__add_loc_param(btf, 2, false, 0, 0x1234, BTF_LOC_FLAG_DEREF, -0x7fff0000));
	i_lp_val = ADD(btf__add_loc_param(btf, -8, true, (uint64_t)-123456789012LL, 0, 0, 0));
	ADD(btf__add_loc_param(btf, 1, true, 0x0102030405060708ULL, 0, 0, 0));
	ADD(btf__add_loc_param(btf, 4, false, 0, 3, BTF_LOC_FLAG_DEREF | BTF_LOC_FLAG_CONTINUE, 16));
	i_lproto = ADD(btf__add_loc_proto(btf));				/* LOC_PROTO */
	ADD(btf__add_loc_proto_param(btf, i_lp_reg));
	ADD(btf__add_loc_proto_param(btf, 0));
	ADD(btf__add_loc_proto_param(btf, i_lp_neg));
	ADD(btf__add_loc_proto_param(btf, i_lp_deref));
	ADD(btf__add_loc_proto_param(btf, i_lp_val));
	ADD(btf__add_locsec(btf, ".text"));					/* LOCSEC */
	ADD(btf__add_locsec_loc(btf, "f", 15, i_lproto, 0x10));
	ADD(btf__add_locsec_loc(btf, "f", 15, i_lproto, 0xfffffff0));
	return btf;
}

/* Fails loudly when a kind is added to btf.h and not to the builder above. */
static void check_every_kind(const struct btf *btf)
{
	bool seen[NR_BTF_KINDS] = {};
	unsigned int k;
	uint32_t id;

	for (id = 1; id < btf__type_cnt(btf); id++)
		seen[btf_kind(btf__type_by_id(btf, id))] = true;
	for (k = 1; k <= BTF_KIND_MAX; k++)
		CHECK(seen[k], "kind %u (%s) missing from the all-kinds BTF", k, btf_kind_str(k));
}

static bool dump_is(const struct btf *btf, uint32_t id, const char *exp)
{
	char *s = btf__dump_type_str(btf, id, BTF_DUMP_BPFTOOL);
	bool ok = s && !strcmp(s, exp);

	CHECK(ok, "[%u]\n  got:      \"%s\"\n  expected: \"%s\"", id, s ? s : "(null)", exp);
	free(s);
	return ok;
}

/*
 * The second and third level of the chain, ids [34]..[37] and [38]..[40]:
 * references across all three levels, a base string ("int") and a
 * split-1 string ("m1") reused rather than added again.
 */
static void add_split1_types(struct btf *s1)
{
	int st, p;

	ADD(btf__add_loc_param(s1, 8, false, 0, 4, 0, -8));
	st = ADD(btf__add_struct(s1, "split1_s", 4));
	ADD(btf__add_field(s1, "int", 1, 0, 0));
	ADD(btf__add_field(s1, "m1", 1, 0, 0));
	p = ADD(btf__add_ptr(s1, st));
	ADD(btf__add_func_proto(s1, 1));
	ADD(btf__add_func_param(s1, "arg", p));
}

/* Ids of a split BTF start where its base ends when it is created. */
static void add_split2_types(struct btf *s2)
{
	int lproto = ADD(btf__add_loc_proto(s2));

	ADD(btf__add_loc_proto_param(s2, 34));
	ADD(btf__add_loc_proto_param(s2, 26));
	ADD(btf__add_locsec(s2, ".text.split"));
	ADD(btf__add_locsec_loc(s2, "m1", 37, lproto, 64));
	ADD(btf__add_locsec_loc(s2, "g", 15, 32, 128));
	ADD(btf__add_typedef(s2, "split2_t", 35));
}

static int test_kinds(void)
{
	struct btf *base = build_all_kinds(), *s1 = NULL, *s2 = NULL;
	uint32_t st_id;

	if (!CHECK(base, "building the all-kinds BTF"))
		return 1;
	check_every_kind(base);
	CHECK(btf__type_cnt(base) == 34, "all-kinds BTF has %u types", btf__type_cnt(base) - 1);
	dump_is(base, 27, "[27] LOC_PARAM '(anon)' size=-4 reg=7 flags=0x0 offset=-24");
	dump_is(base, 28, "[28] LOC_PARAM '(anon)' size=2 reg=4660 flags=0x1 offset=-2147418112");
	dump_is(base, 29, "[29] LOC_PARAM '(anon)' size=-8 value=-123456789012");
	dump_is(base, 33, "[33] LOCSEC '.text' vlen=2\n"
			  "\t'f' func_proto_type_id=15 loc_proto_type_id=32 offset=16\n"
			  "\t'f' func_proto_type_id=15 loc_proto_type_id=32 offset=4294967280");
	roundtrip("all kinds (base)", base, NULL, NULL);

	s1 = btf__new_empty_split(base);
	if (!CHECK(s1, "btf__new_empty_split"))
		goto out;
	add_split1_types(s1);
	s2 = btf__new_empty_split(s1);
	if (!CHECK(s2, "btf__new_empty_split"))
		goto out;
	add_split2_types(s2);
	st_id = btf__start_id(s1) + 1;
	CHECK(btf__start_id(s1) == btf__type_cnt(base), "split ids start at %u, base ends at %u",
	      btf__start_id(s1), btf__type_cnt(base));
	CHECK(btf__start_id(s2) == btf__type_cnt(s1), "multi-split ids start at %u, split ends at %u",
	      btf__start_id(s2), btf__type_cnt(s1));
	check_str_chain("all kinds (split)", s1, base);
	check_str_chain("all kinds (multi-split)", s2, s1);
	/* "int" is reused from the base; "m1" comes from split 1 into split 2. */
	CHECK(btf__find_str(s1, "int") < (int)btf__start_str_off(s1), "base string re-added");
	CHECK(btf__find_str(s2, "m1") < (int)btf__start_str_off(s2), "split string re-added");
	dump_is(s1, st_id, "[35] STRUCT 'split1_s' size=4 vlen=2\n"
			   "\t'int' type_id=1 bits_offset=0\n"
			   "\t'm1' type_id=1 bits_offset=0");
	dump_is(s2, 38, "[38] LOC_PROTO '(anon)' vlen=2\n\ttype_id=34\n\ttype_id=26");
	dump_is(s2, 39, "[39] LOCSEC '.text.split' vlen=2\n"
			"\t'm1' func_proto_type_id=37 loc_proto_type_id=38 offset=64\n"
			"\t'g' func_proto_type_id=15 loc_proto_type_id=32 offset=128");
	dump_is(s2, 40, "[40] TYPEDEF 'split2_t' type_id=35");
	roundtrip("all kinds (split)", s1, base, NULL);
	roundtrip("all kinds (multi-split)", s2, s1, NULL);
out:
	btf__free(s2);
	btf__free(s1);
	btf__free(base);
	return failures ? 1 : 0;
}

/* ---- files ---- */

static bool read_file(const char *path, struct image *im)
{
	struct stat st;
	int fd = open(path, O_RDONLY);
	ssize_t n = -1;

	if (fd < 0)
		return false;
	if (!fstat(fd, &st) && (im->data = malloc(st.st_size ? st.st_size : 1)))
		n = read(fd, im->data, st.st_size);
	close(fd);
	if (n != st.st_size) {
		image_free(im);
		return false;
	}
	im->size = n;
	return true;
}

/* The raw bytes of ELF section @name, for comparing with what we write. */
static bool read_elf_section(const char *path, const char *name, struct image *im)
{
	Elf_Scn *scn = NULL;
	bool ok = false;
	size_t shstrndx;
	int fd;
	Elf *elf;

	elf_version(EV_CURRENT);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return false;
	elf = elf_begin(fd, ELF_C_READ, NULL);
	if (!elf || elf_getshdrstrndx(elf, &shstrndx))
		goto out;
	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		Elf_Data *d;

		if (!gelf_getshdr(scn, &sh) || strcmp(elf_strptr(elf, shstrndx, sh.sh_name), name))
			continue;
		d = elf_getdata(scn, NULL);
		if (!d || !(im->data = malloc(d->d_size)))
			break;
		memcpy(im->data, d->d_buf, d->d_size);
		im->size = d->d_size;
		ok = true;
		break;
	}
out:
	elf_end(elf);
	close(fd);
	return ok;
}

static int test_elf(const char *path)
{
	struct image sec = {};
	struct btf *btf;

	if (access(path, R_OK)) {
		printf("SKIP: %s not readable\n", path);
		return SKIP;
	}
	btf = btf__parse_file(path, NULL, NULL, &test_log);
	if (!CHECK(btf, "%s: btf__parse_file failed", path))
		return 1;
	if (CHECK(read_elf_section(path, ".BTF", &sec), "%s: reading .BTF with libelf", path))
		roundtrip(path, btf, NULL, &sec);
	image_free(&sec);
	btf__free(btf);
	return failures ? 1 : 0;
}

/* Parses DIR/NAME on @base and round-trips it; NULL if absent or broken. */
static struct btf *load_rt(const char *dir, const char *name, struct btf *base)
{
	struct image im = {};
	struct btf *btf = NULL;
	char path[4096];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if (!CHECK(read_file(path, &im), "%s: cannot read", path))
		return NULL;
	btf = btf__parse_raw(im.data, im.size, base, &test_log);
	if (CHECK(btf, "%s: parse failed", path)) {
		CHECK(!btf__is_swapped(btf), "%s: native file read as swapped", path);
		roundtrip(name, btf, base, &im);
	}
	image_free(&im);
	return btf;
}

/*
 * Every LOCSEC entry of an .extra names a string and points at a
 * FUNC_PROTO and a LOC_PROTO somewhere down the chain; every LOC_PROTO
 * entry at a LOC_PARAM (or 0).  Returns the number of sites.
 */
static unsigned long check_extra_refs(const char *what, const struct btf *extra)
{
	unsigned long sites = 0, bad = 0;
	uint32_t id;

	for (id = btf__start_id(extra); id < btf__type_cnt(extra); id++) {
		const struct btf_type *t = btf__type_by_id(extra, id);
		const struct btf_type *fp, *lp;
		const struct btf_loc *l;
		unsigned int i;

		if (btf_kind(t) != BTF_KIND_LOCSEC)
			continue;
		l = btf_type_body(t);
		for (i = 0; i < btf_vlen(t); i++, l++, sites++) {
			const char *name = btf__str_by_offset(extra, l->name_off);

			fp = btf__type_by_id(extra, l->func_proto);
			lp = btf__type_by_id(extra, l->loc_proto);
			if (!name || !*name || !fp || btf_kind(fp) != BTF_KIND_FUNC_PROTO || !lp ||
			    btf_kind(lp) != BTF_KIND_LOC_PROTO) {
				if (bad++ < 5)
					CHECK(false, "%s: [%u] LOCSEC entry %u does not resolve", what,
					      id, i);
			}
		}
	}
	CHECK(!bad, "%s: %lu of %lu sites do not resolve", what, bad, sites);
	CHECK(sites > 0, "%s: no sites", what);
	return sites;
}

/* The first type of @btf is its chain's next id and dumps with a real name. */
static void check_first(const char *what, const struct btf *btf, const struct btf *base)
{
	char *s;

	CHECK(btf__start_id(btf) == btf__type_cnt(base), "%s: starts at [%u], base ends at [%u]",
	      what, btf__start_id(btf), btf__type_cnt(base));
	check_str_chain(what, btf, base);
	s = btf__dump_type_str(btf, btf__start_id(btf), BTF_DUMP_BPFTOOL);
	CHECK(s && !strstr(s, "(invalid)"), "%s: first type dumps as \"%s\"", what, s);
	free(s);
}

/* vmlinux.BTF -> {vmlinux.BTF.extra, MOD.BTF -> MOD.BTF.extra}. */
static int test_rfc(const char *dir)
{
	static const char *const mods[] = { "xfs", "drop_monitor" };
	struct btf *vmlinux, *extra;
	char path[4096];
	size_t i;

	snprintf(path, sizeof(path), "%s/vmlinux.BTF", dir);
	if (access(path, R_OK)) {
		printf("SKIP: %s not readable\n", path);
		return SKIP;
	}
	vmlinux = load_rt(dir, "vmlinux.BTF", NULL);
	if (!vmlinux)
		return 1;
	extra = load_rt(dir, "vmlinux.BTF.extra", vmlinux);
	if (extra) {
		check_first("vmlinux.BTF.extra", extra, vmlinux);
		printf("vmlinux.BTF.extra: %lu sites resolve\n",
		       check_extra_refs("vmlinux.BTF.extra", extra));
	}
	btf__free(extra);
	for (i = 0; i < sizeof(mods) / sizeof(mods[0]); i++) {
		char name[64], xname[64];
		struct btf *mod;

		snprintf(name, sizeof(name), "%s.BTF", mods[i]);
		snprintf(xname, sizeof(xname), "%s.BTF.extra", mods[i]);
		mod = load_rt(dir, name, vmlinux);
		if (!mod)
			continue;
		check_first(name, mod, vmlinux);
		extra = load_rt(dir, xname, mod);
		if (extra) {
			check_first(xname, extra, mod);
			printf("%s: %lu sites resolve\n", xname, check_extra_refs(xname, extra));
		}
		btf__free(extra);
		btf__free(mod);
	}
	btf__free(vmlinux);
	return failures ? 1 : 0;
}

/* Writes the standard kinds as raw BTF, for comparing dumps with bpftool. */
static int write_std(const char *path, bool swap)
{
	struct btf *btf = build_std_kinds();
	struct image im = {};
	FILE *f;
	int ret = 1;

	if (!btf || !write_image(btf, swap, &im))
		goto out;
	f = fopen(path, "w");
	if (!CHECK(f, "%s: cannot create", path))
		goto out;
	if (fwrite(im.data, 1, im.size, f) == im.size && !fclose(f))
		ret = 0;
	CHECK(!ret, "%s: write failed", path);
out:
	image_free(&im);
	btf__free(btf);
	return ret;
}

int main(int argc, char **argv)
{
	if (argc == 2 && !strcmp(argv[1], "kinds"))
		return test_kinds();
	if (argc == 3 && !strcmp(argv[1], "elf"))
		return test_elf(argv[2]);
	if (argc == 3 && !strcmp(argv[1], "rfc"))
		return test_rfc(argv[2]);
	if ((argc == 3 || argc == 4) && !strcmp(argv[1], "write-std"))
		return write_std(argv[2], argc == 4 && !strcmp(argv[3], "swapped"));
	fprintf(stderr,
		"usage: test_roundtrip kinds | elf FILE | rfc DIR | write-std FILE [swapped]\n");
	return 2;
}
