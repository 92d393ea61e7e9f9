// SPDX-License-Identifier: GPL-2.0
/*
 * libbpf_dedup.c - the reference side of the dedup differential: reads a
 * raw BTF file with the system libbpf, runs its btf__dedup() and writes
 * the raw result.  Only kinds libbpf knows (1..19) can go through it.
 *
 * Usage: libbpf_dedup [--modifiable] IN.btf OUT.btf
 * --modifiable: the BTF is made modifiable (libbpf copies a parsed BTF's
 * types and indexes its strings) before the dedup is timed, as it is in
 * an encoder that built it with btf__add_*() (pahole).
 */
#include <bpf/btf.h>

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Monotonic milliseconds, for the dedup timing BTF_DEDUP_TIME asks for. */
static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

int main(int argc, char **argv)
{
	const void *data;
	struct btf *btf;
	__u32 size;
	double t0;
	FILE *f;
	int err;

	bool modifiable = argc == 4 && !strcmp(argv[1], "--modifiable");

	if (argc != 3 && !modifiable) {
		fprintf(stderr, "usage: %s [--modifiable] IN.btf OUT.btf\n", argv[0]);
		return 2;
	}
	argv += modifiable;
	btf = btf__parse_raw(argv[1]);
	if (!btf) {
		fprintf(stderr, "%s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	/* Adding the string every BTF has changes nothing but modifiability. */
	if (modifiable && btf__add_str(btf, "") < 0) {
		fprintf(stderr, "%s: cannot make it modifiable\n", argv[1]);
		btf__free(btf);
		return 1;
	}
	t0 = now_ms();
	err = btf__dedup(btf, NULL);
	if (getenv("BTF_DEDUP_TIME"))
		fprintf(stderr, "dedup: %.1f ms\n", now_ms() - t0);
	if (err) {
		fprintf(stderr, "btf__dedup: %s\n", strerror(-err));
		btf__free(btf);
		return 1;
	}
	data = btf__raw_data(btf, &size);
	f = fopen(argv[2], "wb");
	if (!data || !f || fwrite(data, 1, size, f) != size || fclose(f)) {
		fprintf(stderr, "%s: write failed\n", argv[2]);
		btf__free(btf);
		return 1;
	}
	btf__free(btf);
	return 0;
}
