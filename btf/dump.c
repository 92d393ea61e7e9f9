// SPDX-License-Identifier: GPL-2.0
/*
 * dump.c - one text block per type, "[id] KIND 'name' key=value", with
 * one tab-indented line per member.  Two dialects that differ in a few
 * details: bpftool's `btf dump file F` (the default) and the BPF
 * selftests' btf_helpers.c, in which the seeds state their expectations.
 * The seed layout's location kinds print the same in both; the merged
 * layout's print as the merged bpftool and btf_helpers.c do: bpftool adds
 * each LOC_PARAM's meaning ("values='*(reg2 + 0x10)'") and names the FUNC
 * of each LOCSEC entry, btf_helpers.c lists the raw values.
 */
#include "btf_internal.h"

#include <inttypes.h>
#include <stdlib.h>

static const char *str_or_anon(const struct btf *btf, uint32_t off)
{
	const char *s;

	if (!off)
		return "(anon)";
	s = btf__str_by_offset(btf, off);
	return s ? s : "(invalid)";
}

static const char *int_enc_str(unsigned int enc)
{
	switch (enc) {
	case 0:
		return "(none)";
	case BTF_INT_SIGNED:
		return "SIGNED";
	case BTF_INT_CHAR:
		return "CHAR";
	case BTF_INT_BOOL:
		return "BOOL";
	}
	return "UNKN";
}

static const char *func_linkage_str(unsigned int linkage)
{
	switch (linkage) {
	case BTF_FUNC_STATIC:
		return "static";
	case BTF_FUNC_GLOBAL:
		return "global";
	case BTF_FUNC_EXTERN:
		return "extern";
	}
	return "(unknown)";
}

static const char *var_linkage_str(unsigned int linkage, enum btf_dump_style style)
{
	switch (linkage) {
	case BTF_VAR_STATIC:
		return "static";
	case BTF_VAR_GLOBAL_ALLOCATED:
		return style == BTF_DUMP_SELFTEST ? "global-alloc" : "global";
	case BTF_VAR_GLOBAL_EXTERN:
		/* btf_helpers.c has no name for extern: it falls to "(unknown)". */
		return style == BTF_DUMP_SELFTEST ? "(unknown)" : "extern";
	}
	return "(unknown)";
}

static void dump_members(const struct btf *btf, const struct btf_type *t, FILE *out)
{
	const struct btf_member *m = btf_type_body(t);
	unsigned int i;

	for (i = 0; i < btf_vlen(t); i++, m++) {
		uint32_t bit_off = btf_kflag(t) ? BTF_MEMBER_BIT_OFFSET(m->offset) : m->offset;
		uint32_t bit_sz = btf_kflag(t) ? BTF_MEMBER_BITFIELD_SIZE(m->offset) : 0;

		fprintf(out, "\n\t'%s' type_id=%u bits_offset=%u", str_or_anon(btf, m->name_off),
			m->type, bit_off);
		if (bit_sz)
			fprintf(out, " bitfield_size=%u", bit_sz);
	}
}

static void dump_enum(const struct btf_type *t, const struct btf *btf, FILE *out)
{
	const struct btf_enum *e = btf_type_body(t);
	unsigned int i;

	fprintf(out, " encoding=%s size=%u vlen=%u", btf_kflag(t) ? "SIGNED" : "UNSIGNED", t->size,
		btf_vlen(t));
	for (i = 0; i < btf_vlen(t); i++, e++) {
		if (btf_kflag(t))
			fprintf(out, "\n\t'%s' val=%d", str_or_anon(btf, e->name_off), e->val);
		else
			fprintf(out, "\n\t'%s' val=%u", str_or_anon(btf, e->name_off),
				(uint32_t)e->val);
	}
}

static void dump_enum64(const struct btf_type *t, const struct btf *btf, FILE *out,
			enum btf_dump_style style)
{
	const struct btf_enum64 *e = btf_type_body(t);
	bool bpftool = style == BTF_DUMP_BPFTOOL;
	unsigned int i;

