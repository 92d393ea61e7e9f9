/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fuzz_base.h - the small fixed base BTF the fuzzer parses split inputs
 * on, shared with the seed generator so split seeds have matching ids.
 */
#ifndef BTFENC_FUZZ_BASE_H
#define BTFENC_FUZZ_BASE_H

#include "btf.h"

/* [1] int, [2] int *, [3] struct s { int a; int *p; }, [4] proto int(int). */
static inline struct btf *fuzz_base_new(void)
{
	struct btf *btf = btf__new_empty();
	int i32;

	if (!btf)
		return NULL;
	i32 = btf__add_int(btf, "int", 4, BTF_INT_SIGNED);
	btf__add_ptr(btf, i32);
	btf__add_struct(btf, "s", 16);
	btf__add_field(btf, "a", i32, 0, 0);
	btf__add_field(btf, "p", 2, 64, 0);
	btf__add_func_proto(btf, i32);
	if (btf__add_func_param(btf, "x", i32) < 0) {
		btf__free(btf);
		return NULL;
	}
	return btf;
}

#endif /* BTFENC_FUZZ_BASE_H */
