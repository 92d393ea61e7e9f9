// SPDX-License-Identifier: GPL-2.0
/*
 * test_sites - prints every inline site dw_cu_decode() finds in FILE, one
 * line per site and per parameter, for tests/check_sites.py to compare
 * with readelf's own reading of the DWARF; with --stats only the totals.
 *
 *   site 0x<die> 0x<addr> <name> <nr_params>
 *   param <name> <kind> <reason> <size> <reg> <reg2> <offset> 0x<value>
 */
#include "dw_internal.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

static const char *const kind_names[] = {
	[DW_LOC_NONE] = "none", [DW_LOC_REG] = "reg", [DW_LOC_REG_PAIR] = "reg_pair",
	[DW_LOC_DEREF] = "deref", [DW_LOC_REG_OFF] = "reg_off", [DW_LOC_FBREG] = "fbreg",
	[DW_LOC_CONST] = "const", [DW_LOC_ADDR] = "addr",
};

static const char *const miss_names[] = {
	[DW_MISS_NONE] = "-", [DW_MISS_NO_PARAM_DIE] = "no_param_die",
	[DW_MISS_NO_LOCATION] = "no_location", [DW_MISS_NO_ENTRY] = "no_entry",
	[DW_MISS_EMPTY_EXPR] = "empty_expr", [DW_MISS_ENTRY_VALUE] = "entry_value",
	[DW_MISS_PARAMETER_REF] = "parameter_ref", [DW_MISS_IMPLICIT_POINTER] = "implicit_pointer",
	[DW_MISS_COMPUTED] = "computed", [DW_MISS_PIECES] = "pieces", [DW_MISS_TOO_BIG] = "too_big",
	[DW_MISS_BAD_SIZE] = "bad_size", [DW_MISS_FBREG] = "fbreg", [DW_MISS_BAD_DWARF] = "bad_dwarf",
};

struct totals {
	unsigned long sites, params, located, all, none, noparams, complete;
	unsigned long kinds[DW_LOC_ADDR + 1], misses[DW_MISS_NR];
};

static void log_line(void *ctx, const char *msg)
{
	fprintf(stderr, "log: %s\n", msg);
}

static const char *str(const struct dw_cu *cu, uint32_t off)
{
	const char *s = btf__str_by_offset(cu->names, off);

	return s && *s ? s : "(anon)";
}

static void print_site(const struct dw_cu *cu, const struct dw_site *s, bool quiet,
		       struct totals *t)
{
	unsigned int i, located = 0, lost = 0;

	if (!quiet)
		printf("site 0x%llx 0x%llx %s %u\n", (unsigned long long)s->die_off,
		       (unsigned long long)s->addr, str(cu, s->name_off), s->nr_params);
	for (i = 0; i < s->nr_params; i++) {
		const struct dw_param *p = &cu->params[s->first_param + i];
		const struct dw_loc *l = &cu->locs[s->first_loc + i];

		t->kinds[l->kind]++;
		t->misses[l->reason]++;
		located += l->kind != DW_LOC_NONE;
		lost += dw_loc_lost(l);
		if (quiet)
			continue;
		printf("param %s %s %s %d %u %u %d 0x%llx\n", p->name_off ? str(cu, p->name_off) : "(anon)",
		       kind_names[l->kind], miss_names[l->reason], l->size, l->reg, l->reg2,
		       l->offset, (unsigned long long)l->value);
	}
	t->sites++;
	t->params += s->nr_params;
	t->located += located;
	t->complete += !lost;
	if (!s->nr_params)
		t->noparams++;
	else if (located == s->nr_params)
		t->all++;
	else if (!located)
		t->none++;
}

static void print_totals(const struct totals *t)
{
	unsigned int i;

	printf("sites %lu params %lu located %lu (%.1f%%)\n", t->sites, t->params, t->located,
	       t->params ? 100.0 * t->located / t->params : 0.0);
	printf("sites: all located %lu, none located %lu, no params %lu\n", t->all, t->none,
	       t->noparams);
	printf("sites DWARF locates every parameter of: %lu\n", t->complete);
	for (i = 0; i <= DW_LOC_ADDR; i++)
		printf("kind %s %lu\n", kind_names[i], t->kinds[i]);
	for (i = 1; i < DW_MISS_NR; i++)
		printf("miss %s %lu\n", miss_names[i], t->misses[i]);
}

int main(int argc, char **argv)
{
	struct btf_log log = { .fn = log_line };
	struct dw_opts opts = { .collect_inlines = true, .encode_float = true, .encode_enum64 = true };
	struct totals t = {};
	bool quiet = argc > 2 && !strcmp(argv[2], "--stats");
	struct dw_file *f;
	uint32_t i, j, n;
	int err = 0;

	if (argc < 2) {
		fprintf(stderr, "usage: test_sites FILE [--stats]\n");
		return 2;
	}
	f = dw_file_open(argv[1], &log);
	if (!f)
		return errno == ENOENT ? 77 : 1;
	n = dw_file_cu_count(f);
	for (i = 0; i < n && !err; i++) {
		struct dw_cu cu = {};

		err = dw_cu_decode(f, i, &opts, &cu, &log);
		for (j = 0; j < cu.nr_sites && !err; j++)
			print_site(&cu, &cu.sites[j], quiet, &t);
		dw_cu_release(&cu);
	}
	dw_file_close(f);
	if (err) {
		fprintf(stderr, "decode failed: %s\n", strerror(-err));
		return 1;
	}
	print_totals(&t);
	return 0;
}
