// SPDX-License-Identifier: GPL-2.0
/*
 * encode.c - one encoding run, start to finish:
 *
 *   1. workers decode CUs; the merge appends them in CU order (pool.c,
 *      merge.c);
 *   2. dedup, so that prototypes can be compared by type id;
 *   3. FUNCs (funcs.c), VARs and DATASECs (vars.c), and with "inline" the
 *      location kinds (locs.c), then dedup again: that is .BTF;
 *   4. with "inline.extra", the location kinds go into a BTF split on
 *      .BTF, deduplicated against it: that is .BTF.extra (.BTF.inline in
 *      the merged layout, as bpf-next names it);
 *   5. everything is validated, then written: raw files, or sections of
 *      the ELF file rewritten beside it and renamed over it.
 */
#include "enc_internal.h"
#include "elf_write.h"
#include "pool.h"
#include "../btf/btf_internal.h"

#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/stat.h>

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Peak and current resident memory (kB) from /proc, or zeros. */
static void memory_kb(unsigned long *peak, unsigned long *anon, unsigned long *file)
{
	FILE *f = fopen("/proc/self/status", "r");
	char line[128];

	*peak = *anon = *file = 0;
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		sscanf(line, "VmHWM: %lu", peak);
		sscanf(line, "RssAnon: %lu", anon);
		sscanf(line, "RssFile: %lu", file);
	}
	fclose(f);
}

/*
 * -V: how long each stage took and the memory after it, to see where a
 * slow or big run spends its time and memory.
 */
static void stage_done(const struct enc_state *s, const char *stage, double *t)
{
	unsigned long peak, anon, file;
	double t2 = now();

	if (s->o->verbose) {
		memory_kb(&peak, &anon, &file);
		fprintf(stderr, "btfenc: %-14s %6.2f s  (peak %lu MB, now %lu MB anon + %lu MB file)\n",
			stage, t2 - *t, peak >> 10, anon >> 10, file >> 10);
	}
	*t = t2;
}

/* Whether the workers leave this process a CPU of its own. */
static bool cpu_to_spare(unsigned int jobs)
{
	cpu_set_t set;

	if (sched_getaffinity(0, sizeof(set), &set))
		return false;
	return (unsigned int)CPU_COUNT(&set) > (jobs ? jobs : 1);
}

static int dedup_and_remap(struct enc_state *s, struct btf *btf, const char *what,
			   bool keep_strings)
{
	struct btf_dedup_opts opts = { 0 };
	uint32_t *map = NULL;
	int err;

	opts.id_map = &map;
	/* A failed run discards every BTF it built. */
	opts.in_place = true;
	opts.keep_strings = keep_strings;
	opts.jobs = s->o->jobs;
	if (btf == s->all && s->ahead) {
		err = btf_dedup_finish(s->ahead, &map);
		s->ahead = NULL;
	} else {
		err = btf__dedup(btf, &opts);
	}
	if (err) {
		btf_log_printf(s->log, "%s: BTF dedup failed (%s): %s", s->o->path, what,
			       strerror(-err));
		return err;
	}
	if (btf == s->all)
		enc_remap_records(s, map, btf__start_id(btf));
	free(map);
	return 0;
}

/*
 * One line per failed validation: the first problem, prefixed with the
 * file and the section, and how many more there were.
 */
struct section_log {
	const struct enc_state *s;
	const char *sec;
	char first[512];
	unsigned int problems;
};

static void section_log_fn(void *ctx, const char *msg)
{
	struct section_log *sl = ctx;

	if (!sl->problems++)
		snprintf(sl->first, sizeof(sl->first), "%s", msg);
}

/* The split section of the location kinds, named by the layout "layout" selects. */
static const char *extra_name(const struct enc_state *s)
{
	return btf_loc_split_sec((s->o->features & ENC_F_LAYOUT) ? BTF_LAYOUT_MERGED :
								     BTF_LAYOUT_SEED);
}

