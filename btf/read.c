// SPDX-License-Identifier: GPL-2.0
/*
 * read.c - parse raw BTF images and BTF sections of ELF files, as base,
 * split or multi-split BTF.  Only the structure is checked here, enough
 * that every later walk stays inside the data; the kernel's per-kind
 * rules are validate.c's.
 */
#include "btf_internal.h"

#include <byteswap.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

static int parse_header(struct btf_header_layout *hl, const void *data, size_t size,
			bool *swapped, const struct btf_log *log)
{
	struct btf_header *hdr = &hl->hdr;
	size_t known = sizeof(*hdr);

	if (size < offsetof(struct btf_header, type_off)) {
		btf_log_printf(log, "BTF header truncated: %zu bytes", size);
		return -EINVAL;
	}
	memset(hl, 0, sizeof(*hl));
	memcpy(hdr, data, size < sizeof(*hdr) ? size : sizeof(*hdr));
	if (hdr->magic == bswap_16(BTF_MAGIC)) {
		*swapped = true;
		hdr->hdr_len = bswap_32(hdr->hdr_len);
	} else if (hdr->magic != BTF_MAGIC) {
		btf_log_printf(log, "bad BTF magic 0x%04x", hdr->magic);
		return -EINVAL;
	}
	if (hdr->version != BTF_VERSION) {
		btf_log_printf(log, "unsupported BTF version %u", hdr->version);
		return -EINVAL;
	}
	if (hdr->flags) {
		btf_log_printf(log, "unsupported BTF flags 0x%x", hdr->flags);
		return -EINVAL;
	}
	if (hdr->hdr_len < sizeof(*hdr) || hdr->hdr_len > size) {
		btf_log_printf(log, "bad BTF header length %u (data is %zu bytes)", hdr->hdr_len,
			       size);
		return -EINVAL;
	}
	if (*swapped) {
		hdr->type_off = bswap_32(hdr->type_off);
		hdr->type_len = bswap_32(hdr->type_len);
		hdr->str_off = bswap_32(hdr->str_off);
		hdr->str_len = bswap_32(hdr->str_len);
	}
	/* The merged layout's header adds the layout section. */
	if (hdr->hdr_len >= sizeof(*hl)) {
		memcpy(&hl->layout_off, (const char *)data + sizeof(*hdr), 2 * sizeof(uint32_t));
		if (*swapped) {
			hl->layout_off = bswap_32(hl->layout_off);
			hl->layout_len = bswap_32(hl->layout_len);
		}
		known = sizeof(*hl);
	}
	/* A longer header is allowed only if what we do not know is zero. */
	for (size_t i = known; i < hdr->hdr_len; i++) {
		if (((const char *)data)[i]) {
			btf_log_printf(log, "unsupported non-zero BTF header field at byte %zu", i);
			return -EINVAL;
		}
	}
	return 0;
}

static int check_sections(const struct btf_header *hdr, size_t size, bool split,
			  const struct btf_log *log)
{
	uint64_t data_len = size - hdr->hdr_len;
	uint64_t type_end = (uint64_t)hdr->type_off + hdr->type_len;
	uint64_t str_end = (uint64_t)hdr->str_off + hdr->str_len;

	if (hdr->type_off & 3) {
		btf_log_printf(log, "type section offset %u not 4-byte aligned", hdr->type_off);
		return -EINVAL;
	}
	if (hdr->type_len & 3) {
		btf_log_printf(log, "type section length %u not a multiple of 4", hdr->type_len);
		return -EINVAL;
	}
	if (type_end > data_len) {
		btf_log_printf(log, "type section [%u, +%u) past the end of the data (%llu bytes)",
			       hdr->type_off, hdr->type_len, (unsigned long long)data_len);
		return -EINVAL;
	}
	if (str_end > data_len) {
		btf_log_printf(log, "string section [%u, +%u) past the end of the data (%llu bytes)",
			       hdr->str_off, hdr->str_len, (unsigned long long)data_len);
		return -EINVAL;
	}
	if (hdr->str_off < type_end && hdr->type_off < str_end && hdr->str_len && hdr->type_len) {
		btf_log_printf(log, "type and string sections overlap");
		return -EINVAL;
	}
	if (hdr->str_len > BTF_MAX_STR_OFFSET) {
		btf_log_printf(log, "string section too large: %u bytes", hdr->str_len);
		return -EINVAL;
	}
	if (!split && !hdr->str_len) {
		btf_log_printf(log, "string section is empty (base BTF needs \"\" at offset 0)");
		return -EINVAL;
	}
	return 0;
}

