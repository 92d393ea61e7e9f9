// SPDX-License-Identifier: GPL-2.0
/*
 * cmd_inlines.c - `btfenc inlines [--base F]... FILE [NAME] [--json]`:
 * every inline site, where it is and where its parameters live, e.g.
 *
 *   tcp_v4_rcv+0x1a3  skb_put(skb=%rdi, len=*(%rsp+8), flags=1)
 */
#include "cli.h"
#include "sites.h"
#include "../encoder/elf_info.h"

#include <elf.h>
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* Symbols of the text section by offset from the text base, to name sites. */
struct symbolizer {
	struct enc_elf_info elf;
	bool has_base;     /* the text base is known from the ELF (not a module) */
	uint64_t base;
	const struct enc_elf_sym **by_off;
	uint64_t *offs;
	uint32_t n;
	bool loaded;
};

/* One output dialect; both print the same fields from the same calls. */
struct emitter {
	void (*site_begin)(const char *where, const struct site *s, const struct symbolizer *sy,
			   bool first);
	void (*param)(const struct site_param *p, const char *loc, const struct symbolizer *sy,
		      uint32_t i);
	void (*site_end)(void);
	void (*finish)(bool any);
};

struct inlines_ctx {
	const char *name; /* filter, or NULL */
	const struct emitter *em;
	struct symbolizer sym;
	uint64_t count;
};

static void text_site_begin(const char *where, const struct site *s, const struct symbolizer *sy,
			    bool first)
{
	printf("%s  %s(", where, s->name ? s->name : "?");
}

static void text_param(const struct site_param *p, const char *loc, const struct symbolizer *sy,
		       uint32_t i)
{
	printf("%s%s=%s", i ? ", " : "", p->name ? p->name : "?", loc);
}

static void text_site_end(void)
{
	puts(")");
}

static void text_finish(bool any)
{
}

static void json_site_begin(const char *where, const struct site *s, const struct symbolizer *sy,
			    bool first)
{
	printf("%s\n  {\"func\": \"%s\", \"at\": \"%s\", \"offset\": %u",
	       first ? "[" : ",", s->name ? s->name : "", where, s->offset);
	if (sy->has_base)
		printf(", \"addr\": %" PRIu64, sy->base + s->offset);
	printf(", \"params\": [");
}

/*
 * Numbers as a tool needs them: reg/reg2/offset for register kinds, and
 * for a constant the value the consumer computes ("value", when the base
 * is known or not needed; "base_relative" otherwise).
 */
static void json_param(const struct site_param *p, const char *loc, const struct symbolizer *sy,
		       uint32_t i)
{
	static const char *const kinds[] = { "none",     "reg",     "deref", "const",
					     "reg_pair", "reg_off", "fbreg" };

	printf("%s{\"name\": \"%s\", \"kind\": \"%s\", \"size\": %d, \"loc\": \"%s\"",
	       i ? ", " : "", p->name ? p->name : "", kinds[p->kind], p->size, loc);
	switch (p->kind) {
	case SP_REG:
	case SP_DEREF:
	case SP_REG_PAIR:
	case SP_REG_OFF:
		printf(", \"reg\": %u, \"reg2\": %u, \"offset\": %d", p->reg, p->reg2, p->offset);
		break;
	case SP_FBREG:
		printf(", \"offset\": %d", p->offset);
		break;
	case SP_CONST:
		if (!p->relocated)
			printf(", \"value\": %" PRIu64, p->value);
		else if (sy->has_base)
			printf(", \"value\": %" PRIu64, p->value + sy->base);
		else
			printf(", \"base_relative\": %" PRIu64, p->value);
		break;
	case SP_NONE:
		break;
	}
	printf("}");
}

static void json_site_end(void)
{
	printf("]}");
}

static void json_finish(bool any)
{
	puts(any ? "\n]" : "[]");
}

static const struct emitter text_emitter = { text_site_begin, text_param, text_site_end,
					     text_finish };
static const struct emitter json_emitter = { json_site_begin, json_param, json_site_end,
					     json_finish };

