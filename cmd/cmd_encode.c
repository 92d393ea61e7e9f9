// SPDX-License-Identifier: GPL-2.0
/*
 * cmd_encode.c - pahole's encoding command line, spelled as kbuild spells
 * it, parsed once into struct enc_opts.
 */
#include "cli.h"
#include "../encoder/encoder.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum {
	OPT_BTF_BASE = 256,
	OPT_DETACHED,
	OPT_FEATURES,
	OPT_FEATURES_STRICT,
	OPT_SUPPORTED,
	OPT_VERSION,
	OPT_NUMERIC_VERSION,
	OPT_LANG_EXCLUDE,
	OPT_SKIP_VARS,
	OPT_SKIP_DECL_TAG,
	OPT_SKIP_TYPE_TAG,
	OPT_SKIP_ENUM64,
	OPT_SKIP_INCONSISTENT,
	OPT_ENCODE_FORCE,
	OPT_GEN_FLOATS,
	OPT_GEN_OPTIMIZED,
	OPT_REPRODUCIBLE,
	OPT_VERIFY,
	OPT_NO_PROGRESS,
	OPT_HELP,
};

static const struct option encode_longopts[] = {
	{ "btf_encode", no_argument, NULL, 'J' },
	{ "jobs", optional_argument, NULL, 'j' },
	{ "verbose", no_argument, NULL, 'V' },
	{ "btf_base", required_argument, NULL, OPT_BTF_BASE },
	{ "btf_encode_detached", required_argument, NULL, OPT_DETACHED },
	{ "btf_features", required_argument, NULL, OPT_FEATURES },
	{ "btf_features_strict", required_argument, NULL, OPT_FEATURES_STRICT },
	{ "supported_btf_features", no_argument, NULL, OPT_SUPPORTED },
	{ "version", no_argument, NULL, OPT_VERSION },
	{ "numeric_version", no_argument, NULL, OPT_NUMERIC_VERSION },
	{ "lang_exclude", required_argument, NULL, OPT_LANG_EXCLUDE },
	{ "skip_encoding_btf_vars", no_argument, NULL, OPT_SKIP_VARS },
	{ "skip_encoding_btf_decl_tag", no_argument, NULL, OPT_SKIP_DECL_TAG },
	{ "skip_encoding_btf_type_tag", no_argument, NULL, OPT_SKIP_TYPE_TAG },
	{ "skip_encoding_btf_enum64", no_argument, NULL, OPT_SKIP_ENUM64 },
	{ "skip_encoding_btf_inconsistent_proto", no_argument, NULL, OPT_SKIP_INCONSISTENT },
	{ "btf_encode_force", no_argument, NULL, OPT_ENCODE_FORCE },
	{ "btf_gen_floats", no_argument, NULL, OPT_GEN_FLOATS },
	{ "btf_gen_optimized", no_argument, NULL, OPT_GEN_OPTIMIZED },
	{ "reproducible_build", no_argument, NULL, OPT_REPRODUCIBLE },
	{ "verify", no_argument, NULL, OPT_VERIFY },
	{ "no-progress", no_argument, NULL, OPT_NO_PROGRESS },
	{ "help", no_argument, NULL, OPT_HELP },
	{},
};

struct feature_state {
	uint32_t features;
	bool seen_list;  /* a --btf_features was given */
	bool strict;
};

/*
 * One --btf_features list.  The first list clears what legacy flags set;
 * "default" adds pahole's default set; "+name" means default plus name.
 * Unknown names are ignored unless strict.
 */
static int parse_feature_list(struct feature_state *fs, const char *list)
{
	const char *p = list;

	if (!fs->seen_list) {
		fs->features = 0;
		fs->seen_list = true;
	}
	while (*p) {
		size_t span = strcspn(p, ","), len = span;
		const char *name = p;
		uint32_t bit;

		if (len && *name == '+') {
			fs->features |= ENC_F_DEFAULT;
			name++;
			len--;
		}
		if (len == strlen("default") && !strncmp(name, "default", len)) {
			fs->features |= ENC_F_DEFAULT;
		} else if (len) {
			bit = enc_feature_lookup(name, len);
			if (bit) {
				fs->features |= bit;
			} else if (fs->strict) {
				cli_err("unknown BTF feature '%.*s'; supported:", (int)len, name);
				enc_feature_print(stderr, ENC_F_SUPPORTED);
				return -1;
			} else if (!cli_malloc_thp_rerun()) {
				cli_info("btfenc: ignoring unknown BTF feature '%.*s'", (int)len,
					 name);
			}
		}
		p += span;
		if (*p == ',')
			p++;
	}
	return 0;
}