static int validate(const struct enc_state *s, const struct btf *btf, const char *sec)
{
	struct section_log sl = { .s = s, .sec = sec };
	struct btf_log log = { section_log_fn, &sl };
	int err = btf__validate(btf, &log);

	if (sl.problems > 1)
		btf_log_printf(s->log, "%s: invalid %s: %s (and %u more problems)", s->o->path,
			       sec, sl.first, sl.problems - 1);
	else if (sl.problems)
		btf_log_printf(s->log, "%s: invalid %s: %s", s->o->path, sec, sl.first);
	return err;
}

/* @order: enc_funcs_order_start()ed; freed by the caller. */
static int build_btf(struct enc_state *s, struct enc_func_order *order, struct btf **extra,
		     double *t)
{
	uint32_t f = s->o->features;
	int err;

	/* "layout": the 32-byte header and layout section, merged location kinds. */
	if ((f & ENC_F_LAYOUT) && (err = btf__set_layout(s->all, BTF_LAYOUT_MERGED)))
		return err;
	if (s->o->verify && (err = validate(s, s->all, "BTF before dedup")))
		return err;
	/* The ".BTF" pass below rebuilds the strings: no need to here. */
	err = dedup_and_remap(s, s->all, "types", true);
	stage_done(s, "dedup types", t);
	if (!err)
		err = enc_add_funcs(s, order);
	if (!err)
		err = enc_add_vars(s);
	if (!err && (f & ENC_F_INLINE) && !(f & ENC_F_INLINE_EXTRA))
		err = (f & ENC_F_LAYOUT) ? enc_add_sites_merged(s, s->all) : enc_add_sites(s, s->all);
	stage_done(s, "funcs, vars", t);
	if (!err)
		err = dedup_and_remap(s, s->all, ".BTF", false);
	/* The merged layout's types are sorted by name (bpf-next). */
	if (!err && (f & ENC_F_LAYOUT) && (f & (ENC_F_INLINE | ENC_F_INLINE_EXTRA)))
		err = enc_sort_merged(s, s->all);
	stage_done(s, "dedup .BTF", t);
	if (err || !(f & ENC_F_INLINE_EXTRA))
		return err;

	*extra = btf__new_empty_split(s->all);
	if (!*extra)
		return -ENOMEM;
	err = (f & ENC_F_LAYOUT) ? enc_add_sites_merged(s, *extra) : enc_add_sites(s, *extra);
	if (!err)
		err = dedup_and_remap(s, *extra, extra_name(s), false);
	if (!err && (f & ENC_F_LAYOUT))
		err = enc_sort_merged(s, *extra);
	stage_done(s, extra_name(s), t);
	return err;
}

static int serialize(const struct enc_state *s, const struct btf *btf, struct enc_section *sec,
		     const char *name)
{
	void *data;
	size_t size;
	int err = btf__write_raw(btf, s->elf.swapped, &data, &size);

	if (err) {
		btf_log_printf(s->log, "%s: cannot serialize %s: %s", s->o->path, name,
			       strerror(-err));
		return err;
	}
	sec->name = name;
	sec->data = data;
	sec->size = size;
	return 0;
}

static int write_output(struct enc_state *s, struct btf *extra)
{
	struct enc_section secs[3] = {};
	int n = 0, err, i;

	err = serialize(s, s->dist_split ? s->dist_split : s->all, &secs[n++], ".BTF");
	if (!err && extra)
		err = serialize(s, extra, &secs[n++], extra_name(s));
	if (!err && s->dist_base)
		err = serialize(s, s->dist_base, &secs[n++], ".BTF.base");
	if (err)
		goto out;
	if (!s->o->detached) {
		err = enc_elf_write_sections(s->o->path, secs, n, s->log);
		goto out;
	}
	err = enc_write_file_atomic(s->o->detached, secs[0].data, secs[0].size, s->log);
	if (!err && extra) {
		/* OUT.extra or OUT.inline: the section name after ".BTF". */
		const char *suffix = extra_name(s) + strlen(".BTF");
		char *path = malloc(strlen(s->o->detached) + strlen(suffix) + 1);

		if (!path) {
			err = -ENOMEM;
			goto out;
		}
		strcpy(stpcpy(path, s->o->detached), suffix);
		err = enc_write_file_atomic(path, secs[1].data, secs[1].size, s->log);
		free(path);
	}
out:
	for (i = 0; i < n; i++)
		free((void *)secs[i].data);
	return err;
}

