// SPDX-License-Identifier: GPL-2.0
/*
 * permute.c - reorder the types a BTF owns, every type id remapped, and
 * the order bpf-next sorts BTF into so that the kernel and libbpf find a
 * type by name with a binary search: named types first, ascending by name
 * (strcmp), anonymous types after them.  resolve_btfids --btf_sort applies
 * it to vmlinux and to a module's split BTF (the base is never touched);
 * the kernel checks the order (btf_check_sorted) and searches the named
 * types only.  Types of one name keep their relative order here, and
 * anonymous types theirs, so the result is the same on every run.
 */
#include "btf_internal.h"

#include <stdlib.h>
#include <string.h>

struct permute_ctx {
	const uint32_t *map;
	uint32_t start, end;
};

static int remap_id(uint32_t *id, void *arg)
{
	const struct permute_ctx *c = arg;

	if (*id >= c->start && *id < c->end)
		*id = c->map[*id - c->start];
	return 0;
}

/* @map must send [start, end) onto itself, one to one. */
static int check_map(const struct btf *btf, const uint32_t *map)
{
	uint32_t start = btf->start_id, n = btf->nr_types, i;
	unsigned char *seen = calloc(n ? n : 1, 1);
	int err = 0;

	if (!seen)
		return -ENOMEM;
	for (i = 0; i < n && !err; i++) {
		if (map[i] < start || map[i] - start >= n || seen[map[i] - start])
			err = -EINVAL;
		else
			seen[map[i] - start] = 1;
	}
	free(seen);
	return err;
}

int btf__permute(struct btf *btf, const uint32_t *id_map)
{
	struct permute_ctx c = { id_map, btf->start_id, btf->start_id + btf->nr_types };
	uint32_t n = btf->nr_types, *order = NULL, *offs = NULL, i, pos = 0;
	char *types = NULL;
	int err = check_map(btf, id_map);

	if (err)
		return err;
	/* Ids move: what dedup.c kept of this BTF as a base no longer holds. */
	btf_dedup_base_free(btf);
	order = malloc((n + 1) * sizeof(*order));
	offs = malloc((n + 1) * sizeof(*offs));
	types = malloc(btf->types_len ? btf->types_len : 1);
	if (!order || !offs || !types) {
		err = -ENOMEM;
		goto out;
	}
	for (i = 0; i < n; i++)
		order[id_map[i] - btf->start_id] = i;
	for (i = 0; i < n; i++) {
		const struct btf_type *t =
			(const struct btf_type *)((char *)btf->types + btf->type_offs[order[i]]);
		long size = btf__type_size(btf, t);

		if (size < 0) {
			err = (int)size;
			goto out;
		}
		memcpy(types + pos, t, size);
		offs[i] = pos;
		pos += size;
	}
	for (i = 0; i < n; i++) {
		err = btf_type_visit_type_ids((struct btf_type *)(types + offs[i]), btf->layout,
					      remap_id, &c);
		if (err)
			goto out;
	}
	if (n)
		memcpy(btf->type_offs, offs, n * sizeof(*offs));
	free(btf->types);
	btf->types = types;
	btf->types_cap = btf->types_len ? btf->types_len : 1;
	types = NULL;
out:
	free(types);
	free(offs);
	free(order);
	return err;
}

static int cmp_by_name(const void *a, const void *b, void *arg)
{
	const struct btf *btf = arg;
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	const struct btf_type *tx = btf__type_by_id(btf, x), *ty = btf__type_by_id(btf, y);
	int c;

	if (!tx->name_off != !ty->name_off)
		return tx->name_off ? -1 : 1;
	if (tx->name_off && (c = strcmp(btf__str_by_offset(btf, tx->name_off),
					btf__str_by_offset(btf, ty->name_off))))
		return c;
	return (x > y) - (x < y);
}

int btf__sort_by_name(struct btf *btf, uint32_t **id_map)
{
	uint32_t n = btf->nr_types, i, *ids, *map;
	int err;

	*id_map = NULL;
	ids = malloc((n + 1) * sizeof(*ids));
	map = malloc((n + 1) * sizeof(*map));
	if (!ids || !map) {
		free(ids);
		free(map);
		return -ENOMEM;
	}
	for (i = 0; i < n; i++)
		ids[i] = btf->start_id + i;
	qsort_r(ids, n, sizeof(*ids), cmp_by_name, btf);
	for (i = 0; i < n; i++)
		map[ids[i] - btf->start_id] = btf->start_id + i;
	free(ids);
	err = btf__permute(btf, map);
	if (err) {
		free(map);
		return err;
	}
	*id_map = map;
	return 0;
}
