// SPDX-License-Identifier: GPL-2.0
/*
 * test_merge_names.c - names through the encoder's merge: CUs whose
 * names are offsets into a .debug_str (btf_new_str_base()) merged one by
 * one with btf_merge_btf_cached(), as merge.c does.  A .debug_str the
 * linker merged (each string once: vmlinux) keeps the offset memo; one
 * it did not (each CU's own copy: ld -r, a module) drops it.  Either
 * way every merged name must read back right, a name must have one
 * offset however many copies it came from, and a name the base BTF has
 * must take the base's offset.  And a name a loaded string table holds
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
	return check_result();
}
