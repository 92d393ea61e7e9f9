// SPDX-License-Identifier: GPL-2.0
/* features.c - the table of BTF feature names, as pahole spells them. */
#include "encoder.h"

#include <stdio.h>
#include <string.h>

static const struct {
	const char *name;
	uint32_t bit;
} features[] = {
	{ "encode_force", ENC_F_ENCODE_FORCE },
	{ "var", ENC_F_VAR },
	{ "float", ENC_F_FLOAT },
	{ "decl_tag", ENC_F_DECL_TAG },
	{ "type_tag", ENC_F_TYPE_TAG },
	{ "enum64", ENC_F_ENUM64 },
	{ "optimized_func", ENC_F_OPTIMIZED_FUNC },
	{ "consistent_func", ENC_F_CONSISTENT_FUNC },
	{ "decl_tag_kfuncs", ENC_F_DECL_TAG_KFUNCS },
	{ "reproducible_build", ENC_F_REPRODUCIBLE_BUILD },
	{ "distilled_base", ENC_F_DISTILLED_BASE },
	{ "global_var", ENC_F_GLOBAL_VAR },
	{ "attributes", ENC_F_ATTRIBUTES },
	{ "inline", ENC_F_INLINE },
	{ "inline.extra", ENC_F_INLINE_EXTRA },
	/*
	 * pahole 1.31's name for the layout section; with inline, the
	 * location kinds take the layout bpf-next merged with it.
	 */
	{ "layout", ENC_F_LAYOUT },
};

uint32_t enc_feature_lookup(const char *name, size_t len)
{
	size_t i;

	for (i = 0; i < sizeof(features) / sizeof(features[0]); i++)
		if (strlen(features[i].name) == len && !strncmp(name, features[i].name, len))
			return features[i].bit;
	return 0;
}

void enc_feature_print(FILE *out, uint32_t mask)
{
	bool first = true;
	size_t i;

	for (i = 0; i < sizeof(features) / sizeof(features[0]); i++) {
		if (!(features[i].bit & mask))
			continue;
		fprintf(out, "%s%s", first ? "" : ",", features[i].name);
		first = false;
	}
	fputc('\n', out);
}
