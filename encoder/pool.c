// SPDX-License-Identifier: GPL-2.0
/*
 * pool.c - the worker pool.  Workers take CU indexes in increasing order,
 * each with its own dw_file (libdw 0.188 must not be shared across
 * threads), and park results in a window of slots; the calling thread
 * consumes slot after slot in CU order.  Because consumption order is
 * fixed, the output does not depend on the number of workers.
 *
 * The window (8 or 32 x jobs CUs) bounds memory: a vmlinux CU decodes to a few
 * MB at most, while all 2172 CUs at once would be gigabytes.
 */
#include "pool.h"
#include "page_budget.h"
#include "../btf/btf_internal.h"

#include <malloc.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* A worker renews its libdw handle after this many CUs (dw_file_renew()). */
#define RENEW_EVERY 768

struct slot {
	struct dw_cu cu;
	bool ready;
};

struct pool {
	const struct enc_pool_opts *o;
	/* o->dw, with the file's .debug_str as every CU's string base. */
	struct dw_opts dw;
	const struct btf_log *log;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	uint32_t nr_cus;
	uint32_t next;     /* next CU index to hand to a worker */
	uint32_t consumed; /* CUs consumed so far */
	uint32_t window;
	struct slot *slots; /* nr_cus entries; only [consumed, consumed+window) live */
	int err;
	pthread_mutex_t log_lock;
	struct btf_log safe_log;
	/* The first handle's unit list, for the workers' handles. */
	uint64_t *units;
	/*
	 * A relocatable file: the first handle (the pool closes it last),
	 * and handles ready for the workers to take, the first among them.
	 * Any other file: the first handle owns the mapping the ready
	 * handles read (owner), and no worker takes it.
	 */
	struct dw_file *first;
	struct dw_file *owner;
	struct dw_file **ready;
	unsigned int nr_ready;
	struct page_budget pages;
	uint64_t info_size; /* bytes of .debug_info (0: not known) */
};

/* Workers log through the pool lock so lines never interleave. */
static void locked_log(void *ctx, const char *msg)
{
	struct pool *p = ctx;

	/* DWARF lines name the CU; say which input file it is in, too. */
	pthread_mutex_lock(&p->log_lock);
	btf_log_printf(p->log, "%s: %s", p->o->path, msg);
	pthread_mutex_unlock(&p->log_lock);
}

static bool take_index(struct pool *p, uint32_t *idx)
{
	bool ok = false;

	pthread_mutex_lock(&p->lock);
	while (!p->err && p->next < p->nr_cus && p->next >= p->consumed + p->window)
		pthread_cond_wait(&p->cond, &p->lock);
	if (!p->err && p->next < p->nr_cus) {
		*idx = p->next++;
		ok = true;
	}
	pthread_mutex_unlock(&p->lock);
	return ok;
}

/* How far the merge is: the share of .debug_info in the units it consumed. */
static double progress(const struct pool *p, uint32_t consumed)
{
	if (consumed >= p->nr_cus || p->units[consumed] >= p->info_size)
		return 1;
	return (double)p->units[consumed] / p->info_size;
}

