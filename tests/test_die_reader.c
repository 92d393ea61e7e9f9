// SPDX-License-Identifier: GPL-2.0
/*
 * test_die_reader FILE... - walks every DIE of every unit twice, with
 * dwarf/die.c's reader and with libdw, and checks that they agree: the
 * first child and the next sibling (same DIE or both none), every
 * attribute dwarf_getattrs() reports (name, form and value pointer, in
 * order, through dw_getattrs() and dw_attr()), an attribute the DIE lacks
 * (both none), and the name through dw_diename().  A member that
 * dw_member_attrs() reads from its bytes must give what libdw reads: the
 * name, the type attribute, the constants and the children flag.  The
 * encoder steps through DIEs only this way, so a disagreement is a wrong
 * BTF type.
 * Exit 0 pass, 1 fail, 2 unusable file.
 */
#include "../dwarf/dw_internal.h"

#include <dwarf.h>
#include <stdio.h>
#include <string.h>

static unsigned long failures, dies, attrs_seen, members, members_fast;

static void fail(Dwarf_Die *die, const char *what)
{
	if (failures++ < 20)
		fprintf(stderr, "FAIL: DIE 0x%llx: %s\n", (unsigned long long)dwarf_dieoffset(die),
			what);
}

struct attr_list {
	Dwarf_Attribute a[256];
	size_t n;
};

static int collect(Dwarf_Attribute *attr, void *arg)
{
	struct attr_list *l = arg;

	if (l->n < 256)
		l->a[l->n++] = *attr;
	return DWARF_CB_OK;
}

static bool same_attr(const Dwarf_Attribute *x, const Dwarf_Attribute *y)
{
	return x->code == y->code && x->form == y->form && x->valp == y->valp && x->cu == y->cu;
}

static void check_attrs(struct dw_cu_ctx *ctx, Dwarf_Die *die)
{
	struct attr_list lib = { .n = 0 }, ours = { .n = 0 };
	Dwarf_Attribute a;
	const char *n1, *n2;
	size_t i;

	if (dw_dieoffset(ctx, die) != dwarf_dieoffset(die))
		fail(die, "dw_dieoffset() differs");
	if (dwarf_getattrs(die, collect, &lib, 0) < 0)
		return; /* unreadable: the reader may only say so as well */
	if (dw_getattrs(ctx, die, collect, &ours) != 0 || ours.n != lib.n)
		fail(die, "dw_getattrs() lists other attributes");
	for (i = 0; i < lib.n; i++) {
		Dwarf_Die r1, r2, *d1, *d2;

		attrs_seen++;
		if (i < ours.n && !same_attr(&lib.a[i], &ours.a[i]))
			fail(die, "dw_getattrs() gives another attribute");
		/* A reference (or anything else): the same DIE as libdw's, or none. */
		d1 = dwarf_formref_die(&lib.a[i], &r1);
		d2 = dw_formref_die(ctx, &lib.a[i], &r2);
		if (!d1 != !d2 || (d1 && (r1.addr != r2.addr || r1.cu != r2.cu)))
			fail(die, "dw_formref_die() finds another DIE");
		/* dwarf_attr() finds the first of a name: skip later repeats. */
		if (dwarf_attr(die, lib.a[i].code, &a) && (a.valp != lib.a[i].valp))
			continue;
		if (!dw_attr(ctx, die, lib.a[i].code, &a) || !same_attr(&a, &lib.a[i]))
			fail(die, "dw_attr() finds another attribute");
		if (!dw_hasattr(ctx, die, lib.a[i].code))
			fail(die, "dw_hasattr() misses an attribute");
	}
	/* DW_AT_lo_user: no producer here uses it. */
	if (!dwarf_attr(die, DW_AT_lo_user, &a) && dw_attr(ctx, die, DW_AT_lo_user, &a))
		fail(die, "dw_attr() finds an attribute that is not there");
	if (dw_hasattr(ctx, die, DW_AT_lo_user) != (dwarf_hasattr(die, DW_AT_lo_user) == 1) ||
	    dw_hasattr(ctx, die, DW_AT_entry_pc) != (dwarf_hasattr(die, DW_AT_entry_pc) == 1))
		fail(die, "dw_hasattr() differs");
	n1 = dwarf_diename(die);
	n2 = dw_diename(ctx, die);
	if (n1 != n2 && (!n1 || !n2 || strcmp(n1, n2)))
		fail(die, "dw_diename() differs");
}

/* Whether libdw reads attribute @name of @die as the constant @val (if @has). */
static bool same_udata(Dwarf_Die *die, unsigned int name, bool has, uint64_t val)
{
	Dwarf_Attribute a;
	Dwarf_Word w;

	if (!dwarf_attr(die, name, &a))
		return !has;
	return has && dwarf_formudata(&a, &w) == 0 && w == val;
}

