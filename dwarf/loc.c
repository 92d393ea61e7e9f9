// SPDX-License-Identifier: GPL-2.0
/*
 * loc.c - one DWARF location expression, already chosen for the site
 * address, mapped to a struct dw_loc.
 *
 * Only the shapes a tracer can evaluate from a pt_regs snapshot are kept:
 *
 *   DW_OP_reg5                           -> REG 5
 *   DW_OP_breg7 16                       -> DEREF 7+16 (memory at rsp+16)
 *   DW_OP_breg3 0; DW_OP_stack_value     -> REG 3 (the value is rbx)
 *   DW_OP_breg3 8; DW_OP_stack_value     -> REG_OFF 3+8 (the value is rbx+8)
 *   DW_OP_lit3; DW_OP_stack_value        -> CONST 3
 *   DW_OP_implicit_value 4 <bytes>       -> CONST (little-endian bytes)
 *   DW_OP_addr X; DW_OP_stack_value      -> ADDR X
 *   DW_OP_fbreg -20                      -> FBREG -20 (caller resolves)
 *   DW_OP_reg5; DW_OP_piece 8;
 *   DW_OP_reg4; DW_OP_piece 8            -> REG_PAIR 5, 4 (16-byte struct)
 *   DW_OP_breg0 0; DW_OP_const4u 0xffffffff;
 *   DW_OP_and; DW_OP_stack_value         -> REG 0 (for a value of <= 4 bytes)
 *
 * Everything else is DW_LOC_NONE with the reason that blocked it, so
 * `stats` can say what coverage is lost to what.  Pure: it reads nothing
 * but @ops, which is what makes it fuzzable.
 */
#include "dw_internal.h"

#include <dwarf.h>
#include <string.h>

/* A miss keeps only the size: stale register fields would defeat dedup. */
static void loc_miss(struct dw_loc *out, enum dw_loc_miss why)
{
	int8_t size = out->size;

	memset(out, 0, sizeof(*out));
	out->kind = DW_LOC_NONE;
	out->size = size;
	out->reason = why;
}

static bool fits_s32(int64_t v)
{
	return v >= INT32_MIN && v <= INT32_MAX;
}

static bool size_ok(int size)
{
	int64_t abs = size < 0 ? -(int64_t)size : size;

	return abs == 1 || abs == 2 || abs == 4 || abs == 8;
}

/* DW_OP_reg0..31 / DW_OP_regx: the value is in a register. */
static bool op_reg(const Dwarf_Op *op, uint16_t *reg)
{
	if (op->atom >= DW_OP_reg0 && op->atom <= DW_OP_reg31) {
		*reg = op->atom - DW_OP_reg0;
		return true;
	}
	if (op->atom == DW_OP_regx && op->number <= UINT16_MAX) {
		*reg = op->number;
		return true;
	}
	return false;
}

/* DW_OP_breg0..31 off / DW_OP_bregx reg off: register plus offset. */
static bool op_breg(const Dwarf_Op *op, uint16_t *reg, int32_t *off)
{
	int64_t o;

	if (op->atom >= DW_OP_breg0 && op->atom <= DW_OP_breg31) {
		*reg = op->atom - DW_OP_breg0;
		o = (int64_t)op->number;
	} else if (op->atom == DW_OP_bregx && op->number <= UINT16_MAX) {
		*reg = op->number;
		o = (int64_t)op->number2;
	} else {
		return false;
	}
	if (!fits_s32(o))
		return false;
	*off = o;
	return true;
}

/*
 * Constant-pushing ops.  libdw sign-extends the signed forms into
 * op->number already; narrowing again here keeps the op's own width
 * authoritative whatever the caller put in the upper bits.
 */
static bool op_const(const Dwarf_Op *op, uint64_t *val)
{
	if (op->atom >= DW_OP_lit0 && op->atom <= DW_OP_lit31) {
		*val = op->atom - DW_OP_lit0;
		return true;
	}
	switch (op->atom) {
	case DW_OP_const1u: *val = (uint8_t)op->number; return true;
	case DW_OP_const1s: *val = (int64_t)(int8_t)op->number; return true;
	case DW_OP_const2u: *val = (uint16_t)op->number; return true;
	case DW_OP_const2s: *val = (int64_t)(int16_t)op->number; return true;
	case DW_OP_const4u: *val = (uint32_t)op->number; return true;
	case DW_OP_const4s: *val = (int64_t)(int32_t)op->number; return true;
	case DW_OP_const8u:
	case DW_OP_const8s:
	case DW_OP_constu:
	case DW_OP_consts:
		*val = op->number;
		return true;
	}
	return false;
}