static void *worker(void *arg)
{
	struct pool *p = arg;
	struct dw_file *f;
	uint32_t idx, consumed, nr_decoded = 0, drops_seen = 0;
	bool renew = true;
	int err;

	/*
	 * A relocatable file's workers read the image the first handle
	 * relocated: libdwfl relocates anew in every handle it opens (xfs.ko:
	 * 357M instructions and ~10K page faults each).
	 */
	pthread_mutex_lock(&p->lock);
	f = p->nr_ready ? p->ready[--p->nr_ready] : NULL;
	pthread_mutex_unlock(&p->lock);
	if (!f)
		f = dw_file_open_units(p->o->path, p->units, p->nr_cus, &p->safe_log);
	err = f ? 0 : -errno;

	while (!err && take_index(p, &idx)) {
		struct slot *s = &p->slots[idx];

		err = dw_cu_decode(f, idx, &p->dw, &s->cu, &p->safe_log);
		if (err)
			dw_cu_release(&s->cu);
		pthread_mutex_lock(&p->lock);
		s->ready = !err;
		consumed = p->consumed;
		pthread_cond_broadcast(&p->cond);
		pthread_mutex_unlock(&p->lock);
		/* A relocated image is the process's own memory: never dropped. */
		if (!p->first && page_budget_over(&p->pages, progress(p, consumed), &drops_seen) &&
		    dw_file_drop_pages(f))
			page_budget_dropped(&p->pages);
		/*
		 * libdw keeps state for every CU decoded until the end.
		 * vmlinux, -j2, five alternating runs: peak 215 -> 202 MB
		 * renewing every 512 CUs, for 1-3% more time; every 256 CUs
		 * saved 17 MB and was 3-6% slower.  A renewal walks every
		 * unit header before its CU again (~1 page fault each), so
		 * the one late in the file costs most: every 768 CUs (one
		 * renewal per worker of vmlinux at -j2) took wall 2.015 ->
		 * 1.895 s and 2.085 -> 2.04 s in two sets of alternating runs,
		 * the same peak (the dedup's, since the offsets of the merged
		 * types are found after the decode).  Only memory is at
		 * stake: where a new handle cannot be had, the old one goes on.
		 */
		if (!err && renew && ++nr_decoded % RENEW_EVERY == 0)
			renew = dw_file_renew(f, idx + 1) >= 0;
	}
	if (err) {
		pthread_mutex_lock(&p->lock);
		if (!p->err)
			p->err = err;
		pthread_cond_broadcast(&p->cond);
		pthread_mutex_unlock(&p->lock);
	}
	if (f != p->first)
		dw_file_close(f);
	return NULL;
}

/*
 * Handles for the workers that read @first's image of the file: on a
 * relocatable file @first itself among them; on any other, @first only
 * owns the mapping.  Opened here, before any worker runs: they read
 * @first's state.  Where they cannot, the workers open their own.
 */
static int ready_handles(struct pool *p, struct dw_file *first)
{
	unsigned int jobs = p->o->jobs ? p->o->jobs : 1;
	bool relocated = dw_file_relocated(first);
	struct dw_file *f;

	if (relocated)
		p->first = first;
	else
		p->owner = first;
	p->ready = calloc(jobs, sizeof(*p->ready));
	if (!p->ready && relocated)
		return -ENOMEM;
	if (relocated)
		p->ready[p->nr_ready++] = first;
	while (p->ready && p->nr_ready < jobs && (f = dw_file_open_shared(first)))
		p->ready[p->nr_ready++] = f;
	/* No handle reads the owner's mapping: it goes now. */
	if (p->owner && !p->nr_ready) {
		dw_file_close(p->owner);
		p->owner = NULL;
	}
	return 0;
}

