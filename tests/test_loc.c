// SPDX-License-Identifier: GPL-2.0
/*
 * test_loc - dw_loc_from_expr() against hand-built expressions, one row
 * per DESIGN.md section 4 rule: what a tracer gets for each shape of
 * DWARF location, and why it gets nothing for the ones it cannot use.
 */
#include "dw_internal.h"

#include <dwarf.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#define MAX_OPS 8

struct loc_case {
	const char *name;
	Dwarf_Op ops[MAX_OPS];
	size_t nops;
	int size;
	struct dw_loc want;
};

#define OP(a) { .atom = (a) }
#define OP1(a, n) { .atom = (a), .number = (Dwarf_Word)(n) }
#define OP2(a, n, m) { .atom = (a), .number = (Dwarf_Word)(n), .number2 = (Dwarf_Word)(m) }

#define MISS(why, sz) { .kind = DW_LOC_NONE, .reason = (why), .size = (sz) }

static const uint8_t bytes4[] = { 0x78, 0x56, 0x34, 0x12 };
static const uint8_t bytes8[] = { 1, 2, 3, 4, 5, 6, 7, 0x88 };
static const uint8_t bytes16[16] = { 1 };

#define IMPL(buf) OP2(DW_OP_implicit_value, sizeof(buf), (uintptr_t)(buf))