	fprintf(out, " encoding=%s size=%u vlen=%u", btf_kflag(t) ? "SIGNED" : "UNSIGNED", t->size,
		btf_vlen(t));
	for (i = 0; i < btf_vlen(t); i++, e++) {
		uint64_t v = btf_enum64_value(e);

		if (btf_kflag(t))
			fprintf(out, "\n\t'%s' val=%" PRId64 "%s", str_or_anon(btf, e->name_off),
				(int64_t)v, bpftool ? "LL" : "");
		else
			fprintf(out, "\n\t'%s' val=%" PRIu64 "%s", str_or_anon(btf, e->name_off), v,
				bpftool ? "ULL" : "");
	}
}

static void dump_datasec(const struct btf_type *t, const struct btf *btf, FILE *out,
			 enum btf_dump_style style)
{
	const struct btf_var_secinfo *v = btf_type_body(t);
	unsigned int i;

	fprintf(out, " size=%u vlen=%u", t->size, btf_vlen(t));
	for (i = 0; i < btf_vlen(t); i++, v++) {
		const struct btf_type *vt = btf__type_by_id(btf, v->type);

		fprintf(out, "\n\ttype_id=%u offset=%u size=%u", v->type, v->offset, v->size);
		if (style == BTF_DUMP_BPFTOOL && vt)
			fprintf(out, " (%s '%s')", btf_kind_str(btf_kind(vt)),
				str_or_anon(btf, vt->name_off));
	}
}

static void dump_loc_param(const struct btf_type *t, FILE *out)
{
	const struct btf_loc_param *p = btf_type_body(t);

	fprintf(out, " size=%d", (int32_t)t->size);
	if (btf_kflag(t))
		fprintf(out, " value=%" PRId64, (int64_t)btf_loc_param_value(t));
	else
		fprintf(out, " reg=%u flags=0x%x offset=%d", p->reg, p->flags, p->offset);
}

/* Layout of the BTF of @btf's chain that owns type @id. */
static enum btf_loc_layout layout_of(const struct btf *btf, uint32_t id)
{
	while (btf__base_btf(btf) && id < btf__start_id(btf))
		btf = btf__base_btf(btf);
	return btf__layout(btf);
}

static void reg_str(uint32_t reg, char *buf, size_t len)
{
	if (reg == BTF_LOC_PARAM_FBREG)
		snprintf(buf, len, "fbreg");
	else
		snprintf(buf, len, "reg%u", reg);
}

/*
 * What a merged-layout LOC_PARAM means, as the merged bpftool prints it:
 * "reg1", "*(reg2 + 0x10)", "fbreg - 0x10", "0x1234 (addr)".  The forms
 * its selftest does not show (register pair, *(reg), negative constant)
 * follow the same style: "reg1:reg2", "*(reg1)", "-0x1".
 */
static void loc_param_merged_str(const struct btf_type *t, char *buf, size_t len)
{
	const struct btf_loc_param_merged *p = btf_type_body(t);
	unsigned int vlen = btf_vlen(t);
	char r1[16], r2[16];

	if (p->flags & BTF_LOC_PARAM_CONST) {
		uint64_t v = p->values[0] | (vlen > 1 ? (uint64_t)p->values[1] << 32 : 0);
		unsigned int bits = vlen > 1 ? 64 : 32;
		bool neg = (p->flags & BTF_LOC_PARAM_SIGNED) && (v >> (bits - 1)) & 1;

		if (neg)
			v = bits == 64 ? -v : (uint32_t)-(uint32_t)v;
		snprintf(buf, len, "%s0x%" PRIx64 "%s", neg ? "-" : "", v,
			 (p->flags & BTF_LOC_PARAM_ADDR) ? " (addr)" : "");
		return;
	}
	reg_str(p->values[0], r1, sizeof(r1));
	if (p->flags & BTF_LOC_PARAM_OFFSET) {
		int32_t off = vlen > 1 ? (int32_t)p->values[1] : 0;
		uint32_t mag = off < 0 ? -(uint32_t)off : (uint32_t)off;
		bool deref = p->flags & BTF_LOC_PARAM_DEREF;

		snprintf(buf, len, "%s%s %c 0x%x%s", deref ? "*(" : "", r1, off < 0 ? '-' : '+',
			 mag, deref ? ")" : "");
	} else if (p->flags & BTF_LOC_PARAM_DEREF) {
		snprintf(buf, len, "*(%s)", r1);
	} else if (vlen > 1) {
		reg_str(p->values[1], r2, sizeof(r2));
		snprintf(buf, len, "%s:%s", r1, r2);
	} else {
		snprintf(buf, len, "%s", r1);
	}
}