static void format_loc(const struct site_param *p, const struct symbolizer *sy, char *buf,
		       size_t len)
{
	int em = sy->elf.machine;
	char r1[16], r2[16];

	switch (p->kind) {
	case SP_NONE:
		snprintf(buf, len, "?");
		break;
	case SP_REG:
		snprintf(buf, len, "%s", site_reg_name(em, p->reg, r1, sizeof(r1)));
		break;
	case SP_DEREF:
		snprintf(buf, len, "*(%s%+d)", site_reg_name(em, p->reg, r1, sizeof(r1)), p->offset);
		break;
	case SP_REG_PAIR:
		snprintf(buf, len, "%s:%s", site_reg_name(em, p->reg, r1, sizeof(r1)),
			 site_reg_name(em, p->reg2, r2, sizeof(r2)));
		break;
	case SP_REG_OFF:
		snprintf(buf, len, "%s%+d", site_reg_name(em, p->reg, r1, sizeof(r1)), p->offset);
		break;
	case SP_FBREG:
		snprintf(buf, len, "*(fb%+d)", p->offset);
		break;
	case SP_CONST:
		/* What the consumer computes: it adds the run-time base. */
		if (p->relocated && sy->has_base)
			snprintf(buf, len, "0x%" PRIx64, p->value + sy->base);
		else if (p->relocated)
			snprintf(buf, len, "%s%+" PRId64, sy->elf.is_rel ? ".text" : "_text",
				 (int64_t)p->value);
		else if (p->size < 0)
			snprintf(buf, len, "%" PRId64, (int64_t)p->value);
		else
			snprintf(buf, len, "%" PRIu64, p->value);
		break;
	}
}

static int cmp_off(const void *a, const void *b)
{
	const struct enc_elf_sym *x = *(const struct enc_elf_sym *const *)a;
	const struct enc_elf_sym *y = *(const struct enc_elf_sym *const *)b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/* Loads function symbols of @path's text section, as offsets from the text base. */
static void symbolizer_load(struct symbolizer *sy, const char *path)
{
	int text;
	uint64_t base;
	uint32_t i;

	if (enc_elf_info_load(path, &sy->elf, NULL))
		return;
	sy->loaded = true;
	text = enc_elf_sec_by_name(&sy->elf, ".text");
	if (text < 0)
		return;
	base = sy->elf.is_rel ? 0 :
	       sy->elf.has_text_sym ? sy->elf.text_sym : sy->elf.secs[text].addr;
	/* A module's base is its load address, known only at run time. */
	sy->has_base = !sy->elf.is_rel;
	sy->base = base;
	sy->by_off = calloc(sy->elf.nr_funcs + 1, sizeof(*sy->by_off));
	sy->offs = calloc(sy->elf.nr_funcs + 1, sizeof(*sy->offs));
	if (!sy->by_off || !sy->offs)
		return;
	for (i = 0; i < sy->elf.nr_funcs; i++) {
		const struct enc_elf_sym *s = &sy->elf.funcs[i];

		if ((int)s->shndx == text && s->addr >= base)
			sy->by_off[sy->n++] = s;
	}
	qsort(sy->by_off, sy->n, sizeof(*sy->by_off), cmp_off);
	for (i = 0; i < sy->n; i++)
		sy->offs[i] = sy->by_off[i]->addr - base;
}

static void symbolize(const struct symbolizer *sy, uint32_t off, char *buf, size_t len)
{
	uint32_t lo = 0, hi = sy->n;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (sy->offs[mid] <= off)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo && off - sy->offs[lo - 1] < (sy->by_off[lo - 1]->size ? sy->by_off[lo - 1]->size :
								      UINT64_MAX))
		snprintf(buf, len, "%s+0x%" PRIx64, sy->by_off[lo - 1]->name,
			 off - sy->offs[lo - 1]);
	else
		snprintf(buf, len, ".text+0x%x", off);
}

static int print_site(const struct site *s, void *arg)
{
	struct inlines_ctx *c = arg;
	char where[256], loc[64];
	uint32_t i;

	if (c->name && (!s->name || strcmp(s->name, c->name)))
		return 0;
	symbolize(&c->sym, s->offset, where, sizeof(where));
	c->em->site_begin(where, s, &c->sym, c->count == 0);
	for (i = 0; i < s->nr_params; i++) {
		format_loc(&s->params[i], &c->sym, loc, sizeof(loc));
		c->em->param(&s->params[i], loc, &c->sym, i);
	}
	c->em->site_end();
	c->count++;
	return 0;
}

