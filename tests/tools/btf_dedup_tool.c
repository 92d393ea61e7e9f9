// SPDX-License-Identifier: GPL-2.0
/*
 * btf_dedup_tool.c - test and bench driver for btfenc's btf__dedup().
 *
 *   btf_dedup_tool dedup IN OUT        dedup a raw (or ELF .BTF) BTF, write raw
 *   btf_dedup_tool concat OUT IN...    append every IN with btf__add_btf()
 *   btf_dedup_tool canon IN            per-kind counts, then the sorted
 *                                      id-free description of every type
 *   btf_dedup_tool ahead N IN          the dedup fed ahead (btf_dedup_feed()
 *                                      every N types or so) must give what
 *                                      btf__dedup() gives, byte for byte
 *
 * "canon" makes two dedup results comparable although their ids differ:
 * a type is described by its own fields, and each referenced type by
 * "KIND 'name'" when it is named (which also cuts every cycle, since a C
 * cycle passes through a named struct) or else by its own description.
 */
#include "btf.h"
#include "btf_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Monotonic milliseconds, for the dedup timing BTF_DEDUP_TIME asks for. */
static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

#define MAX_DEPTH 32

static void describe(const struct btf *btf, uint32_t id, FILE *out, int depth);

static bool named_leaf(const struct btf_type *t)
{
	switch ((enum btf_kind)btf_kind(t)) {
	case BTF_KIND_INT:
	case BTF_KIND_STRUCT:
	case BTF_KIND_UNION:
	case BTF_KIND_ENUM:
	case BTF_KIND_ENUM64:
	case BTF_KIND_FWD:
	case BTF_KIND_TYPEDEF:
	case BTF_KIND_FLOAT:
		return t->name_off != 0;
	case BTF_KIND_UNKN:
	case BTF_KIND_PTR:
	case BTF_KIND_ARRAY:
	case BTF_KIND_VOLATILE:
	case BTF_KIND_CONST:
	case BTF_KIND_RESTRICT:
	case BTF_KIND_FUNC:
	case BTF_KIND_FUNC_PROTO:
	case BTF_KIND_VAR:
	case BTF_KIND_DATASEC:
	case BTF_KIND_DECL_TAG:
	case BTF_KIND_TYPE_TAG:
	case BTF_KIND_LOC_PARAM:
	case BTF_KIND_LOC_PROTO:
	case BTF_KIND_LOCSEC:
	case NR_BTF_KINDS:
		break;
	}
	return false;
}

/* A reference: void, a named leaf, or the referenced type's description. */
static void describe_ref(const struct btf *btf, uint32_t id, FILE *out, int depth)
{
	const struct btf_type *t = btf__type_by_id(btf, id);

	if (!id || !t) {
		fputs(id ? "<bad>" : "void", out);
		return;
	}
	if (named_leaf(t)) {
		fprintf(out, "%s '%s'", btf_kind_str(btf_kind(t)), btf__name_by_id(btf, id));
		return;
	}
	if (depth >= MAX_DEPTH) {
		fputs("...", out);
		return;
	}
	fputc('(', out);
	describe(btf, id, out, depth + 1);
	fputc(')', out);
}

