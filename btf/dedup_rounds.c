// SPDX-License-Identifier: GPL-2.0
/*
 * dedup_rounds.c - the dedup's struct phase (phase 3) on two threads,
 * with the result of one.
 *
 * The comparisons of one run of types that nothing before it refers into
 * (a CU) change little that a later run's comparisons read: the map
 * entries of the run's own types, FWD roots they resolve, and the
 * candidate table where they add a canonical struct.  So in each round
 * this thread (the head) takes the structs of [pos, cut) as one thread
 * alone would, while a second thread goes on from the cut as if the head
 * had found nothing new, until the head is done.  Each keeps its FWD
 * resolutions and new candidates in its view; the second thread also
 * logs its own map writes and what it read that the head may change: FWD
 * roots below the cut it saw unresolved, hashes it looked up without a
 * match in the shared table, and the map entries of [pos, cut) with the
 * values it read.  Its types may refer there: the encoder's exact merge
 * (btf/exact.c) points a CU's types at the earlier CUs' types that
 * replaced their copies, and the committed part of the CU the last round
 * ended in may refer to the rest of it.  Where it would write a map
 * entry there, it leaves it to the head.
 *
 * Then the head's changes go into the map and the table, and the second
 * thread's work is replayed in id order.  A struct whose walks read what
 * the head changed (an entry of [pos, cut) the head wrote otherwise) is
 * done again, in the state one thread would have there; if that changes
 * something other than the second thread did, its result stands and the
 * second thread's work after it is dropped.  The next round starts where
 * the kept work ends.  vmlinux, exact-merged (1.06M types): ~160 rounds,
 * ~600 structs done again, a third of the structs done by the second
 * thread (docs/performance.md).
 *
 * Cuts are found as the id check visits every reference (cut_scan_*):
 * an id is one when no type before it refers to it or beyond.
 */
#include "dedup_internal.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* ---- cuts ---- */

void cut_scan_note(struct cut_scan *c, uint32_t id, uint32_t hi)
{
	uint32_t *top;

	/* @id is a cut if no type before it in the range refers to it or beyond. */
	if (c->hi < id && (!c->cnt || id - c->cuts[c->cnt - 1] >= c->gap)) {
		top = log_push((void **)&c->cuts, &c->cnt, &c->cap, sizeof(*top));
		/* Without memory, fewer cuts: the ones kept still hold. */
		if (top)
			*top = id;
	}
	if (hi > c->hi)
		c->hi = hi;
}

/*
 * The cuts of two halves of the ids, into d->cuts: the second's above
 * everything the first refers to.
 */
void cut_scan_join(struct dedup *d, struct cut_scan *first, const struct cut_scan *second)
{
	size_t skip = 0, n;

	while (second && skip < second->cnt && second->cuts[skip] <= first->hi)
		skip++;
	n = first->cnt + (second ? second->cnt - skip : 0);
	free(d->cuts);
	d->cuts_cnt = 0;
	d->cuts = malloc((n ? n : 1) * sizeof(*d->cuts));
	/* Without memory, no cuts: phases 3 and 4 on one thread. */
	if (!d->cuts)
		return;
	if (first->cnt)
		memcpy(d->cuts, first->cuts, first->cnt * sizeof(*d->cuts));
	if (second && second->cnt > skip)
		memcpy(d->cuts + first->cnt, second->cuts + skip,
		       (second->cnt - skip) * sizeof(*d->cuts));
	d->cuts_cnt = n;
}

/* ---- views ---- */

static size_t ov_slot_of(uint32_t id, size_t mask)
{
	return ((uint64_t)id * 0x9e3779b97f4a7c15ull >> 32) & mask;
}

void view_fail(struct view *v, int err)
{
	if (!v->err) {
		v->err = err;
		v->err_pos = v->pos;
	}
}

/* What FWD @id resolved to in the view, or 0. */
uint32_t view_fwd_find(const struct view *v, uint32_t id)
{
	size_t pos;

	if (!v->ov_cnt)
		return 0;
	for (pos = ov_slot_of(id, v->ov_mask); v->ov[pos].id; pos = (pos + 1) & v->ov_mask)
		if (v->ov[pos].id == id)
			return v->ov[pos].to;
	return 0;
}

