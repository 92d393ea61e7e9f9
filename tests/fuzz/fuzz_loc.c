// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_loc - libFuzzer target for dw_loc_from_expr().
 *
 * Input: a 4-byte value size (signed), then 17-byte records of
 * (atom u8, number u64, number2 u64), little-endian, one Dwarf_Op each.
 * DW_OP_implicit_value gets number2 pointed at the input's remaining
 * bytes with the length clamped to them, as libdw would give it: the
 * target tests the mapping, not out-of-bounds reads libdw never makes.
 */
#include "dw_internal.h"

#include <dwarf.h>
#include <stdlib.h>
#include <string.h>

#define REC_SIZE 17
#define MAX_OPS 64

static uint64_t get_u64(const uint8_t *p)
{
	uint64_t v = 0;
	int i;

	for (i = 0; i < 8; i++)
		v |= (uint64_t)p[i] << (8 * i);
	return v;
}

static void check(const struct dw_loc *l)
{
	/* Invariants a caller relies on: a reason exactly when NONE. */
	if ((l->kind == DW_LOC_NONE) != (l->reason != DW_MISS_NONE))
		abort();
	if (l->reason >= DW_MISS_NR || l->kind > DW_LOC_ADDR)
		abort();
	if (l->kind == DW_LOC_NONE && (l->reg || l->reg2 || l->offset || l->value))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len)
{
	Dwarf_Op ops[MAX_OPS];
	struct dw_loc out;
	size_t nops = 0, pos = 4;
	int32_t size;

	if (len < 4)
		return 0;
	memcpy(&size, data, 4);
	while (pos + REC_SIZE <= len && nops < MAX_OPS) {
		Dwarf_Op *op = &ops[nops++];
		size_t rest;

		memset(op, 0, sizeof(*op));
		op->atom = data[pos];
		op->number = get_u64(data + pos + 1);
		op->number2 = get_u64(data + pos + 9);
		op->offset = pos;
		pos += REC_SIZE;
		if (op->atom == DW_OP_implicit_value) {
			rest = len - pos;
			if (op->number > rest)
				op->number = rest;
			op->number2 = (uintptr_t)(data + pos);
		}
	}
	dw_loc_from_expr(ops, nops, size, &out);
	check(&out);
	return 0;
}
