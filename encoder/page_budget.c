// SPDX-License-Identifier: GPL-2.0
/*
 * page_budget.c - when the decode's workers drop the pages of the file.
 *
 * The workers read the file through a mapping (one they share, or each
 * its own where the image cannot be shared: dw_file_open_shared()), and
 * every page touched stays resident (and counted in the run's RSS)
 * until dropped.
 * Dropping is not free: the madvise() interrupts the other CPUs to flush
 * their TLBs, and the pages the next CUs share with the last ones
 * (abbreviations, line tables, the 2 MB folios around them) fault in
 * again.  On vmlinux (-j2), never dropping was 15% faster than dropping
 * every few CUs, but took the peak from 205 to 374 MB.
 *
 * The run's peak comes at the end of the decode, when the merged types
 * are all in memory.  Until then, the file's pages may take what the
 * merged types have yet to grow by: the anonymous resident size is read
 * from /proc/self/statm, its growth per unit of progress since an early
 * reading projects what is still to come, and a worker drops its pages
 * only when the file's resident pages exceed that plus what a drop
 * cannot give back (.debug_str, the program's own mappings).
 *
 * Without /proc/self/statm, a round every FALLBACK_EVERY CUs; without
 * /proc at all nothing is dropped (dw_file_drop_pages() needs
 * /proc/self/maps to know the mapping is read-only).
 */
#include "page_budget.h"

#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

/* The growth is measured from the first reading at least this far in... */
#define PROJECT_FROM 0.05
/* ...and projected once this much more is merged: before, it is noise. */
#define PROJECT_SPAN 0.02
/* Until then, what the file's pages may take above the floor. */
#define EARLY_FILE ((int64_t)64 << 20)
/* Room above the projection: fewer drops at the end of the decode. */
#define MARGIN ((int64_t)4 << 20)
/* Without /proc/self/statm: one round of drops every this many CUs. */
#define FALLBACK_EVERY 32
/*
 * At least this many CUs between rounds: at the end, where little more
 * growth is to come, the pages a round keeps (.debug_str) and those the
 * next CU faults in again would start a round after every CU.
 */
#define MIN_GAP 16

/* Anonymous and file-backed resident bytes, from /proc/self/statm. */
static bool read_statm(const struct page_budget *b, int64_t *anon, int64_t *file)
{
	long long size, resident, shared;
	int64_t page = sysconf(_SC_PAGESIZE);
	char buf[128];
	ssize_t n;

	if (b->statm < 0)
		return false;
	n = pread(b->statm, buf, sizeof(buf) - 1, 0);
	if (n <= 0)
		return false;
	buf[n] = '\0';
	if (sscanf(buf, "%lld %lld %lld", &size, &resident, &shared) != 3 || shared > resident)
		return false;
	*anon = (resident - shared) * page;
	*file = shared * page;
	return true;
}

void page_budget_init(struct page_budget *b, bool one_mapping)
{
	int64_t anon;

	pthread_mutex_init(&b->lock, NULL);
	b->checks = 0;
	b->gen = 0;
	b->last_round = 0;
	b->floor_gen = 0;
	b->prog0 = 0;
	b->anon0 = 0;
	b->floor = 0;
	b->one_mapping = one_mapping;
	b->statm = open("/proc/self/statm", O_RDONLY | O_CLOEXEC);
	if (b->statm >= 0 && !read_statm(b, &anon, &b->floor)) {
		close(b->statm);
		b->statm = -1;
	}
}

bool page_budget_over(struct page_budget *b, double progress, uint32_t *seen)
{
	int64_t anon, file, allowed;
	bool read = read_statm(b, &anon, &file), over;

	pthread_mutex_lock(&b->lock);
	/* Another worker began a round since this one last asked. */
	if (*seen != b->gen && !b->one_mapping) {
		*seen = b->gen;
		pthread_mutex_unlock(&b->lock);
		return true;
	}
	b->checks++;
	if (!read) {
		over = b->checks - b->last_round >= FALLBACK_EVERY;
	} else {
		if (!b->prog0 && progress >= PROJECT_FROM) {
			b->prog0 = progress;
			b->anon0 = anon;
		}
		if (!b->prog0 || progress - b->prog0 < PROJECT_SPAN) {
			allowed = EARLY_FILE;
		} else {
			/*
			 * 7/8 of the growth so far, scaled: the first units grow
			 * it more per byte (vmlinux: 12%).  If it shrank, none is
			 * to come.
			 */
			allowed = anon > b->anon0 ? (int64_t)((anon - b->anon0) * (1 - progress) /
							      (progress - b->prog0) * 7 / 8) :
						    0;
			allowed += MARGIN;
		}
		over = file > b->floor + allowed && b->checks - b->last_round >= MIN_GAP;
	}
	/* Every worker drops, unless they share one mapping. */
	if (over) {
		*seen = ++b->gen;
		b->last_round = b->checks;
	}
	pthread_mutex_unlock(&b->lock);
	return over;
}

void page_budget_dropped(struct page_budget *b)
{
	int64_t anon, file;

	if (!read_statm(b, &anon, &file))
		return;
	pthread_mutex_lock(&b->lock);
	/*
	 * Until the first drop, the floor is the program's own mappings; then
	 * the least seen after a drop of the latest round (its last worker to
	 * drop sees the others' pages gone).  Per round: what a drop keeps
	 * (.debug_str as the workers read it) grows during the decode.
	 */
	if (b->floor_gen != b->gen || file < b->floor) {
		b->floor = file;
		b->floor_gen = b->gen;
	}
	pthread_mutex_unlock(&b->lock);
}

void page_budget_fini(struct page_budget *b)
{
	if (b->statm >= 0)
		close(b->statm);
	pthread_mutex_destroy(&b->lock);
}