/* FWD @id resolves to @to, at v->pos. */
int view_fwd_put(struct view *v, uint32_t id, uint32_t to)
{
	size_t pos, i;

	if (!v->ov || (v->ov_cnt + 1) * 2 > v->ov_mask + 1) {
		size_t n = v->ov ? 2 * (v->ov_mask + 1) : 256;
		struct ov_slot *ov = calloc(n, sizeof(*ov));

		if (!ov)
			return -ENOMEM;
		for (i = 0; v->ov && i <= v->ov_mask; i++) {
			if (!v->ov[i].id)
				continue;
			for (pos = ov_slot_of(v->ov[i].id, n - 1); ov[pos].id;
			     pos = (pos + 1) & (n - 1))
				;
			ov[pos] = v->ov[i];
		}
		free(v->ov);
		v->ov = ov;
		v->ov_mask = n - 1;
	}
	for (pos = ov_slot_of(id, v->ov_mask); v->ov[pos].id; pos = (pos + 1) & v->ov_mask)
		;
	v->ov[pos] = (struct ov_slot){ id, to, v->pos };
	v->ov_cnt++;
	return 0;
}

/* ---- rounds ---- */

struct rounds {
	struct dedup *d;
	struct walk wb;
	struct view va;
	struct view vb;
	/* A struct of the second thread's part done again (round_commit()). */
	struct view vc;
	pthread_t th;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	unsigned int state; /* R_*, atomic */
	bool head_done;	    /* atomic: the second thread stops */
	uint32_t b_from;
};

enum { R_IDLE, R_GO, R_QUIT };

static void view_reset(struct view *v, uint32_t lo)
{
	v->lo = v->pos = v->stop = lo;
	if (v->ov_cnt)
		memset(v->ov, 0, (v->ov_mask + 1) * sizeof(*v->ov));
	v->ov_cnt = 0;
	if (v->adds.cnt)
		memset(v->adds.slots, 0, (v->adds.mask + 1) * sizeof(*v->adds.slots));
	v->adds.cnt = 0;
	v->reads_cnt = v->looks_cnt = v->undo_cnt = 0;
	v->err = 0;
	v->err_pos = UINT32_MAX;
}

static void view_free(struct view *v)
{
	free(v->ov);
	dedup_table_free(&v->adds);
	free(v->reads);
	free(v->looks);
	free(v->undo);
}

/* The second thread's part of a round: from b_from on until the head is done. */
static void spec_run(struct rounds *r)
{
	int err = dedup_structs_run(&r->wb, r->b_from, r->d->type_cnt);

	/* -EAGAIN: the head was done first. */
	if (err && err != -EAGAIN)
		view_fail(&r->vb, err);
}

/*
 * Spins this long before it sleeps: a round lasts about a millisecond,
 * a commit up to a few, and waking a thread that slept can take longer
 * than a round here (a vCPU that went idle): the head then waited for
 * the second thread, which had barely started.
 */
#define SPIN_MS 20.0

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#endif
}

/* Waits while r->state is @from. */
static unsigned int wait_state(struct rounds *r, unsigned int from)
{
	double until = now_ms() + SPIN_MS;
	unsigned int i, st;

	for (i = 1;; i++) {
		st = __atomic_load_n(&r->state, __ATOMIC_ACQUIRE);
		if (st != from)
			return st;
		cpu_relax();
		if (!(i & 1023) && now_ms() > until)
			break;
	}
	pthread_mutex_lock(&r->mu);
	while ((st = __atomic_load_n(&r->state, __ATOMIC_ACQUIRE)) == from)
		pthread_cond_wait(&r->cv, &r->mu);
	pthread_mutex_unlock(&r->mu);
	return st;
}

static void set_state(struct rounds *r, unsigned int st)
{
	pthread_mutex_lock(&r->mu);
	__atomic_store_n(&r->state, st, __ATOMIC_RELEASE);
	pthread_cond_broadcast(&r->cv);
	pthread_mutex_unlock(&r->mu);
}