/* The first line the base's parser logs (it names the base), and only it. */
struct base_log {
	const struct enc_state *s;
	bool said;
};

static void base_log_fn(void *ctx, const char *msg)
{
	struct base_log *bl = ctx;

	if (bl->said)
		return;
	bl->said = true;
	btf_log_printf(bl->s->log, "%s", msg);
}

/* A bad --btf_base is one line of error: the parser's reason, or ours. */
static int load_base(struct enc_state *s)
{
	struct base_log bl = { s, false };
	struct btf_log log = { base_log_fn, &bl };
	int err;

	if (!s->o->base_path)
		return 0;
	s->base = btf__parse_file(s->o->base_path, NULL, NULL, &log);
	if (!s->base) {
		err = -errno;
		if (!bl.said)
			btf_log_printf(s->log, "%s: cannot use --btf_base %s: %s", s->o->path,
				       s->o->base_path, strerror(-err));
		return err;
	}
	return 0;
}

static void report_sites(const struct enc_state *s)
{
	const struct enc_site_counts *c = &s->counts;

	if (!s->o->verbose || !(s->o->features & (ENC_F_INLINE | ENC_F_INLINE_EXTRA)))
		return;
	fprintf(stderr,
		"btfenc: %llu inline sites, %llu outside .text left out; "
		"%llu of %llu parameters located\n",
		(unsigned long long)c->sites, (unsigned long long)c->outside_text,
		(unsigned long long)c->params_located, (unsigned long long)c->params);
	if (c->unnamed_param)
		fprintf(stderr, "btfenc: %llu inline sites left out: a parameter without a name\n",
			(unsigned long long)c->unnamed_param);
}

/* Counts the lines logged, so that no failure goes without one. */
struct counted_log {
	const struct btf_log *log;
	unsigned int lines;
};

static void counted_log_fn(void *ctx, const char *msg)
{
	struct counted_log *cl = ctx;

	cl->lines++;
	btf_log_printf(cl->log, "%s", msg);
}