static double now_sec(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int consume_all(struct pool *p, enc_consume_fn consume, void *ctx)
{
	double start = now_sec();
	bool shown = false;
	int err = 0;

	while (p->consumed < p->nr_cus) {
		struct slot *s = &p->slots[p->consumed];

		pthread_mutex_lock(&p->lock);
		while (!s->ready && !p->err)
			pthread_cond_wait(&p->cond, &p->lock);
		err = p->err;
		pthread_mutex_unlock(&p->lock);
		if (err)
			break;
		err = consume(ctx, p->consumed, &s->cu);
		dw_cu_release(&s->cu);
		s->ready = false;
		if (err)
			break;
		pthread_mutex_lock(&p->lock);
		p->consumed++;
		pthread_cond_broadcast(&p->cond);
		pthread_mutex_unlock(&p->lock);
		if (p->o->progress && (shown || now_sec() - start > 2.0)) {
			fprintf(stderr, "\rbtfenc: %u/%u CUs", p->consumed, p->nr_cus);
			shown = true;
		}
	}
	if (shown)
		fputc('\n', stderr);
	return err;
}

int enc_pool_run(const struct enc_pool_opts *o, enc_consume_fn consume, void *ctx,
		 const struct btf_log *log)
{
	struct pool p = { .o = o, .log = log };
	pthread_t *threads = NULL;
	unsigned int i, started = 0;
	struct dw_file *f;
	int err;

	p.safe_log = (struct btf_log){ locked_log, &p };
	f = dw_file_open(o->path, log);
	if (!f)
		return -errno;
	p.nr_cus = dw_file_cu_count(f);
	/* Without one (no .debug_str), each CU keeps its own strings. */
	p.dw = *o->dw;
	p.dw.str_base = dw_file_str_base(f);
	p.units = malloc((p.nr_cus ? p.nr_cus : 1) * sizeof(*p.units));
	if (!p.units) {
		btf__free(p.dw.str_base);
		dw_file_close(f);
		return -ENOMEM;
	}
	memcpy(p.units, dw_file_units(f), p.nr_cus * sizeof(*p.units));
	p.info_size = dw_file_info_size(f);
	/*
	 * Another handle on a relocatable file relocates its DWARF again;
	 * on any other, a handle of its own maps the file again.
	 */
	err = ready_handles(&p, f);
	if (err)
		goto out;

	/*
	 * vmlinux, -j2 (2 cores): a window of 1 x jobs left workers waiting
	 * on the merge (7.6 s wall, 5.3 s CPU).  From 2 x to 8 x jobs the
	 * whole run went 3.39 -> 3.13 s (three alternating runs each; 16 x
	 * and 32 x no better): a worker on a big CU no longer holds the
	 * other back.  The peak stays in dedup (213-219 MB either way; 301
	 * -> 305 MB with inline.extra).
	 *
	 * Since the merge leaves out copies (btf/exact.c) its work per CU
	 * varies more: at 8 x jobs the workers waited 0.35-0.66 s for it and
	 * it 0.23-0.35 s for them, each time with a CPU idle.  32 x jobs:
	 * 1.41 -> 1.33 s (nine ABBA rounds), the same peak; 64 x no better.
	 * Not for a file of few CUs: xfs.ko's peak went 66 -> 71 MB, for
	 * nothing.
	 */
	p.window = (p.nr_cus >= 1024 ? 32 : 8) * (o->jobs ? o->jobs : 1);
	p.slots = calloc(p.nr_cus ? p.nr_cus : 1, sizeof(*p.slots));
	threads = calloc(o->jobs ? o->jobs : 1, sizeof(*threads));
	if (!p.slots || !threads) {
		err = -ENOMEM;
		goto out;
	}
	pthread_mutex_init(&p.lock, NULL);
	pthread_mutex_init(&p.log_lock, NULL);
	pthread_cond_init(&p.cond, NULL);
	/* Every worker takes a handle on the owner's mapping. */
	page_budget_init(&p.pages, p.owner && p.nr_ready >= (o->jobs ? o->jobs : 1));
	for (i = 0; i < (o->jobs ? o->jobs : 1); i++) {
		if (pthread_create(&threads[i], NULL, worker, &p))
			break;
		started++;
	}
	if (!started) {
		err = -EAGAIN;
		goto destroy;
	}
	err = consume_all(&p, consume, ctx);
	/* Stop the workers: nothing more will be consumed. */
	pthread_mutex_lock(&p.lock);
	if (err && !p.err)
		p.err = err;
	p.next = p.nr_cus;
	pthread_cond_broadcast(&p.cond);
	pthread_mutex_unlock(&p.lock);
	for (i = 0; i < started; i++)
		pthread_join(threads[i], NULL);
	/* Results decoded past a failure are released here. */
	for (i = p.consumed; i < p.nr_cus; i++)
		if (p.slots[i].ready)
			dw_cu_release(&p.slots[i].cu);
	if (!err)
		err = p.err;
	/*
	 * The workers' arenas keep the pages of every CU they decoded and
	 * freed; dedup, next, was the run's peak (vmlinux -j2: 34 MB less).
	 */
	malloc_trim(0);
destroy:
	page_budget_fini(&p.pages);
	pthread_cond_destroy(&p.cond);
	pthread_mutex_destroy(&p.lock);
	pthread_mutex_destroy(&p.log_lock);
out:
	/* Handles no worker took (fewer started), then the one they read. */
	while (p.nr_ready)
		if (p.ready[--p.nr_ready] != p.first)
			dw_file_close(p.ready[p.nr_ready]);
	dw_file_close(p.first);
	dw_file_close(p.owner);
	free(p.ready);
	free(p.units);
	free(threads);
	free(p.slots);
	if (o->str_base_out)
		*o->str_base_out = p.dw.str_base;
	else
		btf__free(p.dw.str_base);
	return err;
}
