// SPDX-License-Identifier: GPL-2.0
/*
 * btf_kernel_load.c - parses a raw BTF file with the system libbpf and
 * loads it into the running kernel, which runs its own BTF verifier.
 *
 * Exit: 0 accepted, 1 rejected (parse or kernel verifier), 77 when the
 * kernel does not let us load BTF at all (no privilege).
 */
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
	struct btf *btf;
	int err;

	if (argc != 2) {
		fprintf(stderr, "usage: %s FILE.btf\n", argv[0]);
		return 2;
	}
	btf = btf__parse(argv[1], NULL);
	if (!btf) {
		fprintf(stderr, "%s: libbpf cannot parse: %s\n", argv[1], strerror(errno));
		return 1;
	}
	err = btf__load_into_kernel(btf);
	btf__free(btf);
	if (err == -EPERM || err == -EACCES) {
		fprintf(stderr, "%s: not permitted to load BTF\n", argv[1]);
		return 77;
	}
	if (err) {
		fprintf(stderr, "%s: kernel rejected the BTF: %s\n", argv[1], strerror(-err));
		return 1;
	}
	printf("%s: accepted by the kernel\n", argv[1]);
	return 0;
}