static void check_member(struct dw_cu_ctx *ctx, Dwarf_Die *die)
{
	struct dw_member_attrs m;
	Dwarf_Attribute a;
	bool has_type;

	members++;
	if (!dw_member_attrs(ctx, die, &m))
		return;
	members_fast++;
	if (m.name != dwarf_diename(die))
		fail(die, "dw_member_attrs() reads another name");
	has_type = dwarf_attr(die, DW_AT_type, &a) != NULL;
	if (has_type != (m.type.valp != NULL) || (has_type && !same_attr(&a, &m.type)))
		fail(die, "dw_member_attrs() reads another type");
	if (!same_udata(die, DW_AT_data_member_location, m.has_byte_off, m.byte_off) ||
	    !same_udata(die, DW_AT_bit_size, m.has_bit_size, m.bit_size) ||
	    !same_udata(die, DW_AT_data_bit_offset, m.has_data_bit_off, m.data_bit_off))
		fail(die, "dw_member_attrs() reads another constant");
	if (m.has_children != (dwarf_haschildren(die) == 1))
		fail(die, "dw_member_attrs() reads another children flag");
}

/* Checks @die and, depth first, everything below it. */
static void walk(struct dw_cu_ctx *ctx, Dwarf_Die *die, int depth)
{
	Dwarf_Die lib_child, our_child, lib_next, our_next;
	int lr, ours;

	for (;;) {
		dies++;
		check_attrs(ctx, die);
		if (dwarf_tag(die) == DW_TAG_member)
			check_member(ctx, die);
		lr = dwarf_child(die, &lib_child);
		ours = dw_child(ctx, die, &our_child);
		if (lr != ours || (lr == 0 && lib_child.addr != our_child.addr))
			fail(die, "dw_child() differs");
		if (lr == 0 && depth < 200)
			walk(ctx, &lib_child, depth + 1);
		our_next = *die;
		lr = dwarf_siblingof(die, &lib_next);
		ours = dw_sibling(ctx, &our_next);
		if (lr != ours || (lr == 0 && lib_next.addr != our_next.addr))
			fail(die, "dw_sibling() differs");
		if (lr < 0) {
			fail(die, "libdw cannot step to the next sibling");
			return;
		}
		if (lr != 0)
			return;
		*die = lib_next;
	}
}

static void log_line(void *ctx, const char *msg)
{
	fprintf(stderr, "%s\n", msg);
}

/*
 * The unit list dw_file_open() found (from the headers, read by itself
 * where it can) against libdw's own walk over the units.
 */
static void check_units(struct dw_file *f, const char *path)
{
	const uint64_t *units = dw_file_units(f);
	uint32_t n = dw_file_cu_count(f), i = 0;
	Dwarf_CU *cu = NULL;
	Dwarf_Die cudie;
	Dwarf_Half version;
	uint8_t unit_type;
	Dwarf *dw;

	if (!n || dw_file_cu_die(f, 0, &dw, &cudie)) {
		fprintf(stderr, "%s: no units\n", path);
		failures++;
		return;
	}
	while (dwarf_get_units(dw, cu, &cu, &version, &unit_type, &cudie, NULL) == 0) {
		if (unit_type == DW_UT_type || unit_type == DW_UT_split_type)
			continue;
		if (i >= n || units[i] != dwarf_dieoffset(&cudie)) {
			fprintf(stderr, "%s: unit %u: libdw has its DIE at %#lx\n", path, i,
				(unsigned long)dwarf_dieoffset(&cudie));
			failures++;
			return;
		}
		i++;
	}
	if (i != n) {
		fprintf(stderr, "%s: %u units, libdw walked %u\n", path, n, i);
		failures++;
	}
}

/* Through dw_file_open(): a module's DWARF relocated, as the encoder reads it. */
static int check_file(const char *path)
{
	const struct btf_log log = { log_line, NULL };
	struct dw_file *f = dw_file_open(path, &log);
	/* One reader for all units, as a worker's: its tables are reused. */
	struct dw_reader rd = { 0 };
	Dwarf_Die child;
	uint32_t i, n;

	if (!f)
		return 2;
	n = dw_file_cu_count(f);
	check_units(f, path);
	for (i = 0; i < n; i++) {
		struct dw_cu_ctx ctx = { .file = f, .rd = rd };

		if (dw_file_cu_die(f, i, &ctx.dw, &ctx.cu_die)) {
			fprintf(stderr, "%s: unit %u: no unit DIE\n", path, i);
			failures++;
			continue;
		}
		dw_reader_init(&ctx.rd, f, &ctx.cu_die);
		rd = ctx.rd;
		if (!ctx.rd.cu) {
			fprintf(stderr, "%s: unit %u: the reader does not take it\n", path, i);
			failures++;
			continue;
		}
		check_attrs(&ctx, &ctx.cu_die);
		if (dwarf_child(&ctx.cu_die, &child) == 0)
			walk(&ctx, &child, 0);
		rd = ctx.rd;
	}
	dw_reader_free(&rd);
	printf("%s: %u units, %lu DIEs, %lu attributes, %lu of %lu members read from their bytes\n",
	       path, n, dies, attrs_seen, members_fast, members);
	/* Every producer here writes plain members: the fast path must be taken. */
	if (members && !members_fast) {
		fprintf(stderr, "%s: no member read from its bytes\n", path);
		failures++;
	}
	dw_file_close(f);
	return n ? 0 : 2;
}

int main(int argc, char **argv)
{
	int i, err;

	if (argc < 2) {
		fprintf(stderr, "usage: test_die_reader FILE...\n");
		return 2;
	}
	for (i = 1; i < argc; i++) {
		err = check_file(argv[i]);
		if (err)
			return err;
	}
	if (failures)
		fprintf(stderr, "%lu disagreements\n", failures);
	return failures ? 1 : 0;
}
