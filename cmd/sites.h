/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sites.h - reading inline sites back from BTF (seed layout): what
 * `inlines` lists and `stats` counts, the way a tracer would read them.
 */
#ifndef BTFENC_CMD_SITES_H
#define BTFENC_CMD_SITES_H

#include "../btf/btf.h"

/* One parameter of a site, decoded from its LOC_PARAM(s). */
struct site_param {
	const char *name;
	/*
	 * SP_REG_OFF (value = reg + offset) and SP_FBREG (value in memory at
	 * the frame base + offset) come from the merged layout only.
	 */
	enum { SP_NONE, SP_REG, SP_DEREF, SP_CONST, SP_REG_PAIR, SP_REG_OFF, SP_FBREG } kind;
	int32_t size;     /* negative = signed */
	uint16_t reg, reg2;
	int32_t offset;
	uint64_t value;
	/*
	 * SP_CONST that seed 010's consumer adds the run-time text base to
	 * (pointer parameter, 8 bytes): value is relative to that base.
	 */
	bool relocated;
};

struct site {
	const char *name;  /* inlined function */
	uint32_t offset;   /* from the text base */
	uint32_t func_proto, loc_proto;
	uint32_t nr_params;
	struct site_param params[64];
	bool truncated;    /* more than 64 parameters */
	bool malformed;    /* LOC_PROTO does not fit the FUNC_PROTO */
};

/*
 * Calls @fn for every LOCSEC entry of every BTF in @chain[0..n), in
 * LOCSEC order.  Stops at a non-zero return and returns it.
 */
int sites_for_each(struct btf **chain, int n, int (*fn)(const struct site *s, void *ctx),
		   void *ctx);

/* Decodes entry @loc of a LOCSEC into @out. */
void site_decode(const struct btf *btf, const struct btf_loc *loc, struct site *out);

/* DWARF register number -> name for machine @em (EM_*; 0 = x86-64). */
const char *site_reg_name(int em, unsigned int reg, char *buf, size_t len);

#endif /* BTFENC_CMD_SITES_H */