/*
 * DW_OP_implicit_value: number = length, number2 = pointer to the bytes.
 * That is not libdw's raw form (its number2 points at the ULEB length);
 * sites.c normalizes each op through dwarf_getlocation_implicit_value().
 */
static void map_implicit_value(const Dwarf_Op *op, struct dw_loc *out)
{
	const uint8_t *data = (const uint8_t *)(uintptr_t)op->number2;
	uint64_t v = 0;
	size_t i;

	if (op->number > 8)
		return loc_miss(out, DW_MISS_TOO_BIG);
	if (op->number == 0 || !data)
		return loc_miss(out, DW_MISS_BAD_DWARF);
	for (i = 0; i < op->number; i++)
		v |= (uint64_t)data[i] << (8 * i);
	out->kind = DW_LOC_CONST;
	out->value = v;
}

/* A single-op expression: a location, not a value. */
static void map_one(const Dwarf_Op *op, struct dw_loc *out)
{
	int64_t o;

	if (op_reg(op, &out->reg)) {
		out->kind = DW_LOC_REG;
	} else if (op_breg(op, &out->reg, &out->offset)) {
		out->kind = DW_LOC_DEREF;
	} else if (op->atom == DW_OP_fbreg && fits_s32(o = (int64_t)op->number)) {
		out->kind = DW_LOC_FBREG;
		out->offset = o;
	} else if (op->atom == DW_OP_implicit_value) {
		map_implicit_value(op, out);
	} else {
		/* DW_OP_addr alone is memory at a fixed address: no layout has it. */
		loc_miss(out, DW_MISS_COMPUTED);
	}
}

/* "<op>; DW_OP_stack_value": the op computes the value itself. */
static void map_value(const Dwarf_Op *op, struct dw_loc *out)
{
	if (op_breg(op, &out->reg, &out->offset)) {
		out->kind = out->offset ? DW_LOC_REG_OFF : DW_LOC_REG;
	} else if (op_const(op, &out->value)) {
		out->kind = DW_LOC_CONST;
	} else if (op->atom == DW_OP_addr) {
		out->kind = DW_LOC_ADDR;
		out->value = op->number;
	} else {
		loc_miss(out, DW_MISS_COMPUTED);
	}
}

/* Width in bits of a DW_OP_const* mask of the low 8, 16 or 32 bits, else 0. */
static unsigned int mask_bits(const Dwarf_Op *op)
{
	uint64_t m;

	if (!op_const(op, &m))
		return 0;
	return m == 0xff ? 8 : m == 0xffff ? 16 : m == 0xffffffffull ? 32 : 0;
}

/*
 * gcc zero-extends narrow values it keeps in a wider place:
 *
 *   DW_OP_breg0 0; DW_OP_const4u 0xffffffff; DW_OP_and; DW_OP_stack_value
 *   DW_OP_breg5 96; DW_OP_deref; DW_OP_const4u 0xffffffff; DW_OP_and; ...
 *
 * The value is the low bytes of the register (or of little-endian memory):
 * a tracer reading that many bytes unsigned gets it exactly.  A mask at
 * least as wide as the value changes nothing and the value keeps its own
 * size; a narrower one becomes the (unsigned) size.
 */
static bool map_masked(const Dwarf_Op *ops, size_t nops, int size, struct dw_loc *out)
{
	int64_t abs = size < 0 ? -(int64_t)size : size;
	unsigned int bits;

	if ((nops != 4 && nops != 5) || ops[nops - 1].atom != DW_OP_stack_value ||
	    ops[nops - 2].atom != DW_OP_and)
		return false;
	bits = mask_bits(&ops[nops - 3]);
	if (!bits)
		return false;
	if (nops == 4) {
		map_value(&ops[0], out);
		if (out->kind != DW_LOC_REG && out->kind != DW_LOC_REG_OFF)
			return false;
	} else {
		if (ops[1].atom != DW_OP_deref || !op_breg(&ops[0], &out->reg, &out->offset))
			return false;
		out->kind = DW_LOC_DEREF;
	}
	if (abs * 8 > bits)
		out->size = bits / 8;
	return true;
}

/* An expression without pieces. */
static void map_simple(const Dwarf_Op *ops, size_t nops, int size, struct dw_loc *out)
{
	if (nops == 0)
		return loc_miss(out, DW_MISS_EMPTY_EXPR);
	if (nops == 1)
		return map_one(&ops[0], out);
	if (nops == 2 && ops[1].atom == DW_OP_stack_value)
		return map_value(&ops[0], out);
	if (!map_masked(ops, nops, size, out))
		loc_miss(out, DW_MISS_COMPUTED);
}

