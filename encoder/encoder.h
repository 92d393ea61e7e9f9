/* SPDX-License-Identifier: GPL-2.0 */
/*
 * encoder.h - DWARF -> .BTF (+ .BTF.extra) for one ELF file: worker pool,
 * in-order merge, function/variable selection, inline-site sections,
 * output.  The only place in btfenc with threads.
 */
#ifndef BTFENC_ENCODER_H
#define BTFENC_ENCODER_H

#include "../btf/btf.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/* BTF features, pahole's names (enc_feature_names[] in features.c). */
enum enc_feature {
	ENC_F_ENCODE_FORCE = 1u << 0,
	ENC_F_VAR = 1u << 1,
	ENC_F_FLOAT = 1u << 2,
	ENC_F_DECL_TAG = 1u << 3,
	ENC_F_TYPE_TAG = 1u << 4,
	ENC_F_ENUM64 = 1u << 5,
	ENC_F_OPTIMIZED_FUNC = 1u << 6,
	ENC_F_CONSISTENT_FUNC = 1u << 7,
	ENC_F_DECL_TAG_KFUNCS = 1u << 8,
	ENC_F_REPRODUCIBLE_BUILD = 1u << 9,
	ENC_F_GLOBAL_VAR = 1u << 10,
	ENC_F_ATTRIBUTES = 1u << 11,
	ENC_F_INLINE = 1u << 12,       /* inline sites into .BTF */
	ENC_F_INLINE_EXTRA = 1u << 13, /* inline sites into .BTF.extra */
	ENC_F_LAYOUT = 1u << 14,       /* merged location layout (bpf-next) */
	ENC_F_DISTILLED_BASE = 1u << 15, /* with --btf_base: .BTF on .BTF.base */
};

/* pahole's "default" set. */
#define ENC_F_DEFAULT                                                                   \
	(ENC_F_ENCODE_FORCE | ENC_F_VAR | ENC_F_FLOAT | ENC_F_DECL_TAG | ENC_F_TYPE_TAG | \
	 ENC_F_ENUM64 | ENC_F_OPTIMIZED_FUNC | ENC_F_CONSISTENT_FUNC | ENC_F_DECL_TAG_KFUNCS)
/* What pahole does with no --btf_features at all. */
#define ENC_F_LEGACY (ENC_F_VAR | ENC_F_DECL_TAG | ENC_F_TYPE_TAG | ENC_F_ENUM64)

/*
 * Looks up feature @name (length @len); "inline.extra" is the inline
 * feature directed to .BTF.extra.  Returns its bit, or 0 if unknown.
 */
uint32_t enc_feature_lookup(const char *name, size_t len);
/* Writes the comma-separated names of the features in @mask, and a newline. */
void enc_feature_print(FILE *out, uint32_t mask);
/* What --supported_btf_features lists ("inline.extra" is a spelling of inline). */
#define ENC_F_SUPPORTED (~ENC_F_INLINE_EXTRA)

/* Inline sites seen, located and left out, by reason (enum dw_loc_miss). */
struct enc_site_counts {
	uint64_t sites;
	uint64_t outside_text; /* in .init.text and other sections: left out */
	uint64_t params;
	uint64_t params_located;
	uint64_t miss[16];     /* indexed by enum dw_loc_miss */
	uint64_t layout_only;  /* reg+offset or frame base: not in the seed layout */
	/* Merged layout: a prototype parameter without a name, left out. */
	uint64_t unnamed_param;
	/*
	 * Kept sites where DWARF has a location at the site address for every
	 * parameter: the most any encoder of this DWARF can reach.
	 */
	uint64_t dwarf_complete;
};

struct enc_opts {
	const char *path;      /* the ELF file to read (and rewrite with -J) */
	const char *base_path; /* --btf_base: vmlinux ELF or raw BTF, or NULL */
	const char *detached;  /* --btf_encode_detached OUT, or NULL */
	uint32_t features;     /* ENC_F_* */
	unsigned int jobs;     /* worker threads, >= 1 */
	bool skip_rust;        /* --lang_exclude=rust */
	bool verify;           /* --verify: validate before writing (always done) and in between */
	bool progress;         /* progress line on stderr */
	bool verbose;
	bool dry_run;          /* encode, validate, write nothing */
	struct enc_site_counts *counts; /* if set, receives the inline-site census */
};

/*
 * Encodes @opts->path.  Errors are one line each, naming the file, sent
 * to @log.  Returns 0 or a negative errno; on failure no file is changed.
 */
int enc_run(const struct enc_opts *opts, const struct btf_log *log);

#endif /* BTFENC_ENCODER_H */