static void describe_body(const struct btf *btf, const struct btf_type *t, FILE *out, int depth)
{
	unsigned int i, n = btf_vlen(t);

	switch ((enum btf_kind)btf_kind(t)) {
	case BTF_KIND_INT:
	case BTF_KIND_DECL_TAG:
		fprintf(out, " size=%u v=%#x", t->size, *(const uint32_t *)btf_type_body(t));
		if (btf_kind(t) == BTF_KIND_DECL_TAG)
			describe_ref(btf, t->type, out, depth);
		return;
	case BTF_KIND_FLOAT:
	case BTF_KIND_FWD:
		fprintf(out, " size=%u", t->size);
		return;
	case BTF_KIND_PTR:
	case BTF_KIND_TYPEDEF:
	case BTF_KIND_VOLATILE:
	case BTF_KIND_CONST:
	case BTF_KIND_RESTRICT:
	case BTF_KIND_TYPE_TAG:
	case BTF_KIND_FUNC:
	case BTF_KIND_VAR:
		fputs(" -> ", out);
		describe_ref(btf, t->type, out, depth);
		return;
	case BTF_KIND_ARRAY: {
		const struct btf_array *a = btf_type_body(t);

		fprintf(out, " [%u] of ", a->nelems);
		describe_ref(btf, a->type, out, depth);
		fputs(" idx ", out);
		describe_ref(btf, a->index_type, out, depth);
		return;
	}
	case BTF_KIND_STRUCT:
	case BTF_KIND_UNION: {
		const struct btf_member *m = btf_type_body(t);

		fprintf(out, " size=%u {", t->size);
		for (i = 0; i < n; i++) {
			fprintf(out, " '%s'@%#x:", btf__str_by_offset(btf, m[i].name_off),
				m[i].offset);
			describe_ref(btf, m[i].type, out, depth);
		}
		fputs(" }", out);
		return;
	}
	case BTF_KIND_ENUM: {
		const struct btf_enum *e = btf_type_body(t);

		fprintf(out, " size=%u {", t->size);
		for (i = 0; i < n; i++)
			fprintf(out, " %s=%d", btf__str_by_offset(btf, e[i].name_off), e[i].val);
		fputs(" }", out);
		return;
	}
	case BTF_KIND_ENUM64: {
		const struct btf_enum64 *e = btf_type_body(t);

		fprintf(out, " size=%u {", t->size);
		for (i = 0; i < n; i++)
			fprintf(out, " %s=%llu", btf__str_by_offset(btf, e[i].name_off),
				(unsigned long long)btf_enum64_value(&e[i]));
		fputs(" }", out);
		return;
	}
	case BTF_KIND_FUNC_PROTO: {
		const struct btf_param *p = btf_type_body(t);

		fputs(" ret ", out);
		describe_ref(btf, t->type, out, depth);
		for (i = 0; i < n; i++) {
			fprintf(out, ", '%s' ", btf__str_by_offset(btf, p[i].name_off));
			describe_ref(btf, p[i].type, out, depth);
		}
		return;
	}
	case BTF_KIND_DATASEC: {
		const struct btf_var_secinfo *v = btf_type_body(t);

		for (i = 0; i < n; i++) {
			fprintf(out, " @%u+%u ", v[i].offset, v[i].size);
			describe_ref(btf, v[i].type, out, depth);
		}
		return;
	}
	case BTF_KIND_LOC_PARAM:
		fprintf(out, " size=%d v=%#llx", (int32_t)t->size,
			(unsigned long long)btf_loc_param_value(t));
		return;
	case BTF_KIND_LOC_PROTO: {
		const uint32_t *ids = btf_type_body(t);

		for (i = 0; i < n; i++) {
			fputc(' ', out);
			describe_ref(btf, ids[i], out, depth);
		}
		return;
	}
	case BTF_KIND_LOCSEC: {
		const struct btf_loc *l = btf_type_body(t);

		for (i = 0; i < n; i++) {
			fprintf(out, " '%s'@%u ", btf__str_by_offset(btf, l[i].name_off),
				l[i].offset);
			describe_ref(btf, l[i].func_proto, out, depth);
			describe_ref(btf, l[i].loc_proto, out, depth);
		}
		return;
	}
	case BTF_KIND_UNKN:
	case NR_BTF_KINDS:
		break;
	}
}

