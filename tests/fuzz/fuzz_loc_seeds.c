// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_loc_seeds FILE OUTDIR - seeds for fuzz_loc from a fixture: every
 * location expression of every DIE with DW_AT_location (single or list
 * entries), in fuzz_loc's input format (s32 value size, then 17-byte
 * records atom/number/number2), the size taken from the DIE's type.
 */
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAX_SEEDS 400

static const char *outdir;
static int nr_seeds;

static void put_u64(FILE *f, uint64_t v)
{
	int i;

	for (i = 0; i < 8; i++)
		fputc((int)(v >> (8 * i)) & 0xff, f);
}

static void write_seed(const Dwarf_Op *ops, size_t n, int32_t size)
{
	char path[4096];
	FILE *f;
	size_t i;

	snprintf(path, sizeof(path), "%s/seed-%04d", outdir, nr_seeds++);
	f = fopen(path, "wb");
	if (!f)
		exit(1);
	fwrite(&size, 4, 1, f);
	for (i = 0; i < n; i++) {
		fputc(ops[i].atom, f);
		put_u64(f, ops[i].number);
		/* fuzz_loc points implicit_value's number2 at the input itself. */
		put_u64(f, ops[i].atom == DW_OP_implicit_value ? 0 : ops[i].number2);
	}
	fclose(f);
}

static void visit(Dwarf_Die *die)
{
	Dwarf_Attribute attr, tattr;
	Dwarf_Die type, child;
	Dwarf_Addr base, start, end;
	Dwarf_Op *ops;
	Dwarf_Word size = 8;
	ptrdiff_t off = 0;
	size_t n;

	if (dwarf_attr(die, DW_AT_location, &attr)) {
		if (dwarf_attr_integrate(die, DW_AT_type, &tattr) && dwarf_formref_die(&tattr, &type))
			dwarf_aggregate_size(&type, &size);
		while (nr_seeds < MAX_SEEDS &&
		       (off = dwarf_getlocations(&attr, off, &base, &start, &end, &ops, &n)) > 0)
			write_seed(ops, n, (int32_t)size);
	}
	if (dwarf_child(die, &child))
		return;
	do
		visit(&child);
	while (nr_seeds < MAX_SEEDS && !dwarf_siblingof(&child, &child));
}

int main(int argc, char **argv)
{
	Dwarf_Off off = 0, next;
	size_t hsize;
	Dwarf_Die cu;
	Dwarf *dw;
	int fd;

	if (argc != 3)
		return 2;
	outdir = argv[2];
	fd = open(argv[1], O_RDONLY);
	dw = fd < 0 ? NULL : dwarf_begin(fd, DWARF_C_READ);
	if (!dw) {
		fprintf(stderr, "fuzz_loc_seeds: %s: no DWARF\n", argv[1]);
		return 1;
	}
	while (!dwarf_nextcu(dw, off, &next, &hsize, NULL, NULL, NULL)) {
		if (dwarf_offdie(dw, off + hsize, &cu))
			visit(&cu);
		off = next;
	}
	dwarf_end(dw);
	close(fd);
	printf("%d seeds\n", nr_seeds);
	return nr_seeds ? 0 : 1;
}
