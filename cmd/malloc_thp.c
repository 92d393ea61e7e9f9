// SPDX-License-Identifier: GPL-2.0
/*
 * malloc_thp.c - an encode's heap on transparent huge pages.
 *
 * Where the kernel gives huge pages only to memory advised so
 * (/sys/kernel/mm/transparent_hugepage/enabled is "madvise", Debian's
 * default), glibc's malloc advises its heaps only when the tunable
 * glibc.malloc.hugetlb=1 is set, and it reads tunables once, at start.
 * An encode touches ~200 MB of fresh memory; in 4 KB pages that is ~25K
 * page faults, which on a virtual machine cost ~10 us each (vmlinux, -j2:
 * 12% of the CPU time, 7% of the wall time; see docs/performance.md).
 * So the encoder runs itself once more with the tunable added.  Nothing
 * else changes: same arguments, same output.
 */
#include "cli.h"

#include <gnu/libc-version.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define THP_TUNABLE "glibc.malloc.hugetlb"

/* Whether huge pages go only to advised memory (not "always", not "never"). */
static bool thp_when_advised(void)
{
	FILE *f = fopen("/sys/kernel/mm/transparent_hugepage/enabled", "re");
	char line[128];
	bool advised;

	if (!f)
		return false;
	advised = fgets(line, sizeof(line), f) && strstr(line, "[madvise]");
	fclose(f);
	return advised;
}

/* The tunable is glibc 2.35's. */
static bool glibc_has_tunable(void)
{
	int major = 0, minor = 0;

	if (sscanf(gnu_get_libc_version(), "%d.%d", &major, &minor) != 2)
		return false;
	return major > 2 || (major == 2 && minor >= 35);
}

/*
 * Under valgrind /proc/self/exe is valgrind's tool: running it would
 * leave valgrind.  Sanitizers replace malloc, but running again is harmless.
 */
static bool under_valgrind(void)
{
	const char *preload = getenv("LD_PRELOAD");

	return preload && strstr(preload, "vgpreload");
}

bool cli_malloc_thp(void)
{
	const char *t = getenv("GLIBC_TUNABLES");

	return t && strstr(t, THP_TUNABLE "=1");
}

void cli_malloc_thp_reexec(char *const argv[])
{
	const char *env = getenv("GLIBC_TUNABLES");
	char *old = NULL, *val = NULL;

	/* Set in any way already (this is the second run, or the user's choice). */
	if ((env && strstr(env, THP_TUNABLE)) || getenv("BTFENC_NO_THP") || under_valgrind() ||
	    !glibc_has_tunable() || !thp_when_advised())
		return;
	if ((env && !(old = strdup(env))) ||
	    asprintf(&val, "%s%s%s=1", env ? env : "", env && *env ? ":" : "", THP_TUNABLE) < 0)
		goto out;
	if (!setenv("GLIBC_TUNABLES", val, 1))
		execv("/proc/self/exe", argv);
	/* Not run again (no /proc, say): on as before, environment as it was. */
	if (old)
		setenv("GLIBC_TUNABLES", old, 1);
	else
		unsetenv("GLIBC_TUNABLES");
out:
	free(old);
	free(val);
}
