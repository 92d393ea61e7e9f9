// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_cli - libFuzzer target for btfenc's command lines: the encoder's
 * pahole-compatible options (cmd_encode) and the dump, inlines and stats
 * subcommands, dispatched as main() does.
 *
 * Input: NUL-separated arguments (argv[0] is supplied), at most MAX_ARGS.
 * Any '/' becomes '_' and each run happens in an empty private directory,
 * so the only paths a command line can name are "." and ".." and files
 * that do not exist: the parsers run to their end, nothing is encoded,
 * nothing outside the directory is read or written.
 */
#include "cli.h"

#include <fcntl.h>
#include <getopt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAX_ARGS 64

static int home_fd = -1;
static char sandbox[] = "/tmp/fuzz_cli.XXXXXX";

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	home_fd = open(".", O_RDONLY | O_DIRECTORY);
	if (home_fd < 0 || !mkdtemp(sandbox))
		abort();
	/* getenv() is part of the parse; keep it the same for every input. */
	unsetenv("PAHOLE_LANG_EXCLUDE");
	return 0;
}

static int dispatch(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "dump"))
		return cmd_dump(argc - 1, argv + 1);
	if (argc > 1 && !strcmp(argv[1], "inlines"))
		return cmd_inlines(argc - 1, argv + 1);
	if (argc > 1 && !strcmp(argv[1], "stats"))
		return cmd_stats(argc - 1, argv + 1);
	return cmd_encode(argc, argv);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len)
{
	char *argv[MAX_ARGS + 2];
	char *buf = malloc(len + 1);
	int argc = 1, ret;
	size_t i, start = 0;

	if (!buf)
		return 0;
	memcpy(buf, data, len);
	buf[len] = 0;
	argv[0] = "btfenc";
	for (i = 0; i <= len && argc <= MAX_ARGS; i++) {
		if (buf[i] == '/')
			buf[i] = '_';
		if (buf[i])
			continue;
		argv[argc++] = buf + start;
		start = i + 1;
	}
	argv[argc] = NULL;

	if (chdir(sandbox))
		abort();
	/*
	 * getopt keeps a pointer into the last argv (a cluster like "-JV"
	 * cut short by an error), and the subcommands restart it with
	 * optind = 1, which keeps that pointer: in btfenc one parse per
	 * process, here one per input.  A parse of nothing with optind = 0
	 * drops it, as a fresh process would have it.
	 */
	{
		char *none[] = { "btfenc", NULL };

		optind = 0;
		getopt(1, none, "");
	}
	optind = 0;
	opterr = 0;
	cli_verbose = 0;
	ret = dispatch(argc, argv);
	if (fchdir(home_fd))
		abort();
	(void)ret;
	free(buf);
	return 0;
}
