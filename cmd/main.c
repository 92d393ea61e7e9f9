// SPDX-License-Identifier: GPL-2.0
/*
 * main.c - btfenc entry point: subcommands (dump, inlines, stats) or, for
 * anything else, pahole's encoding command line.
 */
#include "cli.h"

#include <stdio.h>
#include <string.h>

struct subcommand {
	const char *name;
	int (*fn)(int argc, char **argv);
};

static const struct subcommand subcommands[] = {
	{ "dump", cmd_dump },
	{ "inlines", cmd_inlines },
	{ "stats", cmd_stats },
};

int main(int argc, char **argv)
{
	size_t i;

	if (argc > 1) {
		for (i = 0; i < sizeof(subcommands) / sizeof(subcommands[0]); i++)
			if (!strcmp(argv[1], subcommands[i].name))
				return subcommands[i].fn(argc - 1, argv + 1);
	}
	return cmd_encode(argc, argv);
}
