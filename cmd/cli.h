/* SPDX-License-Identifier: GPL-2.0 */
/* cli.h - what the files of cmd/ share: the one error sink and subcommands. */
#ifndef BTFENC_CLI_H
#define BTFENC_CLI_H

#include "../btf/btf.h"

/* Prints "btfenc: <message>" on stderr: the only way cmd/ reports errors. */
void cli_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* A btf_log that sends each line to cli_err(). */
extern const struct btf_log cli_log;
/* Set by -V/--verbose: cli_info() prints only then. */
extern int cli_verbose;
void cli_info(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/*
 * Loads a chain of BTF: each of @bases[0..nr_bases) on top of the one
 * before (oldest parent first), then @path (section @sec, NULL = .BTF) on
 * top of the last.  On success *@chain holds nr_bases + 1 objects, the
 * last being @path's; free with cli_free_chain().
 */
int cli_load_chain(char **bases, int nr_bases, const char *path, const char *sec,
		   struct btf ***chain);
void cli_free_chain(struct btf **chain, int n);
/* cli_load_chain(), plus FILE's .BTF.extra on top when it has one; *@n objects. */
int cli_load_with_extra(char **bases, int nr_bases, const char *path, struct btf ***chain,
			int *n);

/*
 * Runs the encoder again (execv, so no return on success) with glibc's
 * malloc on transparent huge pages, where the kernel gives them only to
 * advised memory and input @path is large (malloc_thp.c).  Returns where
 * that is not needed, not possible, under valgrind, in the second run,
 * or when BTFENC_NO_THP is set.
 */
void cli_malloc_thp_reexec(char *const argv[], const char *path);
/* Whether this is that second run (its parse printed nothing new). */
bool cli_malloc_thp_rerun(void);
/* Whether this run's malloc asked for huge pages (for -V). */
bool cli_malloc_thp(void);
/* What cli_malloc_tune() did: */
enum cli_malloc_tuning {
	CLI_MALLOC_DEFAULT, /* nothing: a small input (or glibc refused) */
	CLI_MALLOC_LARGE,   /* the thresholds for a large input */
	CLI_MALLOC_USERS,   /* those, but the user set some of them */
};

/* Sets malloc's thresholds for a large input @path, except those the user set (malloc_thp.c). */
enum cli_malloc_tuning cli_malloc_tune(const char *path);

int cmd_dump(int argc, char **argv);
int cmd_inlines(int argc, char **argv);
int cmd_stats(int argc, char **argv);
int cmd_encode(int argc, char **argv);

#endif /* BTFENC_CLI_H */
