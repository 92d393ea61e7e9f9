// SPDX-License-Identifier: GPL-2.0
/*
 * cmd_stats.c - `btfenc stats [--base F]... FILE`: how many inline sites
 * the BTF of FILE describes, what they cost in bytes, how many have all,
 * some or none of their parameters; and, when FILE has DWARF, why the
 * missing parameters are missing.
 */
#include "cli.h"
#include "sites.h"
#include "../dwarf/dw.h"
#include "../encoder/enc_internal.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct kind_bytes {
	uint64_t count;
	uint64_t bytes;
};

struct site_stats {
	uint64_t sites, all, some, none, no_params, params, located;
	uint64_t names;
	const char *last_name;
};

static int count_site(const struct site *s, void *arg)
{
	struct site_stats *st = arg;
	uint32_t i, located = 0;

	st->sites++;
	if (s->name && (!st->last_name || strcmp(s->name, st->last_name)))
		st->names++; /* entries are sorted by name */
	st->last_name = s->name;
	for (i = 0; i < s->nr_params; i++)
		located += s->params[i].kind != SP_NONE;
	st->params += s->nr_params;
	st->located += located;
	if (!s->nr_params)
		st->no_params++;
	else if (located == s->nr_params)
		st->all++;
	else if (located)
		st->some++;
	else
		st->none++;
	return 0;
}

static void count_kinds(struct btf **chain, int n, struct kind_bytes *k)
{
	int i;

	for (i = 0; i < n; i++) {
		uint32_t id;

		for (id = btf__start_id(chain[i]); id < btf__type_cnt(chain[i]); id++) {
			const struct btf_type *t = btf__type_by_id(chain[i], id);

			k[btf_kind(t)].count++;
			k[btf_kind(t)].bytes += btf__type_size(chain[i], t);
		}
	}
}

static double pct(uint64_t a, uint64_t b)
{
	return b ? 100.0 * a / b : 0.0;
}

static const char *const miss_names[ENC_MISS_NR] = {
	[DW_MISS_NONE] = "",
	[DW_MISS_NO_PARAM_DIE] = "no formal_parameter DIE",
	[DW_MISS_NO_LOCATION] = "no location (optimized out)",
	[DW_MISS_NO_ENTRY] = "no location-list entry covers the site",
	[DW_MISS_EMPTY_EXPR] = "empty expression",
	[DW_MISS_ENTRY_VALUE] = "DW_OP_entry_value",
	[DW_MISS_PARAMETER_REF] = "DW_OP_GNU_parameter_ref",
	[DW_MISS_IMPLICIT_POINTER] = "DW_OP_implicit_pointer",
	[DW_MISS_COMPUTED] = "computed expression",
	[DW_MISS_PIECES] = "pieces not all in registers",
	[DW_MISS_TOO_BIG] = "value larger than 8 bytes",
	[DW_MISS_BAD_SIZE] = "size not 1, 2, 4 or 8",
	[DW_MISS_FBREG] = "frame base not resolvable",
	[DW_MISS_BAD_DWARF] = "malformed DWARF",
	[ENC_MISS_REGISTER] = "register the consumer cannot read (xmm)",
	[ENC_MISS_RELOC_CONST] = "constant the consumer would relocate wrongly",
};

/* Re-encodes FILE's DWARF (nothing written) to learn why parameters are missing. */
static void print_reasons(const char *path, const char *base)
{
	struct enc_site_counts c = {};
	struct enc_opts o = {
		.path = path,
		.base_path = base,
		.features = ENC_F_DEFAULT | ENC_F_INLINE_EXTRA,
		.jobs = sysconf(_SC_NPROCESSORS_ONLN) > 0 ? sysconf(_SC_NPROCESSORS_ONLN) : 1,
		.dry_run = true,
		.counts = &c,
	};
	unsigned int i;

	if (enc_run(&o, NULL))
		return; /* no DWARF: the BTF numbers above are all there is */
	printf("DWARF census: %llu sites, %llu outside .text (left out)\n",
	       (unsigned long long)c.sites, (unsigned long long)c.outside_text);
	printf("  parameters located: %llu of %llu (%.1f%%)\n",
	       (unsigned long long)c.params_located, (unsigned long long)c.params,
	       pct(c.params_located, c.params));
	printf("  reg+offset or frame base (merged layout only): %llu\n",
	       (unsigned long long)c.layout_only);
	printf("  sites DWARF locates every parameter of (the ceiling): %llu of %llu (%.1f%%)\n",
	       (unsigned long long)c.dwarf_complete,
	       (unsigned long long)(c.sites - c.outside_text),
	       pct(c.dwarf_complete, c.sites - c.outside_text));
	for (i = 1; i < ENC_MISS_NR; i++)
		if (c.miss[i])
			printf("  missing, %s: %llu\n", miss_names[i], (unsigned long long)c.miss[i]);
}