/*
 * DW_OP_piece sequences.  Two register pieces, the low one a whole
 * register's worth, are a value split over two registers (a 16-byte
 * struct in rdi:rsi, an __int128 in rax:rdx): REG_PAIR, each half of the
 * first piece's size.  One piece covering the whole value is just its
 * location.  Anything else (a missing piece, memory pieces, bit pieces,
 * three or more pieces) is not representable.
 */
static void map_pieces(const Dwarf_Op *ops, size_t nops, int size, struct dw_loc *out)
{
	struct dw_loc part[2] = {};
	uint64_t psize[2], abs = size < 0 ? -(int64_t)size : size;
	size_t i, start = 0, nparts = 0;

	for (i = 0; i < nops; i++) {
		if (ops[i].atom == DW_OP_bit_piece)
			return loc_miss(out, DW_MISS_PIECES);
		if (ops[i].atom != DW_OP_piece)
			continue;
		/* An empty piece is a part that was optimized out. */
		if (nparts == 2 || i == start)
			return loc_miss(out, DW_MISS_PIECES);
		psize[nparts] = ops[i].number;
		map_simple(ops + start, i - start, psize[nparts] <= 8 ? (int)psize[nparts] : 0,
			   &part[nparts]);
		nparts++;
		start = i + 1;
	}
	if (start != nops)
		return loc_miss(out, DW_MISS_BAD_DWARF);

	if (nparts == 1) {
		int8_t keep = out->size;

		if (psize[0] < abs)
			return loc_miss(out, DW_MISS_PIECES);
		*out = part[0];
		/* A masked part may have narrowed its size. */
		out->size = part[0].size ? part[0].size : keep;
		return;
	}
	if (part[0].kind != DW_LOC_REG || part[1].kind != DW_LOC_REG ||
	    !size_ok(psize[0]) || psize[1] > psize[0] || psize[0] + psize[1] != abs)
		return loc_miss(out, DW_MISS_PIECES);
	out->kind = DW_LOC_REG_PAIR;
	out->reg = part[0].reg;
	out->reg2 = part[1].reg;
	out->size = psize[0];
}

/*
 * A constant in the parameter's own width and sign (gcc writes 200 for an
 * unsigned char as DW_OP_const1s -56): one value per meaning, so equal
 * LOC_PARAMs deduplicate.
 */
static uint64_t fit_const(uint64_t v, int size)
{
	unsigned int bits;

	if (!size_ok(size) || size == 8 || size == -8)
		return v;
	bits = 8 * (size < 0 ? -size : size);
	v &= (1ull << bits) - 1;
	if (size < 0 && (v >> (bits - 1)) & 1)
		v |= ~0ull << bits;
	return v;
}

/* An op anywhere in the expression that decides the miss reason. */
static enum dw_loc_miss blocking_op(const Dwarf_Op *ops, size_t nops)
{
	size_t i;

	for (i = 0; i < nops; i++) {
		switch (ops[i].atom) {
		case DW_OP_entry_value:
		case DW_OP_GNU_entry_value:
			return DW_MISS_ENTRY_VALUE;
		case DW_OP_GNU_parameter_ref:
			return DW_MISS_PARAMETER_REF;
		case DW_OP_implicit_pointer:
		case DW_OP_GNU_implicit_pointer:
			return DW_MISS_IMPLICIT_POINTER;
		}
	}
	return DW_MISS_NONE;
}

static bool has_pieces(const Dwarf_Op *ops, size_t nops)
{
	size_t i;

	for (i = 0; i < nops; i++)
		if (ops[i].atom == DW_OP_piece || ops[i].atom == DW_OP_bit_piece)
			return true;
	return false;
}

void dw_loc_from_expr(const Dwarf_Op *ops, size_t nops, int size, struct dw_loc *out)
{
	enum dw_loc_miss why;

	memset(out, 0, sizeof(*out));
	out->size = size >= INT8_MIN && size <= INT8_MAX ? size : 0;

	why = blocking_op(ops, nops);
	if (why != DW_MISS_NONE)
		return loc_miss(out, why);
	if (has_pieces(ops, nops))
		map_pieces(ops, nops, size, out);
	else
		map_simple(ops, nops, size, out);

	if (out->kind == DW_LOC_CONST)
		out->value = fit_const(out->value, size);

	/*
	 * A tracer reads 1, 2, 4 or 8 bytes per LOC_PARAM; only a register
	 * pair (its own per-half size) can carry anything wider.
	 */
	if (out->kind != DW_LOC_NONE && out->kind != DW_LOC_REG_PAIR && !size_ok(size))
		loc_miss(out, size > 8 || size < -8 ? DW_MISS_TOO_BIG : DW_MISS_BAD_SIZE);
}
