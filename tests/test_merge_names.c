// SPDX-License-Identifier: GPL-2.0
/*
 * test_merge_names.c - names through the encoder's merge: CUs whose
 * names are offsets into a .debug_str (btf_new_str_base()) merged one by
 * one with btf_merge_btf_cached(), as merge.c does.  A .debug_str the
 * linker merged (each string once: vmlinux) keeps the offset memo; one
 * it did not (each CU's own copy: ld -r, a module) drops it.  Either
 * way every merged name must read back right, a name must have one
 * offset however many copies it came from, and a name the base BTF has
 * must take the base's offset.  The same CUs merged keeping the section's
 * offsets (btf_merge_btf_same_strs()) must deduplicate to the same
 * bytes, the table unique only where no name has two offsets.  And a
 * name a loaded string table holds
 * twice is found at its first copy, as libbpf finds it; a loaded BTF
 * merges to the same bytes whether a lookup indexed its strings or not.
 */
#include "btf_internal.h"
#include "check.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NR_CUS 40
#define NR_NAMES 2000 /* per CU: 80K lookups, past the memo's first check */

/* "n0".."n1999" @copies times over, NUL-separated; offsets of copy 0 in @at. */
static char *str_section(unsigned int copies, size_t *len, uint32_t *at)
{
	size_t cap = (size_t)copies * NR_NAMES * 8, n = 0;
	char *buf = malloc(cap);
	unsigned int c, i;

	if (!buf)
		return NULL;
	for (c = 0; c < copies; c++) {
		for (i = 0; i < NR_NAMES; i++) {
			if (!c)
				at[i] = n;
			n += sprintf(buf + n, "n%u", i) + 1;
		}
	}
	*len = n;
	return buf;
}

/*
 * @copies 1: every CU names its types from the one copy; NR_CUS: CU c
 * from copy c.  Returns the memo's state after the merge (1 dropped).
 */
static int merge_cus(const char *what, unsigned int copies)
{
	struct btf_off_map map = {};
	struct btf *vbase = btf__new_empty(), *sbase = NULL, *dst = NULL, *cu;
	uint32_t at[NR_NAMES], first_off[NR_NAMES] = {};
	size_t len, copy_len;
	char *sec = str_section(copies, &len, at), own[32];
	unsigned int c, i, bad = 0;
	int id, base_off, dropped = -1;

	/* The "vmlinux" base already has one of the names. */
	if (!vbase || !sec || btf__add_int(vbase, "n5", 4, 0) < 0)
		goto out;
	base_off = btf__find_str(vbase, "n5");
	sbase = btf_new_str_base(sec, len);
	dst = btf__new_empty_split(vbase);
	if (!sbase || !dst)
		goto out;
	copy_len = len / copies;
	for (c = 0; c < NR_CUS; c++) {
		const char *copy = sec + (copies > 1 ? c * copy_len : 0);

		cu = btf__new_empty_split(sbase);
		if (!cu || btf_names_in(cu, sec, sec + len)) {
			btf__free(cu);
			goto out;
		}
		for (i = 0; i < NR_NAMES; i++)
			CHECK(btf__add_int(cu, copy + at[i], 4, 0) > 0, "%s: add", what);
		/* A name from outside .debug_str (DW_FORM_string). */
		snprintf(own, sizeof(own), "own%u", c % 3);
		CHECK(btf__add_int(cu, own, 8, 0) > 0, "%s: add own", what);
		id = btf_merge_btf_cached(dst, cu, &map);
		CHECK(id > 0, "%s: CU %u: merge: %d", what, c, id);
		btf__free(cu);
		for (i = 0; id > 0 && i < NR_NAMES; i++) {
			const struct btf_type *t = btf__type_by_id(dst, id + i);
			const char *name = btf__str_by_offset(dst, t->name_off);
			char want[16];

			snprintf(want, sizeof(want), "n%u", i);
			if (!first_off[i])
				first_off[i] = t->name_off;
			bad += !name || strcmp(name, want) || t->name_off != first_off[i];
		}
		if (id > 0) {
			const struct btf_type *t = btf__type_by_id(dst, id + NR_NAMES);
			const char *name = btf__str_by_offset(dst, t->name_off);

			CHECK(name && !strcmp(name, own), "%s: CU %u: own name %s", what, c,
			      name ? name : "(null)");
		}
	}
	CHECK(!bad, "%s: %u names wrong or with a second offset", what, bad);
	CHECK(first_off[5] == (uint32_t)base_off, "%s: n5 at %u, the base has it at %d", what,
	      first_off[5], base_off);
	dropped = map.off;
out:
	CHECK(dropped >= 0, "%s: setup failed", what);
	btf_off_map_free(&map);
	btf__free(dst);
	btf__free(sbase);
	btf__free(vbase);
	free(sec);
	return dropped;
}

