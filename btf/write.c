// SPDX-License-Identifier: GPL-2.0
/*
 * write.c - serialize a BTF to a raw .BTF image, in either byte order: a
 * 24-byte header, types and strings (seed layout), or a 32-byte header,
 * types, the layout section and strings (merged layout, libbpf's order).
 */
#include "btf_internal.h"

#include <byteswap.h>
#include <stdlib.h>
#include <string.h>

/* The layout section: as read, or kinds.c's table for every kind we know. */
static void fill_layout(const struct btf *btf, struct btf_layout *out, uint32_t cnt, bool swap)
{
	uint32_t i;

	for (i = 0; i < cnt; i++) {
		if (btf->layout_sec)
			out[i] = btf->layout_sec[i];
		else if (btf_kind_layout(i, BTF_LAYOUT_MERGED, &out[i]))
			memset(&out[i], 0, sizeof(out[i]));
		if (swap)
			out[i].flags = bswap_16(out[i].flags);
	}
}

int btf__write_raw(const struct btf *btf, bool swap, void **data, size_t *size)
{
	bool merged = btf->layout == BTF_LAYOUT_MERGED;
	uint32_t layout_cnt = !merged ? 0 : btf->layout_sec ? btf->layout_cnt : NR_BTF_KINDS;
	size_t layout_len = layout_cnt * sizeof(struct btf_layout);
	size_t hdr_len = merged ? sizeof(struct btf_header_layout) : sizeof(struct btf_header);
	struct btf_header_layout hl = {
		.hdr = {
			.magic = BTF_MAGIC,
			.version = BTF_VERSION,
			.hdr_len = hdr_len,
			.type_off = 0,
			.type_len = btf->types_len,
			.str_off = btf->types_len + layout_len,
			.str_len = btf->strs->len,
		},
		/* types_len is a multiple of 4, so the layout section is aligned. */
		.layout_off = btf->types_len,
		.layout_len = layout_len,
	};
	size_t total = hdr_len + btf->types_len + layout_len + btf->strs->len;
	char *buf, *types;
	uint32_t i;

	if (total > UINT32_MAX)
		return -E2BIG;
	buf = malloc(total ? total : 1);
	if (!buf)
		return -ENOMEM;
	types = buf + hdr_len;
	/* An empty split BTF may have no buffers at all: memcpy(NULL) is UB. */
	if (btf->types_len)
		memcpy(types, btf->types, btf->types_len);
	fill_layout(btf, (struct btf_layout *)(types + btf->types_len), layout_cnt, swap);
	if (btf->strs->len)
		memcpy(types + btf->types_len + layout_len, btf->strs->data, btf->strs->len);

	if (swap) {
		for (i = 0; i < btf->nr_types; i++) {
			struct btf_type *t = (struct btf_type *)(types + btf->type_offs[i]);

			/* The body is swapped while the header is still native. */
			btf_bswap_type_body(t, btf->layout);
			btf_bswap_type_hdr(t);
		}
		hl.hdr.magic = bswap_16(hl.hdr.magic);
		hl.hdr.hdr_len = bswap_32(hl.hdr.hdr_len);
		hl.hdr.type_off = bswap_32(hl.hdr.type_off);
		hl.hdr.type_len = bswap_32(hl.hdr.type_len);
		hl.hdr.str_off = bswap_32(hl.hdr.str_off);
		hl.hdr.str_len = bswap_32(hl.hdr.str_len);
		hl.layout_off = bswap_32(hl.layout_off);
		hl.layout_len = bswap_32(hl.layout_len);
	}
	memcpy(buf, &hl, hdr_len);
	*data = buf;
	*size = total;
	return 0;
}
