// SPDX-License-Identifier: GPL-2.0
/*
 * malloc_thp.c - an encode's heap on transparent huge pages, and
 * malloc's thresholds for a large input.
 *
 * Where the kernel gives huge pages only to memory advised so
 * (/sys/kernel/mm/transparent_hugepage/enabled is "madvise", Debian's
 * default), glibc's malloc advises its heaps only when the tunable
 * glibc.malloc.hugetlb=1 is set, and it reads tunables once, at start.
 * An encode touches ~200 MB of fresh memory; in 4 KB pages that is ~25K
 * page faults, which on a virtual machine cost ~10 us each (vmlinux, -j2:
 * 12% of the CPU time, 7% of the wall time; see docs/performance.md).
 * So the encoder runs itself once more with the tunable added, for an
 * input of 64 MB or more.  Nothing else changes: same arguments, same
 * output; the second run prints no parsing notice the first printed.
 */
#include "cli.h"

#include <gnu/libc-version.h>
#include <malloc.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/stat.h>
#include <unistd.h>

#define THP_TUNABLE "glibc.malloc.hugetlb"
/* Set for the second run only (which unsets it), whatever glibc keeps. */
#define RERUN_MARK "BTFENC_THP_RERUN"
/*
 * Smaller inputs touch little memory: the second exec and partly used
 * huge pages would cost more than the faults saved (crc7.ko: peak 20.9
 * -> 23.4 MB).
 */
#define THP_MIN_INPUT ((off_t)64 << 20)

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
 * Not where /proc/self/exe is not this program: under valgrind (its
 * tool) or when run by naming the dynamic loader (the loader: the kernel
 * loaded no interpreter, AT_BASE is 0).  Not for a setuid or file
 * capability run (AT_SECURE), whose glibc drops the tunable again.
 * Sanitizers replace malloc, but running again is harmless.
 */
static bool can_run_again(void)
{
	const char *preload = getenv("LD_PRELOAD");

	if (preload && strstr(preload, "vgpreload"))
		return false;
	return getauxval(AT_BASE) && !getauxval(AT_SECURE);
}

/* The value @list (GLIBC_TUNABLES: name=value:...) gives tunable @name, or NULL. */
static const char *tunable_value(const char *list, const char *name)
{
	const size_t n = strlen(name);
	const char *p = list;

	while (p && *p) {
		if (!strncmp(p, name, n) && p[n] == '=')
			return p + n + 1;
		p = strchr(p, ':');
		if (p)
			p++;
	}
	return NULL;
}

static bool large_input(const char *path)
{
	struct stat st;

	return !stat(path, &st) && st.st_size >= THP_MIN_INPUT;
}

bool cli_malloc_thp(void)
{
	const char *v = tunable_value(getenv("GLIBC_TUNABLES"), THP_TUNABLE);

	return v && v[0] == '1' && (!v[1] || v[1] == ':');
}

bool cli_malloc_thp_rerun(void)
{
	return getenv(RERUN_MARK);
}

void cli_malloc_thp_reexec(char *const argv[], const char *path)
{
	const char *env = getenv("GLIBC_TUNABLES");
	char *old = NULL, *val = NULL;

	/* The second run: the marker goes, whatever glibc did with the tunable. */
	if (getenv(RERUN_MARK)) {
		unsetenv(RERUN_MARK);
		return;
	}
	/* Set in any way already (the user's choice), or a small input. */
	if ((env && strstr(env, THP_TUNABLE)) || getenv("BTFENC_NO_THP") || !can_run_again() ||
	    !glibc_has_tunable() || !thp_when_advised() || !large_input(path))
		return;
	if (env && !(old = strdup(env)))
		return;
	if (asprintf(&val, "%s%s%s=1", env ? env : "", env && *env ? ":" : "", THP_TUNABLE) < 0) {
		val = NULL;
		goto out;
	}
	if (!setenv("GLIBC_TUNABLES", val, 1) && !setenv(RERUN_MARK, "1", 1))
		execv("/proc/self/exe", argv);
	/* Not run again (no /proc, say): on as before, environment as it was. */
	unsetenv(RERUN_MARK);
	if (old)
		setenv("GLIBC_TUNABLES", old, 1);
	else
		unsetenv("GLIBC_TUNABLES");
out:
	free(old);
	free(val);
}

/*
 * glibc's defaults give a worker's freed CU buffers back to the kernel
 * (the heap's top trimmed past 128 KB, or an mmap()ed chunk unmapped),
 * and the next CU faults fresh pages in again; realloc() of a growing
 * array copies into fresh pages.  On the VMs measured, a 4 KB fault
 * costs 10-20 us: vmlinux, -j2, ~22K faults, ~10% of the CPU time.  Kept
 * in the heaps (trimmed past 16 MB only, chunks mmap()ed from 32 MB) and
 * grown 4 MB at a time (whole huge pages): ~14K faults, wall and CPU -4%
 * (docs/performance.md), the same peak.  Small inputs keep the
 * defaults, and a threshold the user set (GLIBC_TUNABLES, or glibc's
 * MALLOC_*_ variables) is left as it is.
 */
enum cli_malloc_tuning cli_malloc_tune(const char *path)
{
	static const struct {
		const char *tunable, *env;
		int param, value;
	} t[] = {
		{ "glibc.malloc.trim_threshold", "MALLOC_TRIM_THRESHOLD_", M_TRIM_THRESHOLD,
		  16 << 20 },
		{ "glibc.malloc.mmap_threshold", "MALLOC_MMAP_THRESHOLD_", M_MMAP_THRESHOLD,
		  32 << 20 },
		{ "glibc.malloc.top_pad", "MALLOC_TOP_PAD_", M_TOP_PAD, 4 << 20 },
	};
	const char *list = getenv("GLIBC_TUNABLES");
	unsigned int i, set = 0, users = 0;

	if (!large_input(path))
		return CLI_MALLOC_DEFAULT;
	/* A threshold the user set is theirs: the others are set all the same. */
	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		if (tunable_value(list, t[i].tunable) || getenv(t[i].env))
			users++;
		else
			set += mallopt(t[i].param, t[i].value) == 1;
	}
	if (users)
		return CLI_MALLOC_USERS;
	return set == sizeof(t) / sizeof(t[0]) ? CLI_MALLOC_LARGE : CLI_MALLOC_DEFAULT;
}