static void dump_loc_param_merged(const struct btf_type *t, FILE *out, enum btf_dump_style style)
{
	const struct btf_loc_param_merged *p = btf_type_body(t);
	char buf[64];
	unsigned int i;

	fprintf(out, " size=%u flags=0x%x vlen=%u", t->size, p->flags, btf_vlen(t));
	if (style == BTF_DUMP_SELFTEST) {
		for (i = 0; i < btf_vlen(t); i++)
			fprintf(out, "\n\tvalue=%u", p->values[i]);
		return;
	}
	loc_param_merged_str(t, buf, sizeof(buf));
	fprintf(out, " values='%s'", buf);
}

static void dump_loc_proto(const struct btf_type *t, const struct btf *btf, FILE *out,
			   enum btf_dump_style style)
{
	const uint32_t *ids = btf_type_body(t);
	unsigned int i;
	char buf[64];

	fprintf(out, " vlen=%u", btf_vlen(t));
	for (i = 0; i < btf_vlen(t); i++) {
		const struct btf_type *p = btf__type_by_id(btf, ids[i]);

		fprintf(out, "\n\ttype_id=%u", ids[i]);
		if (style == BTF_DUMP_SELFTEST || !ids[i] || !p ||
		    btf_kind(p) != BTF_KIND_LOC_PARAM || layout_of(btf, ids[i]) != BTF_LAYOUT_MERGED)
			continue;
		loc_param_merged_str(p, buf, sizeof(buf));
		fprintf(out, " value='%s'", buf);
	}
}

static void dump_locsec_merged(const struct btf_type *t, const struct btf *btf, FILE *out,
			       enum btf_dump_style style)
{
	const struct btf_loc_merged *l = btf_type_body(t);
	unsigned int i;

	fprintf(out, " vlen=%u", btf_vlen(t));
	for (i = 0; i < btf_vlen(t); i++, l++) {
		fputs("\n\t", out);
		if (style == BTF_DUMP_BPFTOOL)
			fprintf(out, "name='%s' ", btf__name_by_id(btf, l->func));
		fprintf(out, "func_type_id=%u loc_proto_type_id=%u offset=%u", l->func, l->loc_proto,
			l->offset);
	}
}

static void dump_locsec(const struct btf_type *t, const struct btf *btf, FILE *out)
{
	const struct btf_loc *l = btf_type_body(t);
	unsigned int i;

	fprintf(out, " vlen=%u", btf_vlen(t));
	for (i = 0; i < btf_vlen(t); i++, l++)
		fprintf(out, "\n\t'%s' func_proto_type_id=%u loc_proto_type_id=%u offset=%u",
			str_or_anon(btf, l->name_off), l->func_proto, l->loc_proto, l->offset);
}