static unsigned int default_jobs(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	/* pahole: bare -j means CPUs x 1.1. */
	if (n < 1)
		n = 1;
	return (unsigned int)(n * 11 / 10 > n ? n * 11 / 10 : n);
}

static int parse_jobs(const char *arg, unsigned int *jobs)
{
	char *end;
	long n;

	if (!arg) {
		*jobs = default_jobs();
		return 0;
	}
	n = strtol(arg, &end, 10);
	if (*end || n < 0 || n > 1024) {
		cli_err("invalid number of jobs '%s'", arg);
		return -1;
	}
	*jobs = n ? n : default_jobs();
	return 0;
}

static void encode_usage(FILE *f)
{
	fprintf(f,
		"btfenc %s - DWARF to BTF, with inline sites\n"
		"\n"
		"Encode (pahole-compatible):\n"
		"  btfenc -J [-j[N]] [--btf_features=LIST] [--btf_base VMLINUX] FILE\n"
		"  btfenc --btf_encode_detached OUT [...] FILE\n"
		"      -J                       add or replace .BTF in FILE (in place, atomically)\n"
		"      -j[N], --jobs[=N]        N worker threads (bare: CPUs x 1.1)\n"
		"      --btf_features=LIST      comma list; 'default', '+name'; may repeat\n"
		"      --btf_features_strict=LIST  same, unknown names are an error\n"
		"      --btf_base FILE          encode split BTF on FILE's .BTF (modules)\n"
		"      --btf_encode_detached OUT  write raw BTF to OUT (and OUT.extra/.inline)\n"
		"      --lang_exclude=rust      skip Rust compilation units\n"
		"      --verify                 validate intermediate BTF too\n"
		"      -V, --verbose            say what is skipped and why\n"
		"  Features: see --supported_btf_features; 'inline' puts inline sites in\n"
		"  .BTF, 'inline.extra' in a split .BTF.extra section (.BTF.inline\n"
		"  with 'layout', bpf-next's form).\n"
		"\n"
		"Inspect:\n"
		"  btfenc dump    [--base F]... FILE          raw text dump, every kind\n"
		"  btfenc inlines [--base F]... FILE [NAME] [--json]\n"
		"  btfenc stats   FILE                        sites, bytes, coverage\n"
		"\n"
		"Info:\n"
		"  btfenc --version (prints v1.31 for kbuild), --numeric_version,\n"
		"  --supported_btf_features, --help\n"
		"\n"
		"Examples:\n"
		"  btfenc -J -j --btf_features=default,inline.extra vmlinux\n"
		"  btfenc -J --btf_base vmlinux --btf_features=default,inline.extra foo.ko\n"
		"  btfenc --btf_encode_detached prog.btf --btf_features=default,inline prog.o\n",
		BTFENC_VERSION);
}