int enc_run(const struct enc_opts *o, const struct btf_log *user_log)
{
	struct counted_log cl = { user_log, 0 };
	const struct btf_log counted = { counted_log_fn, &cl };
	const struct btf_log *log = &counted;
	struct enc_state s = { .o = o, .log = log };
	struct dw_opts dw = {
		.encode_float = o->features & ENC_F_FLOAT,
		.encode_enum64 = o->features & ENC_F_ENUM64,
		.decl_tag = o->features & ENC_F_DECL_TAG,
		.type_tag = o->features & ENC_F_TYPE_TAG,
		.skip_rust = o->skip_rust,
		.collect_inlines = o->features & (ENC_F_INLINE | ENC_F_INLINE_EXTRA),
	};
	struct enc_pool_opts po = { o->path, o->jobs, &dw, o->progress, &s.names_base };
	struct enc_func_order order = { 0 };
	struct btf *extra = NULL;
	double t = now();
	uint64_t types, copies;
	struct stat st;
	int err, werr;

	/* The symbols are only needed after the decode: read them beside it. */
	err = enc_elf_info_load_async(o->path, &s.elf, log);
	if (!err)
		err = load_base(&s);
	if (err)
		goto out;
	s.all = s.base ? btf__new_empty_split(s.base) : btf__new_empty();
	s.names = btf__new_empty();
	if (!s.all || !s.names) {
		err = -ENOMEM;
		goto out;
	}
	btf__set_pointer_size(s.all, s.elf.ptr_size);
	/*
	 * The merged types stay below the file's size in practice (vmlinux:
	 * 52 MB of 590 MB, copies left out), so their arrays are sized once
	 * and never moved.
	 */
	if (!stat(o->path, &st))
		btf_reserve_types(s.all, st.st_size);
	/*
	 * With a CPU the workers leave free, the merge thread runs most of
	 * the first dedup while they decode (vmlinux, -j1 on 2 CPUs: 2.5 ->
	 * 2.1 s).  Without one, that CPU time is taken from the workers, and
	 * the comparisons get slower on caches the workers share (-j2 on 2
	 * CPUs: 1.69 -> 1.87 s, 2.76 -> 3.06 s CPU): the dedup waits for the
	 * decode.  It waits too when something reads the types between the
	 * merge and the dedup: --verify, and the "layout" conversion.
	 */
	if (cpu_to_spare(o->jobs) && !o->verify && !(o->features & ENC_F_LAYOUT)) {
		struct btf_dedup_opts opts = { .in_place = true, .keep_strings = true };

		/* Without it (no memory), the dedup runs after the decode. */
		s.ahead = btf_dedup_new(s.all, &opts);
	}
	/* Fed ahead, the dedup reads the types by id as they come. */
	if (!s.ahead)
		btf_defer_offsets(s.all);
	/* Split on a base, the dedup fed ahead rewrites the names as it goes. */
	if ((!s.ahead || !s.base) && (err = btf_merge_exact_start(s.all)))
		goto out;
	t = now();
	s.names_on_base = true;
	err = enc_pool_run(&po, enc_merge_cu, &s, log);
	/* Only the merge uses them; the dedup, next, is the peak. */
	btf_merge_exact_end(s.all, &types, &copies);
	if (!err && o->verbose)
		fprintf(stderr,
			"btfenc: merge: %llu types, %llu left out as copies of an earlier CU's\n",
			(unsigned long long)types, (unsigned long long)copies);
	btf_off_map_free(&s.str_base_map);
	btf_off_map_free(&s.names_base_map);
	if (btf__base_btf(s.names) != s.names_base) {
		btf__free(s.names_base);
		s.names_base = NULL;
	}
	/* One line per failure: the decode's, if it failed too. */
	werr = enc_elf_info_wait(&s.elf, log, err != 0);
	if (!err)
		err = werr;
	/*
	 * The functions' order needs only the symbols and the merged
	 * records: worked out beside the strings' check, which runs on one
	 * CPU, and the dedup.
	 */
	if (!err)
		enc_funcs_order_start(&s, &order);
	/*
	 * The merged records' offsets: found by the dedup's id check, unless
	 * something reads the types before it.  After the decode's memory
	 * went (the pool's malloc_trim()).
	 */
	if (!err && (o->verify || (o->features & ENC_F_LAYOUT)))
		err = btf_index_types(s.all);
	if (!err)
		err = btf_merge_strs_checked(s.all, &s.str_marks);
	stage_done(&s, "decode, merge", &t);
	if (!err)
		err = build_btf(&s, &order, &extra, &t);
	/* Nothing is written that does not validate. */
	if (!err)
		err = validate(&s, s.all, ".BTF");
	if (!err && extra)
		err = validate(&s, extra, extra_name(&s));
	/* As pahole: raw (detached) output is never distilled. */
	if (!err && (o->features & ENC_F_DISTILLED_BASE) && !o->detached)
		err = enc_distill(&s, extra);
	stage_done(&s, "validate", &t);
	if (!err && !o->dry_run)
		err = write_output(&s, extra);
	stage_done(&s, "write", &t);
	if (!err)
		report_sites(&s);
	if (!err && o->counts)
		*o->counts = s.counts;
out:
	if (err && !cl.lines)
		btf_log_printf(user_log, "%s: cannot encode: %s", o->path, strerror(-err));
	enc_funcs_order_free(&order);
	btf__free(extra);
	btf__free(s.dist_split);
	btf__free(s.dist_base);
	enc_state_free(&s);
	return err;
}
