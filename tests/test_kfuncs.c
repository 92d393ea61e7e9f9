// SPDX-License-Identifier: GPL-2.0
/*
 * test_kfuncs - prints what decl_tag_kfuncs put into a BTF file, id-free,
 * for tests/kfuncs.sh to compare with what the fixture declares:
 *
 *   tag FUNC VALUE                 a DECL_TAG on a FUNC (component -1)
 *   func FUNC RET (ARG, ARG...)    every FUNC's prototype, a type written
 *                                  as "*" for PTR, "attr(V) " for a type
 *                                  attribute (TYPE_TAG with kflag),
 *                                  "tag(V) " for a TYPE_TAG, then the name
 *
 * and fails if the file does not pass btf__validate().
 */
#include "../btf/btf.h"

#include <stdio.h>
#include <string.h>

static void log_fn(void *ctx, const char *msg)
{
	(void)ctx;
	fprintf(stderr, "%s\n", msg);
}

static void print_type(const struct btf *btf, uint32_t id, int depth)
{
	const struct btf_type *t = id ? btf__type_by_id(btf, id) : NULL;
	const char *name;

	if (!t) {
		printf("void");
		return;
	}
	if (depth > 16) {
		printf("...");
		return;
	}
	name = btf__str_by_offset(btf, t->name_off);
	if (!name || !*name)
		name = "(anon)";
	/* Only these kinds matter here; the rest print their name. */
	if (btf_kind(t) == BTF_KIND_PTR) {
		printf("*");
	} else if (btf_kind(t) == BTF_KIND_TYPE_TAG) {
		printf("%s(%s) ", btf_kflag(t) ? "attr" : "tag", name);
	} else if (btf_kind(t) == BTF_KIND_CONST) {
		printf("const ");
	} else {
		printf("%s%s", btf_kind(t) == BTF_KIND_STRUCT ? "struct " : "", name);
		return;
	}
	print_type(btf, t->type, depth + 1);
}

static void print_func(const struct btf *btf, const struct btf_type *f)
{
	const struct btf_type *proto = btf__type_by_id(btf, f->type);
	const struct btf_param *p;
	uint32_t i;

	printf("func %s ", btf__str_by_offset(btf, f->name_off));
	print_type(btf, proto->type, 0);
	printf(" (");
	p = btf_type_body(proto);
	for (i = 0; i < btf_vlen(proto); i++) {
		if (i)
			printf(", ");
		print_type(btf, p[i].type, 0);
	}
	printf(")\n");
}

int main(int argc, char **argv)
{
	struct btf_log log = { log_fn, NULL };
	struct btf *btf;
	uint32_t id, n;

	if (argc != 2) {
		fprintf(stderr, "usage: test_kfuncs FILE.btf\n");
		return 2;
	}
	btf = btf__parse_file(argv[1], NULL, NULL, &log);
	if (!btf)
		return 1;
	if (btf__validate(btf, &log)) {
		fprintf(stderr, "%s: invalid BTF\n", argv[1]);
		return 1;
	}
	n = btf__type_cnt(btf);
	for (id = 1; id < n; id++) {
		const struct btf_type *t = btf__type_by_id(btf, id);
		const struct btf_type *target;
		const struct btf_decl_tag *dt;

		if (btf_kind(t) == BTF_KIND_FUNC) {
			print_func(btf, t);
			continue;
		}
		if (btf_kind(t) != BTF_KIND_DECL_TAG)
			continue;
		target = btf__type_by_id(btf, t->type);
		dt = btf_type_body(t);
		if (target && btf_kind(target) == BTF_KIND_FUNC && dt->component_idx == -1)
			printf("tag %s %s\n", btf__str_by_offset(btf, target->name_off),
			       btf__str_by_offset(btf, t->name_off));
	}
	btf__free(btf);
	return 0;
}