/* @dst deduplicated as the encoder does it first, then written. */
static void *dedup_written(struct btf *dst, bool keep_strings, size_t *size)
{
	struct btf_dedup_opts opts = { .keep_strings = keep_strings };
	void *raw = NULL;

	*size = 0;
	if (btf__dedup(dst, &opts) || btf__write_raw(dst, false, &raw, size))
		return NULL;
	return raw;
}

/* What the last CU adds besides its names from the section. */
enum same_extra {
	EXTRA_NONE,
	EXTRA_OWN_DUP,	/* an own name the section has too: "n7" */
	EXTRA_TAIL_DUP, /* a name in the middle of a section string, and the same as own */
	EXTRA_EMPTY,	/* a name at a section string's NUL: "" at a non-zero offset */
};

/*
 * The same CUs merged with btf_merge_btf_same_strs() (vmlinux's merge):
 * names in the section keep their offsets, own ones read back, an empty
 * one becomes 0, the table counts as unique after the check exactly when
 * no name in use has two offsets (@copies > 1: a CU per copy), and the
 * dedup gives the bytes it gives after btf_merge_btf_cached().
 */
static void check_same_strs(const char *what, unsigned int copies, enum same_extra extra)
{
	struct btf_off_map map = {};
	struct btf_str_marks marks = {};
	struct btf *sbase = NULL, *other = NULL, *same = btf__new_empty();
	struct btf *cached = btf__new_empty(), *cu = NULL;
	uint32_t at[NR_NAMES];
	size_t len, copy_len, s1, s2;
	char *sec = str_section(copies, &len, at), own[32];
	void *r1 = NULL, *r2 = NULL;
	unsigned int c, i, bad = 0;
	bool unique = copies == 1 && extra != EXTRA_OWN_DUP && extra != EXTRA_TAIL_DUP;
	int id = 0, last_id = 0;

	sbase = btf_new_str_base(sec, len);
	other = btf_new_str_base(sec, len);
	CHECK(sec && sbase && other && same && cached, "%s: setup failed", what);
	if (!sec || !sbase || !other || !same || !cached)
		goto out;
	copy_len = len / copies;
	for (c = 0; c < NR_CUS; c++) {
		const char *copy = sec + (copies > 1 ? c * copy_len : 0);
		bool last = c == NR_CUS - 1;

		cu = btf__new_empty_split(sbase);
		CHECK(cu && !btf_names_in(cu, sec, sec + len), "%s: CU %u: setup failed", what, c);
		if (!cu)
			goto out;
		for (i = 0; i < NR_NAMES; i++)
			CHECK(btf__add_int(cu, copy + at[i], 4, 0) > 0, "%s: add", what);
		snprintf(own, sizeof(own), "own%u", c % 3);
		if (last && extra == EXTRA_OWN_DUP)
			snprintf(own, sizeof(own), "n7");
		if (last && extra == EXTRA_TAIL_DUP) {
			/* "1999" inside "n1999", and "1999" as an own string. */
			CHECK(btf__add_int(cu, copy + at[1999] + 1, 4, 0) > 0, "%s: add tail",
			      what);
			snprintf(own, sizeof(own), "1999");
		}
		/* A member named by the NUL after "n3". */
		if (last && extra == EXTRA_EMPTY)
			CHECK(btf__add_struct(cu, copy + at[3], 4) > 0 &&
				      !btf__add_field(cu, copy + at[3] + 2, 1, 0, 0),
			      "%s: add empty", what);
		CHECK(btf__add_int(cu, own, 8, 0) > 0, "%s: add own", what);
		CHECK(btf_merge_btf_cached(cached, cu, &map) > 0, "%s: CU %u: cached merge", what,
		      c);
		id = btf_merge_btf_same_strs(same, cu, &marks);
		CHECK(id > 0, "%s: CU %u: merge: %d", what, c, id);
		for (i = 0; id > 0 && i < NR_NAMES; i++) {
			const struct btf_type *t = btf__type_by_id(same, id + i);
			const char *name = btf__str_by_offset(same, t->name_off);

			bad += !name || strcmp(name, copy + at[i]) ||
			       t->name_off != (uint32_t)(copy + at[i] - sec) + 1;
		}
		if (id > 0) {
			const char *name = btf__str_by_offset(
				same, btf__type_by_id(same, btf__type_cnt(same) - 1)->name_off);

			CHECK(name && !strcmp(name, own), "%s: CU %u: own name %s", what, c,
			      name ? name : "(null)");
		}
		last_id = id;
		btf__free(cu);
		cu = NULL;
	}
	CHECK(!bad, "%s: %u names wrong or moved", what, bad);
	/* A CU on another base would be read with the wrong strings. */
	cu = btf__new_empty_split(other);
	CHECK(cu && btf__add_int(cu, "x", 4, 0) > 0 &&
		      btf_merge_btf_same_strs(same, cu, &marks) == -EINVAL,
	      "%s: a CU on another base was merged", what);
	CHECK(!btf_merge_strs_checked(same, &marks), "%s: check failed", what);
	CHECK(strset__unique(same->strs) == unique, "%s: the table counts as %sunique", what,
	      strset__unique(same->strs) ? "" : "not ");
	if (extra == EXTRA_EMPTY && last_id > 0) {
		const struct btf_member *m =
			btf_type_body(btf__type_by_id(same, last_id + NR_NAMES));

		CHECK(!m->name_off, "%s: the empty name is not 0", what);
	}
	r1 = dedup_written(cached, true, &s1);
	r2 = dedup_written(same, true, &s2);
	CHECK(r1 && r2 && s1 == s2 && !memcmp(r1, r2, s1),
	      "%s: deduplicated, not the bytes of the cached merge", what);
out:
	free(r1);
	free(r2);
	free(marks.seen);
	btf__free(cu);
	btf_off_map_free(&map);
	btf__free(cached);
	btf__free(same);
	btf__free(other);
	btf__free(sbase);
	free(sec);
}