static void describe(const struct btf *btf, uint32_t id, FILE *out, int depth)
{
	const struct btf_type *t = btf__type_by_id(btf, id);

	fprintf(out, "%s '%s' kflag=%d vlen=%u", btf_kind_str(btf_kind(t)),
		btf__name_by_id(btf, id), btf_kflag(t), btf_vlen(t));
	describe_body(btf, t, out, depth);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static struct btf *load(const char *path)
{
	struct btf *btf = btf__parse_file(path, NULL, NULL, NULL);

	if (!btf)
		fprintf(stderr, "%s: cannot read BTF\n", path);
	return btf;
}

static int write_file(const struct btf *btf, const char *path)
{
	void *data;
	size_t size;
	FILE *f;
	int err = btf__write_raw(btf, false, &data, &size);

	if (err) {
		fprintf(stderr, "%s: serialize: %d\n", path, err);
		return 1;
	}
	f = fopen(path, "wb");
	if (!f || fwrite(data, 1, size, f) != size || fclose(f)) {
		fprintf(stderr, "%s: write failed\n", path);
		free(data);
		return 1;
	}
	free(data);
	return 0;
}

/* @base_path: the .BTF of this ELF file (or raw BTF) is @path's base; its types are not listed. */
static int cmd_canon(const char *path, const char *base_path)
{
	unsigned int counts[NR_BTF_KINDS] = {}, k;
	struct btf *base = base_path ? btf__parse_file(base_path, ".BTF", NULL, NULL) : NULL;
	struct btf *btf = base_path && !base ? NULL : btf__parse_file(path, NULL, base, NULL);
	uint32_t id, cnt, start;
	char **lines;

	if (!btf) {
		fprintf(stderr, "%s: cannot read BTF\n", path);
		btf__free(base);
		return 1;
	}
	cnt = btf__type_cnt(btf);
	start = btf__start_id(btf);
	lines = calloc(cnt, sizeof(*lines));
	for (id = start ? start : 1; id < cnt; id++) {
		size_t len;
		FILE *out = open_memstream(&lines[id - 1], &len);

		counts[btf_kind(btf__type_by_id(btf, id))]++;
		describe(btf, id, out, 0);
		fclose(out);
	}
	for (k = 1; k < NR_BTF_KINDS; k++)
		if (counts[k])
			printf("count %s %u\n", btf_kind_str(k), counts[k]);
	start = start ? start : 1;
	qsort(lines + start - 1, cnt - start, sizeof(*lines), cmp_str);
	for (id = start - 1; id + 1 < cnt; id++) {
		puts(lines[id]);
		free(lines[id]);
	}
	free(lines);
	btf__free(btf);
	btf__free(base);
	return 0;
}

static int cmd_concat(int argc, char **argv)
{
	struct btf *dst = btf__new_empty();
	int i, err = 0;

	for (i = 1; i < argc && !err; i++) {
		struct btf *src = load(argv[i]);

		err = !src || btf__add_btf(dst, src) < 0;
		btf__free(src);
	}
	err = err || write_file(dst, argv[0]);
	btf__free(dst);
	return err;
}

/* @in_place: on the records themselves, as the encoder has it done. */
/*
 * dedup [--in-place] [--rounds N] IN OUT: --rounds runs the struct phase
 * on two threads in rounds of N types at least.
 */
static int cmd_dedup(int argc, char **argv)
{
	struct btf_dedup_opts opts = {};
	struct btf *btf;
	double t0;
	int err;

	for (; argc > 2; argc--, argv++) {
		if (!strcmp(argv[0], "--in-place")) {
			opts.in_place = true;
		} else if (!strcmp(argv[0], "--rounds") && argc > 3) {
			opts.jobs = 2;
			opts.round_types = strtoul(argv[1], NULL, 0);
			argc--, argv++;
		} else {
			break;
		}
	}
	if (argc != 2)
		return 2;
	btf = load(argv[0]);
	if (!btf)
		return 1;
	t0 = now_ms();
	err = btf__dedup(btf, &opts);
	if (getenv("BTF_DEDUP_TIME"))
		fprintf(stderr, "dedup: %.1f ms\n", now_ms() - t0);
	if (err)
		fprintf(stderr, "btf__dedup: %d\n", err);
	err = err || write_file(btf, argv[1]);
	btf__free(btf);
	return err;
}

/* The highest id @id refers to (visit callback). */
static int max_ref(uint32_t *id, void *arg)
{
	uint32_t *max = arg;

	if (*id > *max)
		*max = *id;
	return 0;
}

/*
 * Feeds @btf's types to a dedup run ahead as if they were appended in
 * runs of about @every: the types beyond each run are hidden (nr_types),
 * and a run ends only where no type before refers to one after, as a
 * merged CU ends.
 */
static int dedup_ahead(struct btf *btf, uint32_t every, uint32_t **map, uint32_t *nr_feeds)
{
	struct btf_dedup_opts opts = { .in_place = true };
	uint32_t n = btf->nr_types, start = btf->start_id, i, max = 0, last = 0;
	struct btf_dedup *dd;
	int err = 0;

	btf->nr_types = 0;
	dd = btf_dedup_new(btf, &opts);
	if (!dd)
		return -errno;
	for (i = 0; i < n && !err; i++) {
		struct btf_type *t = (struct btf_type *)((char *)btf->types + btf->type_offs[i]);

		err = btf_type_visit_type_ids(t, btf->layout, max_ref, &max);
		if (err || max >= start + i + 1 || i + 1 - last < every)
			continue;
		btf->nr_types = i + 1;
		last = i + 1;
		err = btf_dedup_feed(dd);
		++*nr_feeds;
	}
	btf->nr_types = n;
	if (err) {
		btf_dedup_free(dd);
		return err;
	}
	return btf_dedup_finish(dd, map);
}

static int cmd_ahead(const char *every, const char *in)
{
	struct btf_dedup_opts opts = { .in_place = true };
	struct btf *whole = load(in), *fed = load(in);
	uint32_t *map_whole = NULL, *map_fed = NULL, n, feeds = 0;
	void *raw_whole = NULL, *raw_fed = NULL;
	size_t sz_whole = 0, sz_fed = 0;
	int err = 1;

	if (!whole || !fed)
		goto out;
	n = whole->nr_types;
	opts.id_map = &map_whole;
	if (btf__dedup(whole, &opts) ||
	    dedup_ahead(fed, strtoul(every, NULL, 0), &map_fed, &feeds)) {
		fprintf(stderr, "%s: dedup failed\n", in);
		goto out;
	}
	if (btf__write_raw(whole, false, &raw_whole, &sz_whole) ||
	    btf__write_raw(fed, false, &raw_fed, &sz_fed))
		goto out;
	if (sz_whole != sz_fed || memcmp(raw_whole, raw_fed, sz_whole)) {
		fprintf(stderr, "FAIL: %s: fed ahead in %u runs, the dedup gives other bytes\n", in,
			feeds);
		goto out;
	}
	if (memcmp(map_whole, map_fed, n * sizeof(*map_whole))) {
		fprintf(stderr, "FAIL: %s: fed ahead, the dedup gives another id map\n", in);
		goto out;
	}
	printf("%s: %u types fed in %u runs, %u after dedup: same bytes, same id map\n", in, n,
	       feeds, btf__type_cnt(fed) - 1);
	err = 0;
out:
	free(raw_whole);
	free(raw_fed);
	free(map_whole);
	free(map_fed);
	btf__free(whole);
	btf__free(fed);
	return err;
}

int main(int argc, char **argv)
{
	int err;

	if (argc >= 4 && !strcmp(argv[1], "dedup")) {
		err = cmd_dedup(argc - 2, argv + 2);
		if (err != 2)
			return err;
	}
	if (argc >= 4 && !strcmp(argv[1], "concat"))
		return cmd_concat(argc - 2, argv + 2);
	if (argc == 3 && !strcmp(argv[1], "canon"))
		return cmd_canon(argv[2], NULL);
	if (argc == 4 && !strcmp(argv[1], "ahead"))
		return cmd_ahead(argv[2], argv[3]);
	if (argc == 4 && !strcmp(argv[1], "canon"))
		return cmd_canon(argv[2], argv[3]);
	fprintf(stderr,
		"usage: %s dedup [--in-place] [--rounds N] IN OUT | concat OUT IN... |"
		" canon IN [BASE] | ahead N IN\n",
		argv[0]);
	return 2;
}
