// SPDX-License-Identifier: GPL-2.0
/*
 * memo.c - byte-string keys to ids.  Inline sites repeat the same
 * prototypes and locations hundreds of thousands of times; adding each
 * once keeps the pre-dedup BTF small.  Dedup stays the authority on
 * equality: this only skips exact repeats.
 */
#include "enc_internal.h"
#include "../btf/btf_internal.h"

#include <stdlib.h>
#include <string.h>

struct memo_entry {
	uint64_t hash;
	uint32_t key_off; /* into keys */
	uint32_t key_len;
	uint32_t id;      /* 0 = empty slot */
};

struct enc_memo {
	struct memo_entry *slots;
	size_t cap, cnt;
	char *keys;
	size_t keys_len, keys_cap;
};

static uint64_t hash_bytes(const void *key, size_t len)
{
	const unsigned char *p = key;
	uint64_t h = 0xcbf29ce484222325ull;

	while (len--)
		h = (h ^ *p++) * 0x100000001b3ull;
	return h;
}

struct enc_memo *enc_memo_new(void)
{
	return calloc(1, sizeof(struct enc_memo));
}

void enc_memo_free(struct enc_memo *m)
{
	if (!m)
		return;
	free(m->slots);
	free(m->keys);
	free(m);
}

static struct memo_entry *find_slot(struct enc_memo *m, const void *key, size_t len, uint64_t h)
{
	size_t i = h & (m->cap - 1);

	for (;; i = (i + 1) & (m->cap - 1)) {
		struct memo_entry *e = &m->slots[i];

		if (!e->id)
			return e;
		if (e->hash == h && e->key_len == len && !memcmp(m->keys + e->key_off, key, len))
			return e;
	}
}

uint32_t enc_memo_get(struct enc_memo *m, const void *key, size_t len)
{
	if (!m->cap)
		return 0;
	return find_slot(m, key, len, hash_bytes(key, len))->id;
}

static int grow(struct enc_memo *m)
{
	struct memo_entry *old = m->slots;
	size_t old_cap = m->cap, i;

	m->cap = old_cap ? old_cap * 2 : 4096;
	m->slots = calloc(m->cap, sizeof(*m->slots));
	if (!m->slots) {
		m->slots = old;
		m->cap = old_cap;
		return -ENOMEM;
	}
	for (i = 0; i < old_cap; i++) {
		struct memo_entry *e;

		if (!old[i].id)
			continue;
		e = find_slot(m, m->keys + old[i].key_off, old[i].key_len, old[i].hash);
		*e = old[i];
	}
	free(old);
	return 0;
}

int enc_memo_put(struct enc_memo *m, const void *key, size_t len, uint32_t id)
{
	struct memo_entry *e;
	uint64_t h = hash_bytes(key, len);
	char *k;

	if ((m->cnt + 1) * 2 > m->cap && grow(m))
		return -ENOMEM;
	k = btf_add_mem((void **)&m->keys, &m->keys_cap, 1, m->keys_len, UINT32_MAX, len);
	if (!k)
		return -ENOMEM;
	memcpy(k, key, len);
	e = find_slot(m, key, len, h);
	if (!e->id)
		m->cnt++;
	e->hash = h;
	e->key_off = m->keys_len;
	e->key_len = len;
	e->id = id;
	m->keys_len += len;
	return 0;
}
