// SPDX-License-Identifier: GPL-2.0
/*
 * strset.c - a deduplicating string table, and the one memory growth
 * helper of btf/.
 */
#include "btf_internal.h"

#include <stdlib.h>
#include <string.h>

void *btf_add_mem(void **data, size_t *cap, size_t elem_sz, size_t cur_cnt, size_t max_cnt,
		  size_t add_cnt)
{
	size_t new_cnt, need = cur_cnt + add_cnt;
	void *p;

	if (need > max_cnt || need < cur_cnt)
		return NULL;
	if (need <= *cap)
		return (char *)*data + cur_cnt * elem_sz;

	/* Grow by 1.5x, at least 16 elements, as libbpf does. */
	new_cnt = *cap + *cap / 2;
	if (new_cnt < 16)
		new_cnt = 16;
	if (new_cnt > max_cnt)
		new_cnt = max_cnt;
	if (new_cnt < need)
		new_cnt = need;
	p = realloc(*data, new_cnt * elem_sz);
	if (!p)
		return NULL;
	memset((char *)p + *cap * elem_sz, 0, (new_cnt - *cap) * elem_sz);
	*data = p;
	*cap = new_cnt;
	return (char *)p + cur_cnt * elem_sz;
}

static uint64_t str_hash(const char *s)
{
	uint64_t h = 0xcbf29ce484222325ull;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 0x100000001b3ull;
	return h;
}

struct strset *strset__new(const void *init, size_t init_len)
{
	struct strset *set = calloc(1, sizeof(*set));

	if (!set)
		return NULL;
	if (init_len) {
		set->data = malloc(init_len);
		if (!set->data) {
			free(set);
			return NULL;
		}
		memcpy(set->data, init, init_len);
		set->len = set->cap = init_len;
	}
	return set;
}

void strset__free(struct strset *set)
{
	if (!set)
		return;
	free(set->data);
	free(set->index);
	free(set);
}

/* Slot holding @s, or the empty slot where it would go. */
static uint32_t *index_slot(struct strset *set, const char *s)
{
	size_t mask = set->index_cap - 1;
	size_t i = str_hash(s) & mask;

	for (;; i = (i + 1) & mask) {
		uint32_t v = set->index[i];

		if (!v || !strcmp(set->data + v - 1, s))
			return &set->index[i];
	}
}

static int index_grow(struct strset *set)
{
	size_t old_cap = set->index_cap, i;
	uint32_t *old = set->index;

	set->index_cap = old_cap ? old_cap * 2 : 1024;
	set->index = calloc(set->index_cap, sizeof(*set->index));
	if (!set->index) {
		set->index = old;
		set->index_cap = old_cap;
		return -ENOMEM;
	}
	for (i = 0; i < old_cap; i++) {
		uint32_t *slot;

		if (!old[i])
			continue;
		slot = index_slot(set, set->data + old[i] - 1);
		*slot = old[i];
	}
	free(old);
	return 0;
}

/* Indexes every string of a loaded table; the first copy of a duplicate wins. */
static int index_build(struct strset *set)
{
	size_t off = 0;

	set->indexed = true;
	while (off < set->len) {
		size_t n = strnlen(set->data + off, set->len - off);
		uint32_t *slot;

		if (off + n >= set->len)
			break; /* unterminated tail: not a string */
		if ((set->index_cnt + 1) * 2 > set->index_cap && index_grow(set))
			return -ENOMEM;
		slot = index_slot(set, set->data + off);
		if (!*slot) {
			*slot = off + 1;
			set->index_cnt++;
		}
		off += n + 1;
	}
	return 0;
}

long strset__find_str(struct strset *set, const char *s)
{
	uint32_t *slot;

	if (!set->indexed && index_build(set))
		return -ENOMEM;
	if (!set->index_cap)
		return -ENOENT;
	slot = index_slot(set, s);
	return *slot ? (long)*slot - 1 : -ENOENT;
}

long strset__add_str(struct strset *set, const char *s)
{
	size_t n = strlen(s) + 1;
	uint32_t *slot;
	long off;
	char *p;

	off = strset__find_str(set, s);
	if (off != -ENOENT)
		return off;
	if ((set->index_cnt + 1) * 2 > set->index_cap && index_grow(set))
		return -ENOMEM;
	off = set->len;
	p = btf_add_mem((void **)&set->data, &set->cap, 1, set->len, BTF_MAX_STR_OFFSET, n);
	if (!p)
		return -ENOMEM;
	memcpy(p, s, n);
	set->len += n;
	slot = index_slot(set, s);
	*slot = off + 1;
	set->index_cnt++;
	return off;
}