/* The merged layout's layout section: where it is, and that it fits. */
static int check_layout_section(const struct btf_header_layout *hl, size_t size,
				const struct btf_log *log)
{
	const struct btf_header *hdr = &hl->hdr;
	uint64_t data_len = size - hdr->hdr_len;
	uint64_t end = (uint64_t)hl->layout_off + hl->layout_len;

	if (hl->layout_off & 3 || hl->layout_len % sizeof(struct btf_layout)) {
		btf_log_printf(log, "layout section [%u, +%u) not 4-byte aligned", hl->layout_off,
			       hl->layout_len);
		return -EINVAL;
	}
	if (end > data_len) {
		btf_log_printf(log, "layout section [%u, +%u) past the end of the data (%llu bytes)",
			       hl->layout_off, hl->layout_len, (unsigned long long)data_len);
		return -EINVAL;
	}
	if ((hl->layout_off < (uint64_t)hdr->type_off + hdr->type_len &&
	     hdr->type_off < end && hdr->type_len) ||
	    (hl->layout_off < (uint64_t)hdr->str_off + hdr->str_len && hdr->str_off < end &&
	     hdr->str_len)) {
		btf_log_printf(log, "layout section overlaps the type or string section");
		return -EINVAL;
	}
	return 0;
}

/*
 * Keeps the layout section (native order) and checks that it describes
 * every kind we know as we lay it out: a kind it sizes otherwise would be
 * read wrongly.  Entries for kinds past ours are kept, not used.
 */
static int load_layout(struct btf *btf, const void *sec, uint32_t len, const struct btf_log *log)
{
	uint32_t i, cnt = len / sizeof(struct btf_layout);

	btf->layout_sec = malloc(len ? len : 1);
	if (!btf->layout_sec)
		return -ENOMEM;
	memcpy(btf->layout_sec, sec, len);
	btf->layout_cnt = cnt;
	for (i = 0; i < cnt; i++) {
		struct btf_layout *l = &btf->layout_sec[i], want;

		if (btf->swapped)
			l->flags = bswap_16(l->flags);
		if (btf_kind_layout(i, BTF_LAYOUT_MERGED, &want))
			continue;
		if (l->info_sz != want.info_sz || l->elem_sz != want.elem_sz) {
			btf_log_printf(log,
				       "layout section: kind %u (%s) is %u + vlen * %u bytes, not %u + vlen * %u",
				       i, btf_kind_str(i), l->info_sz, l->elem_sz, want.info_sz,
				       want.elem_sz);
			return -EINVAL;
		}
	}
	return 0;
}

/*
 * Bits of info one layout leaves unused that the other gives a meaning:
 * the merged layout's kind bits 29-30 name kinds we do not know; the seed
 * layout's vlen bits 16-23 would size the record wrongly (on a kind
 * without a vlen they are the validator's "invalid btf_info").
 */
static int check_info_bits(const struct btf *btf, const struct btf_type *t, uint32_t id,
			   const struct btf_log *log)
{
	struct btf_layout l;

	if (btf->layout == BTF_LAYOUT_MERGED && (t->info & 0x60000000u)) {
		btf_log_printf(log, "[%u] invalid kind %u", id, (t->info >> 24) & 0x7f);
		return -EINVAL;
	}
	if (btf->layout == BTF_LAYOUT_SEED && (t->info & 0x00ff0000u) &&
	    !btf_kind_layout(btf_kind(t), BTF_LAYOUT_SEED, &l) && l.elem_sz) {
		btf_log_printf(log, "[%u] %s vlen 0x%x does not fit the seed layout's 16 bits", id,
			       btf_kind_str(btf_kind(t)), btf_vlen(t));
		return -EINVAL;
	}
	return 0;
}