/* A raw BTF whose strings are "", "abc", "abc": one INT named by the second. */
static void check_loaded_dup(void)
{
	static const char strs[] = "\0abc\0abc";
	struct {
		struct btf_header hdr;
		struct btf_type t;
		uint32_t enc;
		char strs[sizeof(strs)];
	} raw = {
		.hdr = { BTF_MAGIC, 1, 0, sizeof(struct btf_header), 0, 16, 16, sizeof(strs) },
		.t = { .name_off = 5, .info = BTF_KIND_INT << 24, .size = 4 },
		.enc = 32,
	};
	struct btf *btf, *split;

	memcpy(raw.strs, strs, sizeof(strs));
	btf = btf__parse_raw(&raw, sizeof(raw), NULL, NULL);
	CHECK(btf, "loaded dup: not parsed");
	if (!btf)
		return;
	CHECK(btf__find_str(btf, "abc") == 1, "loaded dup: abc at %d, not its first copy",
	      btf__find_str(btf, "abc"));
	split = btf__new_empty_split(btf);
	CHECK(split && btf__add_str(split, "abc") == 1, "loaded dup: a split gets another abc");
	btf__free(split);
	btf__free(btf);
}

/* @n INTs "t0".."t<n-1>" written and loaded back: a file's BTF. */
static struct btf *loaded_btf(unsigned int n)
{
	struct btf *built = btf__new_empty(), *btf = NULL;
	void *raw = NULL;
	size_t size = 0;
	char name[16];
	unsigned int i;

	for (i = 0; built && i < n; i++) {
		snprintf(name, sizeof(name), "t%u", i);
		if (btf__add_int(built, name, 4, 0) < 0)
			goto out;
	}
	if (built && !btf__write_raw(built, false, &raw, &size))
		btf = btf__parse_raw(raw, size, NULL, NULL);
out:
	free(raw);
	btf__free(built);
	return btf;
}

static void check_merge_indexed(unsigned int n)
{
	struct btf *plain = loaded_btf(n), *indexed = loaded_btf(n);
	struct btf *d1 = btf__new_empty(), *d2 = btf__new_empty();
	void *r1 = NULL, *r2 = NULL;
	size_t s1 = 0, s2 = 0;

	CHECK(plain && indexed && d1 && d2, "merge indexed %u: setup failed", n);
	if (!plain || !indexed || !d1 || !d2)
		goto out;
	CHECK(btf__find_str(indexed, "t1") > 0, "merge indexed %u: t1 not found", n);
	CHECK(btf_merge_btf(d1, plain) == 1 && btf_merge_btf(d2, indexed) == 1,
	      "merge indexed %u: merge failed", n);
	CHECK(!btf__write_raw(d1, false, &r1, &s1) && !btf__write_raw(d2, false, &r2, &s2),
	      "merge indexed %u: not written", n);
	CHECK(s1 == s2 && r1 && r2 && !memcmp(r1, r2, s1),
	      "merge indexed %u: the source's index changed the merged bytes", n);
out:
	free(r1);
	free(r2);
	btf__free(d2);
	btf__free(d1);
	btf__free(indexed);
	btf__free(plain);
}

int main(void)
{
	check_loaded_dup();
	check_merge_indexed(10);
	check_merge_indexed(2047);
	CHECK(merge_cus("merged .debug_str", 1) == 0, "merged .debug_str: the memo was dropped");
	CHECK(merge_cus("unmerged .debug_str", NR_CUS) == 1,
	      "unmerged .debug_str: the memo was kept");
	check_same_strs("same strings, merged .debug_str", 1, EXTRA_NONE);
	check_same_strs("same strings, unmerged .debug_str", NR_CUS, EXTRA_NONE);
	check_same_strs("same strings, an own name in .debug_str", 1, EXTRA_OWN_DUP);
	check_same_strs("same strings, a name inside another", 1, EXTRA_TAIL_DUP);
	check_same_strs("same strings, an empty name", 1, EXTRA_EMPTY);
	/* The empty name's fix-up must not forget the duplicates found. */
	check_same_strs("same strings, unmerged .debug_str, an empty name", NR_CUS, EXTRA_EMPTY);
	return check_result();
}