int btf__dump_type_style(const struct btf *btf, uint32_t id, FILE *out, enum btf_dump_style style)
{
	const struct btf_type *t = btf__type_by_id(btf, id);
	unsigned int i;

	if (!t || !id)
		return -EINVAL;
	fprintf(out, "[%u] %s '%s'", id, btf_kind_str(btf_kind(t)), str_or_anon(btf, t->name_off));

	switch ((enum btf_kind)btf_kind(t)) {
	case BTF_KIND_INT: {
		uint32_t v = *(const uint32_t *)btf_type_body(t);

		fprintf(out, " size=%u bits_offset=%u nr_bits=%u encoding=%s", t->size,
			BTF_INT_OFFSET(v), BTF_INT_BITS(v), int_enc_str(BTF_INT_ENCODING(v)));
		break;
	}
	case BTF_KIND_PTR:
	case BTF_KIND_CONST:
	case BTF_KIND_VOLATILE:
	case BTF_KIND_RESTRICT:
	case BTF_KIND_TYPEDEF:
	case BTF_KIND_TYPE_TAG:
		fprintf(out, " type_id=%u", t->type);
		break;
	case BTF_KIND_ARRAY: {
		const struct btf_array *a = btf_type_body(t);

		fprintf(out, " type_id=%u index_type_id=%u nr_elems=%u", a->type, a->index_type,
			a->nelems);
		break;
	}
	case BTF_KIND_STRUCT:
	case BTF_KIND_UNION:
		fprintf(out, " size=%u vlen=%u", t->size, btf_vlen(t));
		dump_members(btf, t, out);
		break;
	case BTF_KIND_ENUM:
		dump_enum(t, btf, out);
		break;
	case BTF_KIND_ENUM64:
		dump_enum64(t, btf, out, style);
		break;
	case BTF_KIND_FWD:
		fprintf(out, " fwd_kind=%s", btf_kflag(t) ? "union" : "struct");
		break;
	case BTF_KIND_FUNC:
		fprintf(out, " type_id=%u linkage=%s", t->type, func_linkage_str(btf_vlen(t)));
		break;
	case BTF_KIND_FUNC_PROTO: {
		const struct btf_param *p = btf_type_body(t);

		fprintf(out, " ret_type_id=%u vlen=%u", t->type, btf_vlen(t));
		for (i = 0; i < btf_vlen(t); i++, p++)
			fprintf(out, "\n\t'%s' type_id=%u", str_or_anon(btf, p->name_off), p->type);
		break;
	}
	case BTF_KIND_VAR:
		fprintf(out, " type_id=%u, linkage=%s", t->type,
			var_linkage_str(((const struct btf_var *)btf_type_body(t))->linkage, style));
		break;
	case BTF_KIND_DATASEC:
		dump_datasec(t, btf, out, style);
		break;
	case BTF_KIND_FLOAT:
		fprintf(out, " size=%u", t->size);
		break;
	case BTF_KIND_DECL_TAG:
		fprintf(out, " type_id=%u component_idx=%d", t->type,
			((const struct btf_decl_tag *)btf_type_body(t))->component_idx);
		break;
	case BTF_KIND_LOC_PARAM:
		if (layout_of(btf, id) == BTF_LAYOUT_MERGED)
			dump_loc_param_merged(t, out, style);
		else
			dump_loc_param(t, out);
		break;
	case BTF_KIND_LOC_PROTO:
		dump_loc_proto(t, btf, out, style);
		break;
	case BTF_KIND_LOCSEC:
		if (layout_of(btf, id) == BTF_LAYOUT_MERGED)
			dump_locsec_merged(t, btf, out, style);
		else
			dump_locsec(t, btf, out);
		break;
	case BTF_KIND_UNKN:
	case NR_BTF_KINDS:
		break;
	}
	return 0;
}

int btf__dump_type(const struct btf *btf, uint32_t id, FILE *out)
{
	return btf__dump_type_style(btf, id, out, BTF_DUMP_BPFTOOL);
}

char *btf__dump_type_str(const struct btf *btf, uint32_t id, enum btf_dump_style style)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	int err;

	if (!f)
		return NULL;
	err = btf__dump_type_style(btf, id, f, style);
	fclose(f);
	if (err) {
		free(buf);
		errno = -err;
		return NULL;
	}
	return buf;
}