static int check_strings(const char *strs, uint32_t len, bool split, const struct btf_log *log)
{
	if (!len)
		return 0;
	if (!split && strs[0]) {
		btf_log_printf(log, "string section does not start with \"\"");
		return -EINVAL;
	}
	if (strs[len - 1]) {
		btf_log_printf(log, "string section not NUL-terminated");
		return -EINVAL;
	}
	return 0;
}

/* Indexes the type records, swapping them to native order if needed. */
static int load_types(struct btf *btf, const struct btf_log *log)
{
	size_t off = 0;

	while (off < btf->types_len) {
		struct btf_type *t = (struct btf_type *)((char *)btf->types + off);
		uint32_t id = btf->start_id + btf->nr_types;
		long sz;

		if (btf->types_len - off < sizeof(*t)) {
			btf_log_printf(log, "[%u] type header truncated at type offset %zu", id, off);
			return -EINVAL;
		}
		if (btf->swapped)
			btf_bswap_type_hdr(t);
		if (check_info_bits(btf, t, id, log))
			return -EINVAL;
		sz = btf_type_size_layout(t, btf->layout);
		if (sz < 0) {
			btf_log_printf(log, "[%u] invalid kind %u", id, btf_kind(t));
			return -EINVAL;
		}
		if ((size_t)sz > btf->types_len - off) {
			btf_log_printf(log, "[%u] %s vlen %u runs %zu bytes past the type section",
				       id, btf_kind_str(btf_kind(t)), btf_vlen(t),
				       (size_t)sz - (btf->types_len - off));
			return -EINVAL;
		}
		if (btf->swapped)
			btf_bswap_type_body(t, btf->layout);
		if (!btf_add_mem((void **)&btf->type_offs, &btf->type_offs_cap, sizeof(uint32_t),
				 btf->nr_types, BTF_MAX_NR_TYPES, 1))
			return -ENOMEM;
		if (id > BTF_MAX_NR_TYPES) {
			btf_log_printf(log, "too many types");
			return -E2BIG;
		}
		btf->type_offs[btf->nr_types++] = off;
		off += sz;
	}
	return 0;
}

struct btf *btf__parse_raw(const void *data, size_t size, struct btf *base,
			   const struct btf_log *log)
{
	return btf__parse_raw_layout(data, size, base, BTF_PARSE_AUTO, log);
}

struct btf *btf__parse_raw_layout(const void *data, size_t size, struct btf *base,
				  enum btf_parse_layout layout, const struct btf_log *log)
{
	struct btf_header_layout hl;
	struct btf_header hdr;
	bool swapped = false;
	const char *body;
	struct btf *btf;
	int err;

	err = parse_header(&hl, data, size, &swapped, log);
	hdr = hl.hdr;
	if (!err)
		err = check_sections(&hdr, size, base != NULL, log);
	if (!err && hl.layout_len)
		err = check_layout_section(&hl, size, log);
	if (err)
		goto fail;
	body = (const char *)data + hdr.hdr_len;
	err = check_strings(body + hdr.str_off, hdr.str_len, base != NULL, log);
	if (err)
		goto fail;

	btf = base ? btf__new_empty_split(base) : btf__new_empty();
	if (!btf) {
		err = -ENOMEM;
		goto fail;
	}
	btf->swapped = swapped;
	btf->layout = layout == BTF_PARSE_MERGED || (layout == BTF_PARSE_AUTO && hl.layout_len) ?
			      BTF_LAYOUT_MERGED :
			      BTF_LAYOUT_SEED;
	if (hl.layout_len && btf->layout == BTF_LAYOUT_MERGED)
		err = load_layout(btf, body + hl.layout_off, hl.layout_len, log);
	if (err) {
		btf__free(btf);
		goto fail;
	}
	strset__free(btf->strs);
	btf->strs = strset__new(body + hdr.str_off, hdr.str_len);
	btf->types = malloc(hdr.type_len ? hdr.type_len : 1);
	if (!btf->strs || !btf->types) {
		btf__free(btf);
		err = -ENOMEM;
		goto fail;
	}
	memcpy(btf->types, body + hdr.type_off, hdr.type_len);
	btf->types_len = btf->types_cap = hdr.type_len;
	err = load_types(btf, log);
	if (err) {
		btf__free(btf);
		goto fail;
	}
	return btf;
fail:
	errno = -err;
	return NULL;
}

