/* SPDX-License-Identifier: GPL-2.0 */
/*
 * page_budget.h - when the decode's workers give back the pages of their
 * mappings of the file, so that those pages never raise the run's peak.
 */
#ifndef BTFENC_PAGE_BUDGET_H
#define BTFENC_PAGE_BUDGET_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

struct page_budget {
	pthread_mutex_t lock;
	int statm; /* /proc/self/statm; -1: a round every few CUs instead */
	uint32_t checks;
	uint32_t gen;	     /* rounds of drops so far */
	uint32_t last_round; /* checks when the last one began */
	uint32_t floor_gen;  /* the round the floor was read in */
	/* The reading the growth is measured from (progress 0: none yet). */
	double prog0;
	int64_t anon0;
	/* File-backed resident bytes a drop leaves: the least after one. */
	int64_t floor;
	bool one_mapping; /* every worker reads the same mapping */
};

/* @one_mapping: one worker's drop is the round's. */
void page_budget_init(struct page_budget *b, bool one_mapping);
/*
 * Whether the worker asking should drop its mapping's pages now, with
 * @progress (0 to 1) of the file's units merged so far: when the file's
 * pages are over budget, or (each worker with a mapping of its own)
 * another worker found them so since this one last asked.  *@seen is the
 * worker's own (0 at first).  Thread-safe.
 */
bool page_budget_over(struct page_budget *b, double progress, uint32_t *seen);
/* After a drop: what the pages left mapped come to. */
void page_budget_dropped(struct page_budget *b);
void page_budget_fini(struct page_budget *b);

#endif /* BTFENC_PAGE_BUDGET_H */
