/* SPDX-License-Identifier: GPL-2.0 */
/* sites_merged.h - merged-layout LOCSEC entries as struct site (sites.h). */
#ifndef BTFENC_CMD_SITES_MERGED_H
#define BTFENC_CMD_SITES_MERGED_H

#include "sites.h"

/* Decodes merged-layout entry @loc into @out. */
void site_decode_merged(const struct btf *btf, const struct btf_loc_merged *loc, struct site *out);
/* How many of @loc's parameters are reg + offset or frame base slots. */
uint32_t site_merged_only_params(const struct btf *btf, const struct btf_loc_merged *loc);
/* Calls @fn for each entry of merged-layout LOCSEC @locsec, in order. */
int sites_merged_for_each(const struct btf *btf, const struct btf_type *locsec,
			  int (*fn)(const struct site *s, void *ctx), void *ctx);

#endif /* BTFENC_CMD_SITES_MERGED_H */