/* @args: argv as given (getopt_long() reorders argv), for running again. */
static int parse_and_encode(int argc, char **argv, char *const args[])
{
	struct feature_state fs = { .features = ENC_F_LEGACY };
	struct enc_opts o = { .jobs = 1 };
	const char *lang_exclude = getenv("PAHOLE_LANG_EXCLUDE");
	enum cli_malloc_tuning tuning;
	bool encode = false, no_progress = false;
	int opt;

	while ((opt = getopt_long(argc, argv, "Jj::V", encode_longopts, NULL)) != -1) {
		switch (opt) {
		case 'J':
			encode = true;
			break;
		case 'j':
			if (parse_jobs(optarg, &o.jobs))
				return 2;
			break;
		case 'V':
			o.verbose = true;
			cli_verbose = 1;
			break;
		case OPT_BTF_BASE:
			o.base_path = optarg;
			break;
		case OPT_DETACHED:
			o.detached = optarg;
			encode = true;
			break;
		case OPT_FEATURES_STRICT:
			fs.strict = true;
			/* fallthrough */
		case OPT_FEATURES:
			if (parse_feature_list(&fs, optarg))
				return 1;
			break;
		case OPT_SUPPORTED:
			enc_feature_print(stdout, ENC_F_SUPPORTED);
			return 0;
		case OPT_VERSION:
			/* kbuild's scripts/pahole-version.sh parses this: keep it exact. */
			puts("v1.31");
			return 0;
		case OPT_NUMERIC_VERSION:
			puts("131");
			return 0;
		case OPT_LANG_EXCLUDE:
			lang_exclude = optarg;
			break;
		case OPT_SKIP_VARS:
			fs.features &= ~ENC_F_VAR;
			break;
		case OPT_SKIP_DECL_TAG:
			fs.features &= ~ENC_F_DECL_TAG;
			break;
		case OPT_SKIP_TYPE_TAG:
			fs.features &= ~ENC_F_TYPE_TAG;
			break;
		case OPT_SKIP_ENUM64:
			fs.features &= ~ENC_F_ENUM64;
			break;
		case OPT_SKIP_INCONSISTENT:
			fs.features |= ENC_F_CONSISTENT_FUNC;
			break;
		case OPT_ENCODE_FORCE:
			fs.features |= ENC_F_ENCODE_FORCE;
			break;
		case OPT_GEN_FLOATS:
			fs.features |= ENC_F_FLOAT;
			break;
		case OPT_GEN_OPTIMIZED:
			fs.features |= ENC_F_OPTIMIZED_FUNC;
			break;
		case OPT_REPRODUCIBLE:
			fs.features |= ENC_F_REPRODUCIBLE_BUILD;
			break;
		case OPT_VERIFY:
			o.verify = true;
			break;
		case OPT_NO_PROGRESS:
			no_progress = true;
			break;
		case OPT_HELP:
			encode_usage(stdout);
			return 0;
		default:
			fprintf(stderr, "Try 'btfenc --help'.\n");
			return 2;
		}
	}
	if (!encode) {
		encode_usage(stderr);
		return 2;
	}
	if (optind != argc - 1) {
		cli_err(optind >= argc ? "no input file" : "more than one input file");
		return 2;
	}
	if (lang_exclude) {
		if (strcmp(lang_exclude, "rust")) {
			cli_err("--lang_exclude: only 'rust' is supported, got '%s'", lang_exclude);
			return 2;
		}
		o.skip_rust = true;
	}
	/* LLVM_OBJCOPY is accepted from the environment and not needed. */
	o.path = argv[optind];
	o.features = fs.features;
	/* Progress only for a person at a terminal: never in kbuild or a pipe. */
	o.progress = !no_progress && isatty(STDERR_FILENO) && !getenv("MAKEFLAGS");
	/* Returns only where the heap is as it will be (malloc_thp.c). */
	cli_malloc_thp_reexec(args, o.path);
	tuning = cli_malloc_tune(o.path);
	if (o.verbose) {
		fprintf(stderr, "btfenc %s (pahole-compatible v1.31)\n", BTFENC_VERSION);
		fprintf(stderr, "btfenc: jobs=%u features=", o.jobs);
		enc_feature_print(stderr, o.features);
		fprintf(stderr, "btfenc: malloc on huge pages: %s, thresholds: %s\n",
			cli_malloc_thp() ? "yes" : "no",
			tuning == CLI_MALLOC_LARGE ? "large input" :
			tuning == CLI_MALLOC_USERS ? "large input, the user's kept" :
						     "default");
	}
	return enc_run(&o, &cli_log) ? 1 : 0;
}

int cmd_encode(int argc, char **argv)
{
	char **args = malloc((argc + 1) * sizeof(*args));
	int ret;

	if (!args) {
		cli_err("out of memory");
		return 1;
	}
	memcpy(args, argv, (argc + 1) * sizeof(*args));
	ret = parse_and_encode(argc, argv, args);
	free(args);
	return ret;
}
