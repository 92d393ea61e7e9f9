// SPDX-License-Identifier: GPL-2.0
/*
 * page_budget.c - when the decode's workers drop the pages of the file.
 *
 * Each worker reads the file through its own mapping, and every page it
 * touches stays resident (and counted in the run's RSS) until dropped.
 * Dropping is not free: the madvise() interrupts the other CPUs to flush
 * their TLBs, and the pages the next CUs share with the last ones
 * (abbreviations, line tables, the 2 MB folios around them) fault in
 * again.  On vmlinux (-j2), dropping every few CUs cost 15% of the wall
 * time against never dropping, which took the peak from 208 to 374 MB.
 *
 * The run's peak comes at the end of the decode, when the merged types
 * are all in memory.  Until then, the file's pages may take what the
 * merged types have yet to grow by: the anonymous resident size is read
 * from /proc/self/statm, its growth per unit of progress since an early
 * reading projects what is still to come, and a worker drops its pages
 * only when the file's resident pages exceed that plus what a drop
 * cannot give back (.debug_str, the program's own mappings).
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
#define EARLY_FILE (64L << 20)
/* Room above the projection: fewer drops at the end of the decode. */
#define MARGIN (4L << 20)
/* Without /proc: one round of drops every this many CUs. */
#define FALLBACK_EVERY 32
/*
 * At least this many CUs between rounds: at the end, where little more
 * growth is to come, the pages a round keeps (.debug_str) and those the
 * next CU faults in again would start a round after every CU.
 */
#define MIN_GAP 16

/* Anonymous and file-backed resident bytes, from /proc/self/statm. */
static bool read_statm(const struct page_budget *b, long *anon, long *file)
{
	long size, resident, shared, page = sysconf(_SC_PAGESIZE);
	char buf[128];
	ssize_t n;

	if (b->statm < 0)
		return false;
	n = pread(b->statm, buf, sizeof(buf) - 1, 0);
	if (n <= 0)
		return false;
	buf[n] = '\0';
	if (sscanf(buf, "%ld %ld %ld", &size, &resident, &shared) != 3 || shared > resident)
		return false;
	*anon = (resident - shared) * page;
	*file = shared * page;
	return true;
}

void page_budget_init(struct page_budget *b)
{
	long anon;

	pthread_mutex_init(&b->lock, NULL);
	b->checks = 0;
	b->drops = 0;
	b->gen = 0;
	b->last_round = 0;
	b->prog0 = 0;
	b->anon0 = 0;
	b->floor = 0;
	b->statm = open("/proc/self/statm", O_RDONLY | O_CLOEXEC);
	if (b->statm >= 0 && !read_statm(b, &anon, &b->floor)) {
		close(b->statm);
		b->statm = -1;
	}
}

bool page_budget_over(struct page_budget *b, double progress, uint32_t *seen)
{
	long anon, file, allowed;
	bool over;

	pthread_mutex_lock(&b->lock);
	over = *seen != b->gen;
	*seen = b->gen;
	pthread_mutex_unlock(&b->lock);
	if (over)
		return true;
	if (!read_statm(b, &anon, &file)) {
		pthread_mutex_lock(&b->lock);
		over = ++b->checks - b->last_round >= FALLBACK_EVERY;
		goto out;
	}
	pthread_mutex_lock(&b->lock);
	b->checks++;
	if (!b->prog0 && progress >= PROJECT_FROM) {
		b->prog0 = progress;
		b->anon0 = anon;
	}
	if (!b->prog0 || progress - b->prog0 < PROJECT_SPAN) {
		allowed = EARLY_FILE;
	} else {
		/*
		 * 7/8 of the growth so far, scaled: the first units grow it
		 * more per byte (vmlinux: 12%).  If it shrank, none is to come.
		 */
		allowed = anon > b->anon0 ? (long)((anon - b->anon0) * (1 - progress) /
						   (progress - b->prog0) * 7 / 8) :
					    0;
		allowed += MARGIN;
	}
	over = file > b->floor + allowed && b->checks - b->last_round >= MIN_GAP;
out:
	/* Every worker drops: the pages of one mapping are not all. */
	if (over) {
		*seen = ++b->gen;
		b->last_round = b->checks;
	}
	pthread_mutex_unlock(&b->lock);
	return over;
}

void page_budget_dropped(struct page_budget *b)
{
	long anon, file;

	if (!read_statm(b, &anon, &file))
		return;
	pthread_mutex_lock(&b->lock);
	/*
	 * Until the first drop, the floor is the program's own mappings; then
	 * the least seen after a drop (the last worker of a round to drop
	 * sees the others' pages gone).
	 */
	if (!b->drops++ || file < b->floor)
		b->floor = file;
	pthread_mutex_unlock(&b->lock);
}

void page_budget_fini(struct page_budget *b)
{
	if (b->statm >= 0)
		close(b->statm);
	pthread_mutex_destroy(&b->lock);
}
