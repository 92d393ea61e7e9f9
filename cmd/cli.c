// SPDX-License-Identifier: GPL-2.0
/* cli.c - the error sink and BTF chain loading shared by subcommands. */
#include "cli.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int cli_verbose;

void cli_err(const char *fmt, ...)
{
	va_list ap;

	fputs("btfenc: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

void cli_info(const char *fmt, ...)
{
	va_list ap;

	if (!cli_verbose)
		return;
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

/*
 * Library lines can quote names read from a damaged file: show control
 * and non-ASCII bytes as \xNN so that one message stays one line.
 */
static void log_to_err(void *ctx, const char *msg)
{
	const unsigned char *p;
	char line[4096];
	size_t n = 0;

	for (p = (const unsigned char *)msg; *p && n < sizeof(line) - 5; p++) {
		if (*p < 0x20 || *p > 0x7e)
			n += snprintf(line + n, sizeof(line) - n, "\\x%02x", *p);
		else
			line[n++] = *p;
	}
	line[n] = 0;
	cli_err("%s", line);
}

const struct btf_log cli_log = { log_to_err, NULL };

void cli_free_chain(struct btf **chain, int n)
{
	/* Children first: each points at its parent. */
	while (n-- > 0)
		btf__free(chain[n]);
	free(chain);
}

/* The sections btfenc writes as split BTF on the file's own .BTF. */
static bool is_split_section(const char *sec)
{
	return sec && (!strcmp(sec, btf_loc_split_sec(BTF_LAYOUT_SEED)) ||
		       !strcmp(sec, btf_loc_split_sec(BTF_LAYOUT_MERGED)));
}

int cli_load_chain(char **bases, int nr_bases, const char *path, const char *sec,
		   struct btf ***chain)
{
	struct btf **c = calloc(nr_bases + 1, sizeof(*c));
	struct btf *parent = NULL;
	int i;

	if (!c)
		return -ENOMEM;
	for (i = 0; i <= nr_bases; i++) {
		const char *p = i < nr_bases ? bases[i] : path;

		/* Without its base a split section only fails on its strings: say why. */
		if (i == nr_bases && !parent && is_split_section(sec)) {
			c[i] = btf__parse_file(p, sec, NULL, NULL);
			if (!c[i] && errno == ENOENT)
				c[i] = btf__parse_file(p, sec, NULL, &cli_log); /* says it is missing */
			else if (!c[i])
				cli_err("%s: %s is split BTF: give its base with --base (%s for its .BTF)",
					p, sec, p);
		} else {
			c[i] = btf__parse_file(p, i < nr_bases ? NULL : sec, parent, &cli_log);
		}
		if (!c[i]) {
			int err = -errno;

			cli_free_chain(c, i);
			return err;
		}
		parent = c[i];
	}
	*chain = c;
	return 0;
}