/* Prefixes every message with the file name. */
struct file_log {
	const struct btf_log *inner;
	const char *path;
};

static void file_log_fn(void *ctx, const char *msg)
{
	struct file_log *fl = ctx;

	btf_log_printf(fl->inner, "%s: %s", fl->path, msg);
}

static struct btf *parse_elf(const void *data, size_t size, const char *sec_name,
			     struct btf *base, const struct btf_log *log)
{
	struct btf *btf = NULL;
	Elf_Scn *scn = NULL;
	size_t shstrndx;
	Elf *elf;
	int err = -EINVAL;

	elf_version(EV_CURRENT);
	elf = elf_memory((char *)data, size);
	if (!elf || elf_kind(elf) != ELF_K_ELF || elf_getshdrstrndx(elf, &shstrndx)) {
		btf_log_printf(log, "not a valid ELF file: %s", elf_errmsg(-1));
		goto out;
	}
	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		const char *name;

		if (!gelf_getshdr(scn, &sh)) {
			btf_log_printf(log, "bad section header: %s", elf_errmsg(-1));
			goto out;
		}
		name = elf_strptr(elf, shstrndx, sh.sh_name);
		if (name && !strcmp(name, sec_name))
			break;
	}
	if (!scn) {
		btf_log_printf(log, "no %s section", sec_name);
		err = -ENOENT;
		goto out;
	}
	{
		GElf_Shdr sh;
		Elf_Data *d;

		gelf_getshdr(scn, &sh);
		if (sh.sh_type == SHT_NOBITS || sh.sh_offset > size || sh.sh_size > size - sh.sh_offset) {
			btf_log_printf(log, "section %s lies outside the file", sec_name);
			goto out;
		}
		if ((sh.sh_flags & SHF_COMPRESSED) && elf_compress(scn, 0, 0) < 0) {
			btf_log_printf(log, "cannot decompress %s: %s", sec_name, elf_errmsg(-1));
			goto out;
		}
		d = elf_getdata(scn, NULL);
		if (!d || !d->d_buf) {
			btf_log_printf(log, "cannot read section %s: %s", sec_name, elf_errmsg(-1));
			goto out;
		}
		btf = btf__parse_raw(d->d_buf, d->d_size, base, log);
		err = btf ? 0 : -errno;
	}
out:
	elf_end(elf);
	if (!btf)
		errno = -err;
	return btf;
}

struct btf *btf__parse_file(const char *path, const char *sec_name, struct btf *base,
			    const struct btf_log *log)
{
	struct file_log fl = { log, path };
	struct btf_log flog = { file_log_fn, &fl };
	struct btf *btf = NULL;
	void *map = NULL;
	struct stat st;
	int fd, err = 0;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		err = -errno;
		btf_log_printf(log, "%s: %s", path, strerror(errno));
		goto out;
	}
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		err = -EINVAL;
		btf_log_printf(log, "%s: not a regular file", path);
		goto out;
	}
	if (st.st_size == 0) {
		err = -EINVAL;
		btf_log_printf(log, "%s: empty file", path);
		goto out;
	}
	map = mmap(NULL, st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	if (map == MAP_FAILED) {
		map = NULL;
		err = -errno;
		btf_log_printf(log, "%s: %s", path, strerror(errno));
		goto out;
	}
	if (st.st_size >= 4 && !memcmp(map, ELFMAG, SELFMAG))
		btf = parse_elf(map, st.st_size, sec_name ? sec_name : ".BTF", base, &flog);
	else
		btf = btf__parse_raw(map, st.st_size, base, &flog);
	if (!btf)
		err = -errno;
out:
	if (map)
		munmap(map, st.st_size);
	if (fd >= 0)
		close(fd);
	if (!btf)
		errno = err ? -err : EINVAL;
	return btf;
}
