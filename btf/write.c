// SPDX-License-Identifier: GPL-2.0
/* write.c - serialize a BTF to a raw .BTF image, in either byte order. */
#include "btf_internal.h"

#include <byteswap.h>
#include <stdlib.h>
#include <string.h>

int btf__write_raw(const struct btf *btf, bool swap, void **data, size_t *size)
{
	struct btf_header hdr = {
		.magic = BTF_MAGIC,
		.version = BTF_VERSION,
		.hdr_len = sizeof(hdr),
		.type_off = 0,
		.type_len = btf->types_len,
		.str_off = btf->types_len,
		.str_len = btf->strs->len,
	};
	size_t total = sizeof(hdr) + btf->types_len + btf->strs->len;
	char *buf, *types;
	uint32_t i;

	if (total > UINT32_MAX)
		return -E2BIG;
	buf = malloc(total ? total : 1);
	if (!buf)
		return -ENOMEM;
	types = buf + sizeof(hdr);
	/* An empty split BTF may have no buffers at all: memcpy(NULL) is UB. */
	if (btf->types_len)
		memcpy(types, btf->types, btf->types_len);
	if (btf->strs->len)
		memcpy(types + btf->types_len, btf->strs->data, btf->strs->len);

	if (swap) {
		for (i = 0; i < btf->nr_types; i++) {
			struct btf_type *t = (struct btf_type *)(types + btf->type_offs[i]);

			/* The body is swapped while the header is still native. */
			btf_bswap_type_body(t);
			btf_bswap_type_hdr(t);
		}
		hdr.magic = bswap_16(hdr.magic);
		hdr.hdr_len = bswap_32(hdr.hdr_len);
		hdr.type_off = bswap_32(hdr.type_off);
		hdr.type_len = bswap_32(hdr.type_len);
		hdr.str_off = bswap_32(hdr.str_off);
		hdr.str_len = bswap_32(hdr.str_len);
	}
	memcpy(buf, &hdr, sizeof(hdr));
	*data = buf;
	*size = total;
	return 0;
}