static const struct loc_case cases[] = {
	/* Registers. */
	{ "reg5", { OP(DW_OP_reg5) }, 1, 8,
	  { .kind = DW_LOC_REG, .reg = 5, .size = 8 } },
	{ "reg0 signed int", { OP(DW_OP_reg0) }, 1, -4,
	  { .kind = DW_LOC_REG, .reg = 0, .size = -4 } },
	{ "reg31", { OP(DW_OP_reg31) }, 1, 2,
	  { .kind = DW_LOC_REG, .reg = 31, .size = 2 } },
	{ "regx 33", { OP1(DW_OP_regx, 33) }, 1, 8,
	  { .kind = DW_LOC_REG, .reg = 33, .size = 8 } },
	{ "regx too large", { OP1(DW_OP_regx, 0x10000) }, 1, 8,
	  MISS(DW_MISS_COMPUTED, 8) },

	/* Memory at register + offset. */
	{ "breg7 16", { OP1(DW_OP_breg7, 16) }, 1, 8,
	  { .kind = DW_LOC_DEREF, .reg = 7, .offset = 16, .size = 8 } },
	{ "breg6 -24", { OP1(DW_OP_breg6, -24) }, 1, -4,
	  { .kind = DW_LOC_DEREF, .reg = 6, .offset = -24, .size = -4 } },
	{ "bregx 40 -8", { OP2(DW_OP_bregx, 40, -8) }, 1, 1,
	  { .kind = DW_LOC_DEREF, .reg = 40, .offset = -8, .size = 1 } },
	{ "breg offset beyond s32", { OP1(DW_OP_breg7, 0x100000000ull) }, 1, 8,
	  MISS(DW_MISS_COMPUTED, 8) },

	/* Value is a register (plus offset). */
	{ "breg3 0 stack_value", { OP1(DW_OP_breg3, 0), OP(DW_OP_stack_value) }, 2, 8,
	  { .kind = DW_LOC_REG, .reg = 3, .size = 8 } },
	{ "breg3 8 stack_value", { OP1(DW_OP_breg3, 8), OP(DW_OP_stack_value) }, 2, 8,
	  { .kind = DW_LOC_REG_OFF, .reg = 3, .offset = 8, .size = 8 } },
	{ "bregx 17 -1 stack_value", { OP2(DW_OP_bregx, 17, -1), OP(DW_OP_stack_value) }, 2, -8,
	  { .kind = DW_LOC_REG_OFF, .reg = 17, .offset = -1, .size = -8 } },

	/* Constants. */
	{ "lit0", { OP(DW_OP_lit0), OP(DW_OP_stack_value) }, 2, -4,
	  { .kind = DW_LOC_CONST, .value = 0, .size = -4 } },
	{ "lit31", { OP(DW_OP_lit31), OP(DW_OP_stack_value) }, 2, 4,
	  { .kind = DW_LOC_CONST, .value = 31, .size = 4 } },
	{ "const1u 200", { OP1(DW_OP_const1u, 200), OP(DW_OP_stack_value) }, 2, 1,
	  { .kind = DW_LOC_CONST, .value = 200, .size = 1 } },
	{ "const1s -1", { OP1(DW_OP_const1s, 0xff), OP(DW_OP_stack_value) }, 2, -4,
	  { .kind = DW_LOC_CONST, .value = UINT64_MAX, .size = -4 } },
	{ "const1s -56 for an unsigned char is 200", { OP1(DW_OP_const1s, -56), OP(DW_OP_stack_value) }, 2, 1,
	  { .kind = DW_LOC_CONST, .value = 200, .size = 1 } },
	{ "consts 0xff for a signed char is -1", { OP1(DW_OP_constu, 0xff), OP(DW_OP_stack_value) }, 2, -1,
	  { .kind = DW_LOC_CONST, .value = UINT64_MAX, .size = -1 } },
	{ "const4u 0x1ffffffff for an int keeps 32 bits", { OP1(DW_OP_constu, 0x1ffffffffull), OP(DW_OP_stack_value) }, 2, 4,
	  { .kind = DW_LOC_CONST, .value = 0xffffffffull, .size = 4 } },
	{ "const2u 0xfffe", { OP1(DW_OP_const2u, 0xfffe), OP(DW_OP_stack_value) }, 2, 2,
	  { .kind = DW_LOC_CONST, .value = 0xfffe, .size = 2 } },
	{ "const2s -2", { OP1(DW_OP_const2s, 0xfffe), OP(DW_OP_stack_value) }, 2, -2,
	  { .kind = DW_LOC_CONST, .value = (uint64_t)-2, .size = -2 } },
	{ "const4u", { OP1(DW_OP_const4u, 0x80000000u), OP(DW_OP_stack_value) }, 2, 4,
	  { .kind = DW_LOC_CONST, .value = 0x80000000u, .size = 4 } },
	{ "const4s", { OP1(DW_OP_const4s, 0x80000000u), OP(DW_OP_stack_value) }, 2, -8,
	  { .kind = DW_LOC_CONST, .value = (uint64_t)(int64_t)INT32_MIN, .size = -8 } },
	{ "const8u", { OP1(DW_OP_const8u, 0x123456789abcdef0ull), OP(DW_OP_stack_value) }, 2, 8,
	  { .kind = DW_LOC_CONST, .value = 0x123456789abcdef0ull, .size = 8 } },
	{ "const8s", { OP1(DW_OP_const8s, -5), OP(DW_OP_stack_value) }, 2, -8,
	  { .kind = DW_LOC_CONST, .value = (uint64_t)-5, .size = -8 } },
	{ "constu", { OP1(DW_OP_constu, 1000), OP(DW_OP_stack_value) }, 2, 8,
	  { .kind = DW_LOC_CONST, .value = 1000, .size = 8 } },
	{ "consts -1000", { OP1(DW_OP_consts, -1000), OP(DW_OP_stack_value) }, 2, -8,
	  { .kind = DW_LOC_CONST, .value = (uint64_t)-1000, .size = -8 } },
	{ "implicit_value 4", { IMPL(bytes4) }, 1, 4,
	  { .kind = DW_LOC_CONST, .value = 0x12345678, .size = 4 } },
	{ "implicit_value 8", { IMPL(bytes8) }, 1, 8,
	  { .kind = DW_LOC_CONST, .value = 0x8807060504030201ull, .size = 8 } },
	{ "implicit_value 16", { IMPL(bytes16) }, 1, 16,
	  MISS(DW_MISS_TOO_BIG, 16) },
	{ "implicit_value 0 bytes", { OP2(DW_OP_implicit_value, 0, (uintptr_t)bytes4) }, 1, 4,
	  MISS(DW_MISS_BAD_DWARF, 4) },
	{ "constant without stack_value", { OP(DW_OP_lit1) }, 1, 4,
	  MISS(DW_MISS_COMPUTED, 4) },

	/* Addresses. */
	{ "addr stack_value", { OP1(DW_OP_addr, 0xffffffff81000000ull), OP(DW_OP_stack_value) }, 2, 8,
	  { .kind = DW_LOC_ADDR, .value = 0xffffffff81000000ull, .size = 8 } },
	{ "addr alone (memory at X)", { OP1(DW_OP_addr, 0x1000) }, 1, 8,
	  MISS(DW_MISS_COMPUTED, 8) },

	/* Frame base. */
	{ "fbreg -20", { OP1(DW_OP_fbreg, -20) }, 1, -4,
	  { .kind = DW_LOC_FBREG, .offset = -20, .size = -4 } },
	{ "fbreg stack_value", { OP1(DW_OP_fbreg, -20), OP(DW_OP_stack_value) }, 2, 8,
	  MISS(DW_MISS_COMPUTED, 8) },

	/* Pieces. */
	{ "16-byte struct in rdi:rsi",
	  { OP(DW_OP_reg5), OP1(DW_OP_piece, 8), OP(DW_OP_reg4), OP1(DW_OP_piece, 8) }, 4, 16,
	  { .kind = DW_LOC_REG_PAIR, .reg = 5, .reg2 = 4, .size = 8 } },
	{ "12-byte struct in regx pair",
	  { OP1(DW_OP_regx, 3), OP1(DW_OP_piece, 8), OP1(DW_OP_regx, 2), OP1(DW_OP_piece, 4) }, 4, 12,
	  { .kind = DW_LOC_REG_PAIR, .reg = 3, .reg2 = 2, .size = 8 } },
	{ "one register piece covering the value", { OP(DW_OP_reg1), OP1(DW_OP_piece, 8) }, 2, 8,
	  { .kind = DW_LOC_REG, .reg = 1, .size = 8 } },
	{ "one piece covering a signed int", { OP(DW_OP_reg1), OP1(DW_OP_piece, 4) }, 2, -4,
	  { .kind = DW_LOC_REG, .reg = 1, .size = -4 } },
	{ "one piece, part of the value", { OP(DW_OP_reg1), OP1(DW_OP_piece, 8) }, 2, 16,
	  MISS(DW_MISS_PIECES, 16) },
	{ "register and memory piece",
	  { OP(DW_OP_reg5), OP1(DW_OP_piece, 8), OP1(DW_OP_breg7, 8), OP1(DW_OP_piece, 8) }, 4, 16,
	  MISS(DW_MISS_PIECES, 16) },
	{ "optimized-out piece",
	  { OP(DW_OP_reg5), OP1(DW_OP_piece, 8), OP1(DW_OP_piece, 8) }, 3, 16,
	  MISS(DW_MISS_PIECES, 16) },
	{ "three pieces",
	  { OP(DW_OP_reg5), OP1(DW_OP_piece, 8), OP(DW_OP_reg4), OP1(DW_OP_piece, 8),
	    OP(DW_OP_reg1), OP1(DW_OP_piece, 8) }, 6, 24,
	  MISS(DW_MISS_PIECES, 24) },
	{ "pair not covering the value",
	  { OP(DW_OP_reg5), OP1(DW_OP_piece, 4), OP(DW_OP_reg4), OP1(DW_OP_piece, 4) }, 4, 16,
	  MISS(DW_MISS_PIECES, 16) },
	{ "bit piece", { OP(DW_OP_reg5), OP2(DW_OP_bit_piece, 3, 0) }, 2, 1,
	  MISS(DW_MISS_PIECES, 1) },
	{ "ops after the last piece", { OP(DW_OP_reg5), OP1(DW_OP_piece, 8), OP(DW_OP_reg4) }, 3, 8,
	  MISS(DW_MISS_BAD_DWARF, 8) },

	/* Not recoverable, by reason. */
	{ "entry_value", { OP1(DW_OP_entry_value, 1), OP(DW_OP_stack_value) }, 2, 8,
	  MISS(DW_MISS_ENTRY_VALUE, 8) },
	{ "GNU_entry_value inside arithmetic",
	  { OP1(DW_OP_breg3, 0), OP1(DW_OP_GNU_entry_value, 1), OP(DW_OP_plus), OP(DW_OP_stack_value) }, 4, 8,
	  MISS(DW_MISS_ENTRY_VALUE, 8) },
	{ "GNU_parameter_ref", { OP1(DW_OP_GNU_parameter_ref, 0x1234), OP(DW_OP_stack_value) }, 2, 4,
	  MISS(DW_MISS_PARAMETER_REF, 4) },
	{ "implicit_pointer", { OP2(DW_OP_implicit_pointer, 0x1234, 0) }, 1, 8,
	  MISS(DW_MISS_IMPLICIT_POINTER, 8) },
	{ "GNU_implicit_pointer", { OP2(DW_OP_GNU_implicit_pointer, 0x1234, 8) }, 1, 8,
	  MISS(DW_MISS_IMPLICIT_POINTER, 8) },
	{ "empty", { }, 0, 8, MISS(DW_MISS_EMPTY_EXPR, 8) },
	{ "arithmetic",
	  { OP1(DW_OP_breg5, 0), OP1(DW_OP_breg4, 0), OP(DW_OP_plus), OP(DW_OP_stack_value) }, 4, 8,
	  MISS(DW_MISS_COMPUTED, 8) },
	{ "deref chain", { OP1(DW_OP_breg5, 8), OP(DW_OP_deref) }, 2, 8,
	  MISS(DW_MISS_COMPUTED, 8) },
	{ "reg stack_value (malformed)", { OP(DW_OP_reg5), OP(DW_OP_stack_value) }, 2, 8,
	  MISS(DW_MISS_COMPUTED, 8) },
	{ "call_frame_cfa", { OP(DW_OP_call_frame_cfa) }, 1, 8,
	  MISS(DW_MISS_COMPUTED, 8) },

	/* Zero-extended narrow values. */
	{ "int in eax, masked", { OP1(DW_OP_breg0, 0), OP1(DW_OP_const4u, 0xffffffffu), OP(DW_OP_and),
	  OP(DW_OP_stack_value) }, 4, -4, { .kind = DW_LOC_REG, .reg = 0, .size = -4 } },
	{ "u16 in si, masked", { OP1(DW_OP_breg4, 0), OP1(DW_OP_const2u, 0xffff), OP(DW_OP_and),
	  OP(DW_OP_stack_value) }, 4, 2, { .kind = DW_LOC_REG, .reg = 4, .size = 2 } },
	{ "u32 field in memory, masked", { OP1(DW_OP_breg5, 96), OP(DW_OP_deref),
	  OP1(DW_OP_const4u, 0xffffffffu), OP(DW_OP_and), OP(DW_OP_stack_value) }, 5, 4,
	  { .kind = DW_LOC_DEREF, .reg = 5, .offset = 96, .size = 4 } },
	{ "long holding a zero-extended u32 is 4 bytes unsigned", { OP1(DW_OP_breg0, 0),
	  OP1(DW_OP_const4u, 0xffffffffu), OP(DW_OP_and), OP(DW_OP_stack_value) }, 4, -8,
	  { .kind = DW_LOC_REG, .reg = 0, .size = 4 } },
	{ "u8 of a u32 field in memory", { OP1(DW_OP_breg5, 8), OP(DW_OP_deref),
	  OP1(DW_OP_const1u, 0xff), OP(DW_OP_and), OP(DW_OP_stack_value) }, 5, 4,
	  { .kind = DW_LOC_DEREF, .reg = 5, .offset = 8, .size = 1 } },
	{ "masked register plus offset", { OP1(DW_OP_breg3, 4), OP1(DW_OP_const4u, 0xffffffffu),
	  OP(DW_OP_and), OP(DW_OP_stack_value) }, 4, 8,
	  { .kind = DW_LOC_REG_OFF, .reg = 3, .offset = 4, .size = 4 } },
	{ "masked piece covering the value", { OP1(DW_OP_breg0, 0), OP1(DW_OP_const4u, 0xffffffffu),
	  OP(DW_OP_and), OP(DW_OP_stack_value), OP1(DW_OP_piece, 8) }, 5, 8,
	  { .kind = DW_LOC_REG, .reg = 0, .size = 4 } },
	{ "mask that is not low bits", { OP1(DW_OP_breg0, 0), OP1(DW_OP_const4u, 0xfffffff0u), OP(DW_OP_and),
	  OP(DW_OP_stack_value) }, 4, 4, MISS(DW_MISS_COMPUTED, 4) },
	{ "mask on a register location", { OP(DW_OP_reg0), OP1(DW_OP_const4u, 0xffffffffu), OP(DW_OP_and),
	  OP(DW_OP_stack_value) }, 4, 4, MISS(DW_MISS_COMPUTED, 4) },
	{ "deref without mask", { OP1(DW_OP_breg5, 8), OP(DW_OP_deref), OP(DW_OP_lit0), OP(DW_OP_plus),
	  OP(DW_OP_stack_value) }, 5, 4, MISS(DW_MISS_COMPUTED, 4) },

	/* Sizes a LOC_PARAM cannot carry. */
	{ "register, 3-byte struct", { OP(DW_OP_reg5) }, 1, 3,
	  MISS(DW_MISS_BAD_SIZE, 3) },
	{ "register, unknown size", { OP(DW_OP_reg5) }, 1, 0,
	  MISS(DW_MISS_BAD_SIZE, 0) },
	{ "memory, 16-byte struct", { OP1(DW_OP_breg7, 8) }, 1, 16,
	  MISS(DW_MISS_TOO_BIG, 16) },
	{ "constant, 12-byte struct", { OP(DW_OP_lit0), OP(DW_OP_stack_value) }, 2, 12,
	  MISS(DW_MISS_TOO_BIG, 12) },
	{ "size beyond int8 is unknown", { OP1(DW_OP_breg7, 8) }, 1, 4096,
	  MISS(DW_MISS_TOO_BIG, 0) },
	{ "most negative size", { OP(DW_OP_reg0) }, 1, INT32_MIN,
	  MISS(DW_MISS_TOO_BIG, 0) },
	{ "most negative size, pieces", { OP(DW_OP_reg0), OP1(DW_OP_piece, 8) }, 2, INT32_MIN,
	  MISS(DW_MISS_PIECES, 0) },
};

