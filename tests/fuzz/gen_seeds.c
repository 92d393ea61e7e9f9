// SPDX-License-Identifier: GPL-2.0
/*
 * gen_seeds.c - writes the seed corpus of fuzz_btf_read: raw BTF built
 * with the builders (every kind, both byte orders, split on the fuzzer's
 * fixed base, location kinds), plus each FILE given that exists and is at
 * most MAX_BYTES once written raw (raw BTF files as they are; the .BTF of
 * ELF files).  Missing files are skipped with a note.
 *
 * Usage: gen_seeds OUTDIR MAX_BYTES [FILE...]
 */
#include "btf.h"
#include "fuzz_base.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *outdir;

static int write_file(const char *name, const void *data, size_t size)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", outdir, name);
	f = fopen(path, "wb");
	if (!f || fwrite(data, 1, size, f) != size || fclose(f)) {
		fprintf(stderr, "gen_seeds: %s: %s\n", path, strerror(errno));
		return -1;
	}
	return 0;
}

static int write_btf(const char *name, const struct btf *btf, bool swap)
{
	void *raw;
	size_t size;
	int err;

	if (!btf || btf__write_raw(btf, swap, &raw, &size)) {
		fprintf(stderr, "gen_seeds: cannot build %s\n", name);
		return -1;
	}
	err = write_file(name, raw, size);
	free(raw);
	return err;
}

/* One type of every kind 1..22 but INT, built on the INT @i32. */
static void add_all_kinds(struct btf *btf, int i32)
{
	int s, fp, fn, var, lp, lproto;

	btf__add_array(btf, i32, i32, 3);
	s = btf__add_struct(btf, "st", 8);
	btf__add_field(btf, "bf", i32, 0, 3);
	btf__add_field(btf, "x", i32, 32, 0);
	btf__add_union(btf, "un", 4);
	btf__add_field(btf, "y", i32, 0, 0);
	btf__add_enum(btf, "en", 4);
	btf__add_enum_value(btf, "EN_A", 1);
	btf__add_fwd(btf, "fw", BTF_FWD_UNION);
	btf__add_typedef(btf, "td", s);
	btf__add_volatile(btf, i32);
	btf__add_restrict(btf, btf__add_ptr(btf, btf__add_const(btf, i32)));
	fp = btf__add_func_proto(btf, i32);
	btf__add_func_param(btf, "a", i32);
	btf__add_func_param(btf, "b", btf__add_ptr(btf, s));
	fn = btf__add_func(btf, "fn", BTF_FUNC_STATIC, fp);
	var = btf__add_var(btf, "gv", BTF_VAR_STATIC, i32);
	btf__add_datasec(btf, ".bss", 4);
	btf__add_datasec_var_info(btf, var, 0, 4);
	btf__add_float(btf, "float", 4);
	btf__add_decl_tag(btf, "dt", fn, -1);
	btf__add_type_tag(btf, "tt", i32);
	btf__add_enum64(btf, "e64", 8, true);
	btf__add_enum64_value(btf, "E64_MIN", 1ull << 63);
	lp = btf__add_loc_param(btf, 8, false, 0, 5, BTF_LOC_FLAG_DEREF, -8);
	btf__add_loc_param(btf, -2, true, 0xffff, 0, 0, 0);
	lproto = btf__add_loc_proto(btf);
	btf__add_loc_proto_param(btf, lp);
	btf__add_loc_proto_param(btf, 0);
	btf__add_locsec(btf, "inline");
	btf__add_locsec_loc(btf, "fn", fp, lproto, 0x10);
	btf__add_locsec_loc(btf, "fn", fp, lproto, 0x20);
}

static int builder_seeds(void)
{
	struct btf *base = fuzz_base_new(), *btf = btf__new_empty(), *split = NULL;
	int err = 0;

	if (!base || !btf) {
		err = -1;
		goto out;
	}
	add_all_kinds(btf, btf__add_int(btf, "int", 4, BTF_INT_SIGNED));
	err |= write_btf("builders-all-kinds", btf, false);
	err |= write_btf("builders-all-kinds-swapped", btf, true);
	err |= write_btf("fuzz-base", base, false);
	split = btf__new_empty_split(base);
	if (!split) {
		err = -1;
		goto out;
	}
	add_all_kinds(split, 1);
	err |= write_btf("builders-split-on-fuzz-base", split, false);
	err |= write_btf("builders-split-on-fuzz-base-swapped", split, true);
out:
	btf__free(split);
	btf__free(btf);
	btf__free(base);
	return err;
}

static int file_seed(const char *path, size_t max)
{
	struct stat st;
	struct btf *btf;
	const char *name = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	FILE *f;
	char magic[4] = { 0 };
	bool elf;
	int err;

	if (stat(path, &st) || !S_ISREG(st.st_mode)) {
		printf("note: %s absent, skipped\n", path);
		return 0;
	}
	f = fopen(path, "rb");
	elf = f && fread(magic, 1, 4, f) == 4 && !memcmp(magic, "\177ELF", 4);
	if (f)
		fclose(f);
	if (!elf) {
		void *data;

		if ((size_t)st.st_size > max) {
			printf("note: %s is %lld bytes, over %zu, skipped\n", path,
			       (long long)st.st_size, max);
			return 0;
		}
		data = malloc(st.st_size);
		f = fopen(path, "rb");
		err = !data || !f || fread(data, 1, st.st_size, f) != (size_t)st.st_size;
		if (f)
			fclose(f);
		if (!err)
			err = write_file(name, data, st.st_size);
		free(data);
		return err ? -1 : 0;
	}
	/* ELF: its .BTF, as base BTF, if small enough. */
	btf = btf__parse_file(path, ".BTF", NULL, NULL);
	if (!btf) {
		printf("note: %s has no readable .BTF, skipped\n", path);
		return 0;
	}
	{
		void *raw;
		size_t size;

		err = btf__write_raw(btf, false, &raw, &size);
		if (!err && size <= max)
			err = write_file(name, raw, size);
		else if (!err)
			printf("note: .BTF of %s is %zu bytes, over %zu, skipped\n", path, size, max);
		if (!err)
			free(raw);
	}
	btf__free(btf);
	return err ? -1 : 0;
}

int main(int argc, char **argv)
{
	size_t max;
	int i, err;

	if (argc < 3) {
		fprintf(stderr, "usage: %s OUTDIR MAX_BYTES [FILE...]\n", argv[0]);
		return 2;
	}
	outdir = argv[1];
	max = strtoull(argv[2], NULL, 0);
	if (mkdir(outdir, 0755) && errno != EEXIST) {
		fprintf(stderr, "gen_seeds: %s: %s\n", outdir, strerror(errno));
		return 1;
	}
	err = builder_seeds();
	for (i = 3; i < argc; i++)
		err |= file_seed(argv[i], max);
	return err ? 1 : 0;
}
