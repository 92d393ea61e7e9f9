// SPDX-License-Identifier: GPL-2.0
/* cmd_dump.c - `btfenc dump [--base F]... [--section S] [--selftest] FILE` */
#include "cli.h"

#include <errno.h>
#include <stdbool.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void dump_usage(FILE *f)
{
	fprintf(f, "usage: btfenc dump [--base FILE]... [--section NAME] [--selftest] [--check] FILE\n"
		   "  Prints every type FILE's BTF owns, one block per type, as\n"
		   "  `bpftool btf dump file` does (--selftest: the BPF selftests' dialect).\n"
		   "  FILE is raw BTF or an ELF object (section .BTF unless --section).\n"
		   "  --base may repeat, oldest parent first (vmlinux, then module).\n"
		   "  --check: validate FILE's types (the kernel's rules) instead;\n"
		   "  exit 1 with one line per problem if they are invalid.\n");
}

int cmd_dump(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "base", required_argument, NULL, 'B' },
		{ "section", required_argument, NULL, 's' },
		{ "selftest", no_argument, NULL, 't' },
		{ "check", no_argument, NULL, 'c' },
		{ "help", no_argument, NULL, 'h' },
		{},
	};
	enum btf_dump_style style = BTF_DUMP_BPFTOOL;
	const char *sec = NULL;
	char **bases = NULL;
	int nr_bases = 0, opt, err, ret = 1;
	bool check = false;
	struct btf **chain;
	struct btf *btf;
	uint32_t id;

	bases = calloc(argc, sizeof(*bases));
	if (!bases)
		return 1;
	optind = 1;
	while ((opt = getopt_long(argc, argv, "B:s:tch", longopts, NULL)) != -1) {
		switch (opt) {
		case 'B':
			bases[nr_bases++] = optarg;
			break;
		case 's':
			sec = optarg;
			break;
		case 't':
			style = BTF_DUMP_SELFTEST;
			break;
		case 'c':
			check = true;
			break;
		case 'h':
			dump_usage(stdout);
			ret = 0;
			goto out;
		default:
			dump_usage(stderr);
			goto out;
		}
	}
	if (optind != argc - 1) {
		dump_usage(stderr);
		goto out;
	}
	err = cli_load_chain(bases, nr_bases, argv[optind], sec, &chain);
	if (err)
		goto out;
	btf = chain[nr_bases];
	if (check) {
		ret = btf__validate(btf, &cli_log) ? 1 : 0;
		cli_free_chain(chain, nr_bases + 1);
		goto out;
	}
	for (id = btf__start_id(btf); id < btf__type_cnt(btf); id++) {
		btf__dump_type_style(btf, id, stdout, style);
		putchar('\n');
	}
	cli_free_chain(chain, nr_bases + 1);
	/* A full disk or closed pipe shows only here, stdout being buffered. */
	if (fflush(stdout) || ferror(stdout)) {
		cli_err("%s: writing the dump: %s", argv[optind], strerror(errno));
		goto out;
	}
	ret = 0;
out:
	free(bases);
	return ret;
}