static void print_loc(const char *what, const struct dw_loc *l)
{
	fprintf(stderr, "  %s: kind %u reason %u size %d reg %u reg2 %u offset %" PRId32
		" value 0x%" PRIx64 "\n", what, l->kind, l->reason, l->size, l->reg, l->reg2,
		l->offset, l->value);
}

static bool loc_equal(const struct dw_loc *a, const struct dw_loc *b)
{
	return a->kind == b->kind && a->reason == b->reason && a->size == b->size &&
	       a->reg == b->reg && a->reg2 == b->reg2 && a->offset == b->offset &&
	       a->value == b->value;
}

int main(void)
{
	size_t i, n = sizeof(cases) / sizeof(cases[0]);
	unsigned int failed = 0;

	for (i = 0; i < n; i++) {
		const struct loc_case *c = &cases[i];
		struct dw_loc got;

		/* Garbage first: every field must be written. */
		memset(&got, 0xa5, sizeof(got));
		dw_loc_from_expr(c->ops, c->nops, c->size, &got);
		if (loc_equal(&got, &c->want))
			continue;
		fprintf(stderr, "FAIL %s\n", c->name);
		print_loc("want", &c->want);
		print_loc("got ", &got);
		failed++;
	}
	printf("%zu cases, %u failed\n", n, failed);
	return failed ? 1 : 0;
}