static void print_stats(struct btf **chain, int n, bool split, const struct site_stats *st)
{
	struct kind_bytes k[NR_BTF_KINDS] = {};
	uint64_t loc_bytes;

	count_kinds(chain, n, k);
	loc_bytes = k[BTF_KIND_LOC_PARAM].bytes + k[BTF_KIND_LOC_PROTO].bytes +
		    k[BTF_KIND_LOCSEC].bytes;
	printf("sites: %llu\n", (unsigned long long)st->sites);
	printf("inlined functions: %llu\n", (unsigned long long)st->names);
	printf("LOC_PARAM: %llu (%llu bytes)\n", (unsigned long long)k[BTF_KIND_LOC_PARAM].count,
	       (unsigned long long)k[BTF_KIND_LOC_PARAM].bytes);
	printf("LOC_PROTO: %llu (%llu bytes)\n", (unsigned long long)k[BTF_KIND_LOC_PROTO].count,
	       (unsigned long long)k[BTF_KIND_LOC_PROTO].bytes);
	printf("LOCSEC: %llu (%llu bytes)\n", (unsigned long long)k[BTF_KIND_LOCSEC].count,
	       (unsigned long long)k[BTF_KIND_LOCSEC].bytes);
	/* A split part (.BTF.extra, or a raw file on --base) holds only the
	 * prototypes .BTF did not already have. */
	if (n > 1 || split)
		printf("FUNC_PROTO in the last split part: %llu (%llu bytes)\n",
		       (unsigned long long)k[BTF_KIND_FUNC_PROTO].count,
		       (unsigned long long)k[BTF_KIND_FUNC_PROTO].bytes);
	printf("location bytes per site: %.1f\n",
	       st->sites ? (double)loc_bytes / st->sites : 0.0);
	printf("sites with every parameter: %llu (%.1f%%)\n", (unsigned long long)st->all,
	       pct(st->all, st->sites));
	printf("sites with no parameters: %llu (%.1f%%)\n", (unsigned long long)st->no_params,
	       pct(st->no_params, st->sites));
	/* The RFC's cover letter counts these two together ("0 or more parameters"). */
	printf("sites with every parameter, none-parameter sites included: %llu (%.1f%%)\n",
	       (unsigned long long)(st->all + st->no_params), pct(st->all + st->no_params, st->sites));
	printf("sites with some parameters: %llu (%.1f%%)\n", (unsigned long long)st->some,
	       pct(st->some, st->sites));
	printf("sites with none of their parameters: %llu (%.1f%%)\n",
	       (unsigned long long)st->none, pct(st->none, st->sites));
	printf("parameters located: %llu of %llu (%.1f%%)\n", (unsigned long long)st->located,
	       (unsigned long long)st->params, pct(st->located, st->params));
}

int cmd_stats(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "base", required_argument, NULL, 'B' },
		{ "help", no_argument, NULL, 'h' },
		{},
	};
	struct site_stats st = {};
	char **bases = calloc(argc, sizeof(*bases));
	int nr_bases = 0, n, opt, ret = 1;
	struct btf **chain;

	if (!bases)
		return 1;
	optind = 1;
	while ((opt = getopt_long(argc, argv, "B:h", longopts, NULL)) != -1) {
		switch (opt) {
		case 'B':
			bases[nr_bases++] = optarg;
			break;
		case 'h':
			printf("usage: btfenc stats [--base FILE]... FILE\n");
			ret = 0;
			goto out;
		default:
			goto out;
		}
	}
	if (optind != argc - 1) {
		cli_err("usage: btfenc stats [--base FILE]... FILE");
		goto out;
	}
	if (cli_load_with_extra(bases, nr_bases, argv[optind], &chain, &n))
		goto out;
	sites_for_each(chain + nr_bases, n - nr_bases, count_site, &st);
	print_stats(chain + nr_bases, n - nr_bases, nr_bases > 0, &st);
	cli_free_chain(chain, n);
	print_reasons(argv[optind], nr_bases ? bases[nr_bases - 1] : NULL);
	ret = fflush(stdout) ? 1 : 0;
out:
	free(bases);
	return ret;
}