static bool is_elf(const char *path)
{
	char magic[SELFMAG];
	FILE *f = fopen(path, "rb");
	bool elf = f && fread(magic, 1, SELFMAG, f) == SELFMAG && !memcmp(magic, ELFMAG, SELFMAG);

	if (f)
		fclose(f);
	return elf;
}

/*
 * @path's BTF on top of @bases, and its .BTF.extra (or .BTF.inline, the
 * merged layout's name) on top of that when @path is an ELF file that has one.
 */
int cli_load_with_extra(char **bases, int nr_bases, const char *path, struct btf ***chain,
			int *n)
{
	struct btf **c;
	struct btf *extra;
	enum btf_loc_layout layout;
	const char *name;
	int err = cli_load_chain(bases, nr_bases, path, NULL, &c);

	if (err)
		return err;
	*n = nr_bases + 1;
	/*
	 * Only an ELF file has a .BTF.extra beside its .BTF.  Absent is fine
	 * (ENOENT); present but unreadable is an error, not zero sites.  The
	 * name follows the layout of .BTF, written in the same run: a section
	 * of the other name, left by an earlier run in the other layout, is
	 * read only when the expected one is absent.
	 */
	layout = btf__layout(c[nr_bases]);
	name = btf_loc_split_sec(layout);
	extra = is_elf(path) ? btf__parse_file(path, name, c[nr_bases], NULL) : NULL;
	if (!extra && is_elf(path) && errno == ENOENT) {
		name = btf_loc_split_sec(layout == BTF_LAYOUT_MERGED ? BTF_LAYOUT_SEED :
								       BTF_LAYOUT_MERGED);
		extra = btf__parse_file(path, name, c[nr_bases], NULL);
	}
	if (!extra && is_elf(path) && errno != ENOENT) {
		err = -errno;
		extra = btf__parse_file(path, name, c[nr_bases], &cli_log);
		if (!extra) {
			cli_free_chain(c, *n);
			return err;
		}
	}
	if (extra) {
		struct btf **bigger = realloc(c, (*n + 1) * sizeof(*c));

		if (!bigger) {
			btf__free(extra);
			cli_free_chain(c, *n);
			return -ENOMEM;
		}
		c = bigger;
		c[(*n)++] = extra;
	}
	*chain = c;
	return 0;
}

int cmd_inlines(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "base", required_argument, NULL, 'B' },
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{},
	};
	struct inlines_ctx c = { .em = &text_emitter };
	char **bases = calloc(argc, sizeof(*bases));
	int nr_bases = 0, n, opt, ret = 1;
	struct btf **chain;

	if (!bases)
		return 1;
	optind = 1;
	while ((opt = getopt_long(argc, argv, "B:jh", longopts, NULL)) != -1) {
		switch (opt) {
		case 'B':
			bases[nr_bases++] = optarg;
			break;
		case 'j':
			c.em = &json_emitter;
			break;
		case 'h':
			printf("usage: btfenc inlines [--base FILE]... FILE [NAME] [--json]\n");
			ret = 0;
			goto out;
		default:
			goto out;
		}
	}
	if (optind >= argc || argc - optind > 2) {
		cli_err("usage: btfenc inlines [--base FILE]... FILE [NAME] [--json]");
		goto out;
	}
	c.name = optind + 1 < argc ? argv[optind + 1] : NULL;
	if (cli_load_with_extra(bases, nr_bases, argv[optind], &chain, &n))
		goto out;
	symbolizer_load(&c.sym, argv[optind]);
	sites_for_each(chain, n, print_site, &c);
	c.em->finish(c.count > 0);
	cli_free_chain(chain, n);
	free(c.sym.by_off);
	free(c.sym.offs);
	if (c.sym.loaded)
		enc_elf_info_free(&c.sym.elf);
	ret = fflush(stdout) ? 1 : 0;
out:
	free(bases);
	return ret;
}