/*
 * The second thread.  The head sets r->state to GO for each round and to
 * QUIT at the end; this thread sets it back to IDLE when its part is
 * done.
 */
static void *spec_thread(void *arg)
{
	struct rounds *r = arg;

	while (wait_state(r, R_IDLE) != R_QUIT) {
		spec_run(r);
		set_state(r, R_IDLE);
	}
	return NULL;
}

/* The view's candidates into the table, in order. */
static int commit_adds(struct dedup *d, const struct cand_table *adds)
{
	size_t i;
	int err;

	for (i = 0; i < adds->cnt; i++) {
		err = dedup_table_add(&d->tab, adds->entries[i].hash, adds->entries[i].id);
		if (err)
			return err;
	}
	return 0;
}

/* The view's FWD resolutions into the map. */
static void commit_fwds(struct dedup *d, const struct view *v)
{
	size_t i;

	for (i = 0; v->ov_cnt && i <= v->ov_mask; i++)
		if (v->ov[i].id)
			d->map[v->ov[i].id] = v->ov[i].to;
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

static int cmp_ov_pos(const void *a, const void *b)
{
	const struct ov_slot *x = a, *y = b;

	return x->pos < y->pos ? -1 : x->pos > y->pos;
}

/*
 * The ids of the second thread's part, below @end, whose structs read
 * what the head changed: a FWD root it resolved, a map entry of
 * [@part_lo, +@part_len) that @map now has otherwise, or a hash it added
 * a candidate of (where the shared table had no match); ascending, once
 * each.
 */
static int spec_conflicts(const struct view *a, const struct view *b, const uint32_t *map,
			  uint32_t part_lo, uint32_t part_len, uint32_t end, uint32_t **out,
			  size_t *cnt)
{
	size_t i, n, cap = 0;
	uint32_t *c, id;

	*out = NULL;
	*cnt = 0;
	for (i = 0; i < b->reads_cnt; i++) {
		if (b->reads[i].pos >= end)
			continue;
		id = b->reads[i].id;
		if (id - part_lo < part_len ? map[id] == b->reads[i].val : !view_fwd_find(a, id))
			continue;
		if (*cnt && (*out)[*cnt - 1] == b->reads[i].pos)
			continue;
		c = log_push((void **)out, cnt, &cap, sizeof(*c));
		if (!c)
			return -ENOMEM;
		*c = b->reads[i].pos;
	}
	for (i = 0; a->adds.cnt && i < b->looks_cnt && b->looks[i].pos < end; i++) {
		if (!dedup_table_has(&a->adds, b->looks[i].hash))
			continue;
		c = log_push((void **)out, cnt, &cap, sizeof(*c));
		if (!c)
			return -ENOMEM;
		*c = b->looks[i].pos;
	}
	if (!*cnt)
		return 0;
	qsort(*out, *cnt, sizeof(**out), cmp_u32);
	for (i = n = 1; i < *cnt; i++)
		if ((*out)[i] != (*out)[n - 1])
			(*out)[n++] = (*out)[i];
	*cnt = n;
	return 0;
}

/*
 * Replaying the second thread's part: its map writes (taken back first),
 * FWD resolutions by time, candidates; each next entry to apply.
 */
struct replay {
	struct view *b;
	struct ov_slot *fwds;
	size_t fwds_cnt;
	size_t undo_at, fwds_at, adds_at;
};

/* Applies the second thread's work on the ids before @to. */
static int replay_to(struct dedup *d, struct replay *rp, uint32_t to)
{
	const struct view *b = rp->b;
	int err;

	for (; rp->undo_at < b->undo_cnt && b->undo[rp->undo_at].pos < to; rp->undo_at++)
		d->map[b->undo[rp->undo_at].id] = b->undo[rp->undo_at].to;
	for (; rp->fwds_at < rp->fwds_cnt && rp->fwds[rp->fwds_at].pos < to; rp->fwds_at++)
		d->map[rp->fwds[rp->fwds_at].id] = rp->fwds[rp->fwds_at].to;
	for (; rp->adds_at < b->adds.cnt && b->adds.entries[rp->adds_at].id < to; rp->adds_at++) {
		err = dedup_table_add(&d->tab, b->adds.entries[rp->adds_at].hash,
				      b->adds.entries[rp->adds_at].id);
		if (err)
			return err;
	}
	return 0;
}

/*
 * Whether the struct at @id, done again in the state a run on one thread
 * has there (view @c), changed what the second thread's work changed at
 * @id (whose entries replay is at): the same map writes in the same
 * order, FWD resolutions and candidate.  Skips those entries.
 */
static bool replay_same(struct dedup *d, struct replay *rp, const struct view *c, uint32_t id)
{
	const struct view *b = rp->b;
	bool same = true;
	size_t i, n;

	for (i = 0; rp->undo_at < b->undo_cnt && b->undo[rp->undo_at].pos == id; i++, rp->undo_at++)
		if (i >= c->undo_cnt || c->undo[i].id != b->undo[rp->undo_at].id ||
		    c->undo[i].to != b->undo[rp->undo_at].to)
			same = false;
	if (i != c->undo_cnt)
		same = false;
	for (n = 0; rp->fwds_at < rp->fwds_cnt && rp->fwds[rp->fwds_at].pos == id;
	     n++, rp->fwds_at++)
		if (view_fwd_find(c, rp->fwds[rp->fwds_at].id) != rp->fwds[rp->fwds_at].to)
			same = false;
	if (n != c->ov_cnt)
		same = false;
	n = 0;
	for (; rp->adds_at < b->adds.cnt && b->adds.entries[rp->adds_at].id == id; rp->adds_at++)
		n++;
	return same && n == c->adds.cnt;
}

/*
 * Ends a round.  The head's changes go in.  Then the second thread's
 * work is replayed in id order; a struct whose walks read what the head
 * changed is done again here, in the state a run on one thread has at
 * that point, and if that changes anything else than the second thread
 * did, its result stands and the rest of the second thread's work is
 * dropped.  *@pos: where the next round starts.
 */
static int round_commit(struct rounds *r, uint32_t *pos)
{
	struct dedup *d = r->d;
	struct view *b = &r->vb, *c = &r->vc;
	uint32_t end = b->stop < b->err_pos ? b->stop : b->err_pos, first;
	struct replay rp = { .b = b };
	uint32_t *confl = NULL;
	size_t i, n, confl_cnt = 0;
	int err;

	err = commit_adds(d, &r->va.adds);
	if (err)
		return err;
	commit_fwds(d, &r->va);
	err = spec_conflicts(&r->va, b, d->map, r->wb.part_lo, r->wb.part_len, end, &confl,
			     &confl_cnt);
	if (err)
		return err;
	rp.fwds = malloc((b->ov_cnt ? b->ov_cnt : 1) * sizeof(*rp.fwds));
	if (!rp.fwds) {
		err = -ENOMEM;
		goto out;
	}
	/*
	 * The map writes before the first struct to do again stand as they
	 * are (most rounds have none): only the later ones are taken back.
	 */
	first = confl_cnt && confl[0] < end ? confl[0] : end;
	for (i = b->undo_cnt; i-- && b->undo[i].pos >= first;)
		d->map[b->undo[i].id] = b->undo[i].old;
	rp.undo_at = i + 1;
	for (i = 0, n = 0; b->ov_cnt && i <= b->ov_mask; i++)
		if (b->ov[i].id)
			rp.fwds[n++] = b->ov[i];
	rp.fwds_cnt = n;
	qsort(rp.fwds, n, sizeof(*rp.fwds), cmp_ov_pos);
	d->w.v = c;
	for (i = 0; i < confl_cnt && !err; i++) {
		if (confl[i] >= end)
			break;
		err = replay_to(d, &rp, confl[i]);
		if (err)
			break;
		view_reset(c, confl[i]);
		err = dedup_struct_type(&d->w, confl[i]);
		if (!err)
			err = c->err;
		if (err)
			break;
		if (!replay_same(d, &rp, c, confl[i]))
			end = confl[i] + 1;
		commit_fwds(d, c);
		err = commit_adds(d, &c->adds);
	}
	d->w.v = &r->va;
	if (!err)
		err = replay_to(d, &rp, end);
	*pos = end;
out:
	free(confl);
	free(rp.fwds);
	return err;
}

static void fwd_roots_mark(struct dedup *d, uint32_t from, bool on)
{
	uint32_t id;

	for (id = from; id < d->type_cnt; id++) {
		if (d->kinds[id] != BTF_KIND_FWD)
			continue;
		if (on && d->map[id] == id)
			d->map[id] = ID_FWD_ROOT;
		else if (!on && d->map[id] == ID_FWD_ROOT)
			d->map[id] = id;
	}
}

/* Rounds after which waiting for the second thread ends them all. */
#define SLOW_ROUNDS 4

/* Phase 3 over own ids [@pos, type_cnt), in rounds while there are cuts ahead. */
int dedup_structs_rounds(struct dedup *d, uint32_t pos)
{
	struct rounds r = { .d = d, .wb = { .d = d } };
	const uint32_t *cuts = d->cuts;
	size_t cut = 0;
	unsigned int slow = 0;
	double t0, t1, t2;
	int err = 0;

	/* No round: no cut a round's work beyond. */
	if (!d->cuts_cnt || cuts[d->cuts_cnt - 1] < (uint64_t)pos + d->round_types)
		goto alone;
	if (hypot_reserve(&r.wb, d->type_cnt) || pthread_mutex_init(&r.mu, NULL))
		goto alone;
	if (pthread_cond_init(&r.cv, NULL)) {
		pthread_mutex_destroy(&r.mu);
		goto alone;
	}
	if (pthread_create(&r.th, NULL, spec_thread, &r)) {
		pthread_cond_destroy(&r.cv);
		pthread_mutex_destroy(&r.mu);
		goto alone;
	}
	fwd_roots_mark(d, pos, true);
	r.vb.spec = true;
	r.vc.log_writes = true;
	r.vb.give_up = &r.head_done;
	d->w.v = &r.va;
	r.wb.v = &r.vb;
	for (;;) {
		while (cut < d->cuts_cnt && cuts[cut] < (uint64_t)pos + d->round_types)
			cut++;
		if (cut == d->cuts_cnt)
			break;
		view_reset(&r.va, pos);
		view_reset(&r.vb, cuts[cut]);
		/*
		 * The second thread's types may refer to the head's, [pos,
		 * cut): to earlier CUs' types that replaced their copies, or
		 * (through the committed types of the CU the last round ended
		 * in) to the rest of that CU.  Its walks may read what the
		 * head writes there.
		 */
		r.wb.part_lo = pos;
		r.wb.part_len = cuts[cut] - pos;
		r.b_from = cuts[cut];
		__atomic_store_n(&r.head_done, false, __ATOMIC_RELAXED);
		set_state(&r, R_GO);

		t0 = now_ms();
		err = dedup_structs_run(&d->w, pos, cuts[cut]);
		if (!err)
			err = r.va.err;
		t1 = now_ms();
		__atomic_store_n(&r.head_done, true, __ATOMIC_RELEASE);
		wait_state(&r, R_GO);
		t2 = now_ms();
		if (!err)
			err = round_commit(&r, &pos);
		if (err)
			break;
		/*
		 * Waiting longer than its part took: the second thread was not
		 * running (a busy machine), and each round would cost a time
		 * slice.  After a few, the rest goes on one thread.
		 */
		if (t2 - t1 > t1 - t0 && ++slow == SLOW_ROUNDS)
			break;
	}
	set_state(&r, R_QUIT);
	pthread_join(r.th, NULL);
	pthread_cond_destroy(&r.cv);
	pthread_mutex_destroy(&r.mu);
	d->w.v = NULL;
	/* The rest alone: FWD roots still marked read as roots, and are written in place. */
	if (!err)
		err = dedup_structs_run(&d->w, pos, d->type_cnt);
	fwd_roots_mark(d, d->start_id, false);
	view_free(&r.va);
	view_free(&r.vb);
	view_free(&r.vc);
	hypot_free(&r.wb);
	return err;
alone:
	hypot_free(&r.wb);
	return dedup_structs_run(&d->w, pos, d->type_cnt);
}
