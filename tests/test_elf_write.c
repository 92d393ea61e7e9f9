// SPDX-License-Identifier: GPL-2.0
/*
 * test_elf_write - command-line driver for encoder/elf_write.c, used by
 * tests/elf_write_checks.sh:
 *
 *   test_elf_write add FILE NAME=DATAFILE [NAME=DATAFILE...]
 *   test_elf_write raw OUT DATAFILE
 *
 * "add" puts the bytes of each DATAFILE into section NAME of the ELF FILE
 * in one enc_elf_write_sections() call; "raw" writes DATAFILE's bytes to
 * OUT with enc_write_file_atomic().  Log lines go to stderr; on failure
 * the last line is "rc=-N (strerror)" and the exit status is 1.
 */
#include "../encoder/elf_write.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_SECS 8

static void log_line(void *ctx, const char *msg)
{
	int *lines = ctx;

	(*lines)++;
	fprintf(stderr, "%s\n", msg);
}

static void *slurp(const char *path, size_t *size)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	long len;

	if (!f)
		return NULL;
	if (fseek(f, 0, SEEK_END) || (len = ftell(f)) < 0 || fseek(f, 0, SEEK_SET))
		goto out;
	buf = malloc(len ? len : 1);
	if (buf && fread(buf, 1, len, f) != (size_t)len) {
		free(buf);
		buf = NULL;
	}
	*size = len;
out:
	fclose(f);
	return buf;
}

static int finish(int rc, int lines)
{
	if (!rc)
		return lines ? 2 : 0; /* success must be silent */
	fprintf(stderr, "rc=%d (%s)\n", rc, strerror(-rc));
	/* The contract: exactly one line per failure. */
	return lines == 1 ? 1 : 2;
}

static int cmd_add(int argc, char **argv, const struct btf_log *log, int *lines)
{
	struct enc_section secs[MAX_SECS];
	int i, rc, n = argc - 3;
	char *eq;

	if (n < 1 || n > MAX_SECS)
		return 2;
	for (i = 0; i < n; i++) {
		eq = strchr(argv[i + 3], '=');
		if (!eq)
			return 2;
		*eq = '\0';
		secs[i].name = argv[i + 3];
		secs[i].data = slurp(eq + 1, &secs[i].size);
		if (!secs[i].data) {
			perror(eq + 1);
			while (i--)
				free((void *)secs[i].data);
			return 2;
		}
	}
	rc = enc_elf_write_sections(argv[2], secs, n, log);
	for (i = 0; i < n; i++)
		free((void *)secs[i].data);
	return finish(rc, *lines);
}

int main(int argc, char **argv)
{
	int lines = 0;
	struct btf_log log = { .fn = log_line, .ctx = &lines };
	size_t size;
	void *data;
	int rc;

	if (argc >= 4 && !strcmp(argv[1], "add"))
		return cmd_add(argc, argv, &log, &lines);
	if (argc == 4 && !strcmp(argv[1], "raw")) {
		data = slurp(argv[3], &size);
		if (!data) {
			perror(argv[3]);
			return 2;
		}
		rc = enc_write_file_atomic(argv[2], data, size, &log);
		free(data);
		return finish(rc, lines);
	}
	fprintf(stderr, "usage: %s add FILE NAME=DATAFILE... | raw OUT DATAFILE\n", argv[0]);
	return 2;
}
