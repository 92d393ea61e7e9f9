// SPDX-License-Identifier: GPL-2.0
/*
 * distill.c - the distilled_base feature (pahole >= 1.28, kbuild passes it
 * for KBUILD_EXTMOD modules): .BTF becomes split BTF on a distilled base
 * written to .BTF.base, so that the module's BTF can be relocated onto
 * whatever vmlinux it is loaded with.  Location kinds referenced in the
 * base go to the split part (btf__distill_base(), seed 007's rule).
 */
#include "enc_internal.h"

#include <string.h>

struct distill_log {
	const struct enc_state *s;
	const char *sec;
};

static void distill_log_fn(void *ctx, const char *msg)
{
	struct distill_log *dl = ctx;

	btf_log_printf(dl->s->log, "%s: invalid %s: %s", dl->s->o->path, dl->sec, msg);
}

int enc_distill(struct enc_state *s, bool has_extra)
{
	struct distill_log dl = { s, ".BTF (distilled)" };
	struct btf_log log = { distill_log_fn, &dl };
	int err;

	if (!s->base)
		return 0;
	/*
	 * .BTF.extra is split on .BTF; distilling renumbers .BTF, and kbuild
	 * never asks for both (seed 008 sets inline.extra only in-tree).
	 */
	if (has_extra) {
		btf_log_printf(s->log, "%s: distilled_base cannot be combined with inline.extra",
			       s->o->path);
		return -EINVAL;
	}
	err = btf__distill_base(s->all, &s->dist_base, &s->dist_split);
	if (err) {
		btf_log_printf(s->log, "%s: cannot distill the base BTF: %s", s->o->path,
			       strerror(-err));
		return err;
	}
	err = btf__validate(s->dist_base, &log);
	if (!err) {
		dl.sec = ".BTF.base";
		err = btf__validate(s->dist_split, &log);
	}
	return err;
}
