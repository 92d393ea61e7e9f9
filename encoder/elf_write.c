// SPDX-License-Identifier: GPL-2.0
/*
 * elf_write.c - add or replace sections of an ELF file without moving
 * anything that is already in it, and replace files atomically.
 *
 * Layout of the rewritten file:
 *
 *   [ input bytes 0 .. copy_end, unchanged                     ]
 *   [ grown section-name table, only if a name had to be added ]
 *   [ data of each added or moved section, alignment 1         ]
 *   [ padding to 8 (ELF64) or 4 (ELF32)                        ]
 *   [ section header table: the old entries, then the new ones ]
 *
 * copy_end is the input size, less whatever trailing bytes no header of
 * the new file refers to and that we know are ours to drop: the old
 * section header table, the old name table when it is rewritten, the old
 * data of a replaced section.  Walking back from the end of the file only
 * through such ranges keeps unknown trailing bytes (a module signature,
 * say) and reuses the space a previous run appended, so running -J twice
 * does not grow the file.
 *
 * libelf parses the input (both classes and byte orders) and converts the
 * two headers we change back to file form (gelf_xlatetof); the bytes are
 * copied with copy_file_range, so a 600 MB vmlinux is never read into
 * memory.  libelf's own writer (ELF_C_RDWR + elf_update) is not used: it
 * may rewrite section contents and fill gaps, and here every byte that is
 * not ours must stay as it was.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* copy_file_range, fallocate, memmem */
#endif
#include "elf_write.h"
#include "../btf/btf_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define COPY_CHUNK (1u << 30) /* bytes per copy_file_range call */
#define TAIL_SLACK 8          /* alignment padding we may drop between dead ranges */

/* ---- the output file: temp beside the target, renamed over it ---- */

struct out_file {
	const char *path; /* as the caller named it, for messages */
	char *target;     /* @path with symlinks resolved */
	char *dir;        /* directory of target */
	char *tmp;        /* temporary file while it exists */
	int fd;
	bool existed;
	struct stat st; /* of target, if it existed */
};

static int log_errno(const struct btf_log *log, const char *path, const char *what, int err)
{
	btf_log_printf(log, "%s: %s: %s", path, what, strerror(err));
	return -err;
}

static char *dir_of(const char *file)
{
	const char *slash = strrchr(file, '/');

	if (!slash)
		return strdup(".");
	if (slash == file)
		return strdup("/");
	return strndup(file, slash - file);
}

/*
 * Resolves @path to the file that will be replaced.  A missing file is
 * allowed only if !@must_exist; a dangling symlink never is, because the
 * rename would replace the link instead of creating its target.
 */
static int out_resolve(struct out_file *o, const char *path, bool must_exist,
		       const struct btf_log *log)
{
	struct stat lst;

	o->path = path;
	o->fd = -1;
	o->target = realpath(path, NULL);
	if (!o->target) {
		if (errno != ENOENT || must_exist)
			return log_errno(log, path, "cannot open", errno);
		if (!lstat(path, &lst))
			return log_errno(log, path, "dangling symlink", ENOENT);
		o->target = strdup(path);
	} else if (stat(o->target, &o->st)) {
		return log_errno(log, path, "cannot stat", errno);
	} else {
		o->existed = true;
		if (!S_ISREG(o->st.st_mode)) {
			btf_log_printf(log, "%s: not a regular file", path);
			return -EINVAL;
		}
	}
	o->dir = o->target ? dir_of(o->target) : NULL;
	if (!o->dir)
		return log_errno(log, path, "out of memory", ENOMEM);
	return 0;
}

/*
 * Refuses targets we may not replace.  access() alone is not enough:
 * root passes every W_OK check, yet a file without any write bit was made
 * read-only on purpose (kbuild never passes one), so it is refused even
 * for root rather than silently replaced as objcopy would.  The directory
 * must be writable because the new file is created there.
 */
static int out_check_writable(const struct out_file *o, const struct btf_log *log)
{
	if (o->existed) {
		if (!(o->st.st_mode & (S_IWUSR | S_IWGRP | S_IWOTH))) {
			btf_log_printf(log, "%s: file is read-only (mode %04o), not replacing it",
				       o->path, (unsigned int)(o->st.st_mode & 07777));
			return -EACCES;
		}
		if (access(o->target, W_OK))
			return log_errno(log, o->path, "not writable", errno);
	}
	if (access(o->dir, W_OK | X_OK))
		return log_errno(log, o->path, "directory not writable", errno);
	return 0;
}

/*
 * Fails early with -EFBIG instead of letting a write past RLIMIT_FSIZE
 * raise SIGXFSZ, whose default action would kill us with the temporary
 * file left behind.
 */
static int out_check_size(const struct out_file *o, uint64_t size, const struct btf_log *log)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_FSIZE, &rl) || rl.rlim_cur == RLIM_INFINITY || size <= rl.rlim_cur)
		return 0;
	btf_log_printf(log, "%s: the new file (%llu bytes) would exceed the file size limit (%llu bytes)",
		       o->path, (unsigned long long)size, (unsigned long long)rl.rlim_cur);
	return -EFBIG;
}

static void random_name(char *x, size_t n)
{
	static const char chars[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
	unsigned char r[16];
	struct timespec ts;
	size_t i;

	if (n > sizeof(r))
		n = sizeof(r);
	if (getrandom(r, n, GRND_NONBLOCK) != (ssize_t)n) {
		clock_gettime(CLOCK_MONOTONIC, &ts);
		for (i = 0; i < n; i++)
			r[i] = (unsigned char)((ts.tv_nsec >> (i * 5)) ^ (getpid() >> i) ^ (i * 37));
	}
	for (i = 0; i < n; i++)
		x[i] = chars[r[i] % (sizeof(chars) - 1)];
}

/*
 * Creates ".NAME.btfenc-XXXXXX" beside the target with O_EXCL, @mode
 * filtered by the umask, and reserves @size bytes so that a full disk
 * shows up now rather than after copying the input.
 */
static int out_create(struct out_file *o, mode_t mode, uint64_t size, const struct btf_log *log)
{
	const char *base = strrchr(o->target, '/');
	size_t len;
	int tries;

	base = base ? base + 1 : o->target;
	len = strlen(o->dir) + strlen(base) + 32;
	o->tmp = malloc(len);
	if (!o->tmp)
		return log_errno(log, o->path, "out of memory", ENOMEM);
	for (tries = 0; tries < 100; tries++) {
		snprintf(o->tmp, len, "%s/.%s.btfenc-XXXXXX", o->dir, base);
		random_name(o->tmp + strlen(o->tmp) - 6, 6);
		o->fd = open(o->tmp, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, mode);
		if (o->fd >= 0 || errno != EEXIST)
			break;
	}
	if (o->fd < 0) {
		free(o->tmp);
		o->tmp = NULL;
		return log_errno(log, o->path, "cannot create temporary file", errno);
	}
	/* Not every file system can preallocate; then we learn of ENOSPC later. */
	if (size && fallocate(o->fd, 0, 0, (off_t)size) && errno != EOPNOTSUPP && errno != ENOSYS)
		return log_errno(log, o->path, "cannot reserve space for the new file", errno);
	return 0;
}

/*
 * Gives the new file the old one's owner and mode.  Set-id bits survive
 * only if the owner could be kept: handing them to another owner (us)
 * would be a privilege change nobody asked for.
 */
static int out_copy_perms(struct out_file *o)
{
	mode_t mode = o->st.st_mode & 07777;

	if (fchown(o->fd, o->st.st_uid, o->st.st_gid))
		mode &= ~(mode_t)(S_ISUID | S_ISGID);
	if (fchmod(o->fd, mode))
		return -errno;
	return 0;
}

static void out_sync_dir(const struct out_file *o)
{
	int fd = open(o->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	/* Best effort: the rename is done; this only makes it durable sooner. */
	if (fd < 0)
		return;
	fsync(fd);
	close(fd);
}

static int out_commit(struct out_file *o, const struct btf_log *log)
{
	int fd = o->fd;

	if (o->existed && out_copy_perms(o))
		return log_errno(log, o->path, "cannot set the mode of the new file", errno);
	if (fsync(fd))
		return log_errno(log, o->path, "cannot write the new file", errno);
	o->fd = -1;
	if (close(fd))
		return log_errno(log, o->path, "cannot write the new file", errno);
	if (rename(o->tmp, o->target))
		return log_errno(log, o->path, "cannot replace", errno);
	free(o->tmp);
	o->tmp = NULL;
	out_sync_dir(o);
	return 0;
}

/* Removes the temporary file if it still exists, and frees @o. */
static void out_release(struct out_file *o)
{
	if (o->fd >= 0)
		close(o->fd);
	if (o->tmp)
		unlink(o->tmp);
	free(o->tmp);
	free(o->dir);
	free(o->target);
}

static int pwrite_all(int fd, const void *buf, size_t len, uint64_t off)
{
	const char *p = buf;
	ssize_t n;

	while (len) {
		n = pwrite(fd, p, len, (off_t)off);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			return -EIO;
		p += n;
		len -= n;
		off += n;
	}
	return 0;
}

/* The copy_file_range fallback, for file systems that cannot do it. */
static int copy_rw(int in, int out, uint64_t off, uint64_t end)
{
	size_t bufsz = 1u << 20;
	char *buf = malloc(bufsz);
	ssize_t n;
	int err = 0;

	if (!buf)
		return -ENOMEM;
	while (off < end && !err) {
		n = pread(in, buf, end - off < bufsz ? end - off : bufsz, (off_t)off);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			err = n < 0 ? -errno : -EIO; /* the input shrank under us */
			break;
		}
		err = pwrite_all(out, buf, n, off);
		off += n;
	}
	free(buf);
	return err;
}

/* Copies bytes [0, @len) of @in to the same offsets of @out. */
static int copy_prefix(int in, int out, uint64_t len)
{
	loff_t ioff = 0, ooff = 0;
	ssize_t n;

	while ((uint64_t)ioff < len) {
		n = copy_file_range(in, &ioff, out, &ooff,
				    len - ioff < COPY_CHUNK ? len - ioff : COPY_CHUNK, 0);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && (errno == EXDEV || errno == ENOSYS || errno == EINVAL ||
			      errno == EOPNOTSUPP))
			return copy_rw(in, out, ioff, len);
		if (n < 0)
			return -errno;
		if (n == 0)
			return -EIO;
	}
	return 0;
}

/* ---- the input ELF ---- */

struct elf_in {
	const char *path;
	int fd;
	Elf *elf;
	uint64_t size;
	GElf_Ehdr ehdr;
	size_t shnum, shstrndx, phnum, shentsize;
	GElf_Shdr *shdrs;
	char *shstr; /* the section-name table, NUL-terminated */
	size_t shstr_size;
};

static bool in_file(uint64_t off, uint64_t len, uint64_t size)
{
	return off <= size && len <= size - off;
}

static int bad_elf(const struct elf_in *in, const char *what, const struct btf_log *log)
{
	btf_log_printf(log, "%s: %s: %s", in->path, what, elf_errmsg(-1));
	return -ENOEXEC;
}

static const char *sec_name(const struct elf_in *in, size_t i)
{
	uint32_t off = in->shdrs[i].sh_name;

	return off < in->shstr_size ? in->shstr + off : "?";
}

static int read_header(struct elf_in *in, const struct btf_log *log)
{
	unsigned char data;

	in->elf = elf_begin(in->fd, ELF_C_READ_MMAP, NULL);
	if (!in->elf || elf_kind(in->elf) != ELF_K_ELF) {
		btf_log_printf(log, "%s: not an ELF file", in->path);
		return -ENOEXEC;
	}
	if (!gelf_getehdr(in->elf, &in->ehdr))
		return bad_elf(in, "bad ELF header", log);
	data = in->ehdr.e_ident[EI_DATA];
	if (data != ELFDATA2LSB && data != ELFDATA2MSB) {
		btf_log_printf(log, "%s: unknown ELF byte order %u", in->path, data);
		return -ENOEXEC;
	}
	if (elf_getshdrnum(in->elf, &in->shnum) || elf_getshdrstrndx(in->elf, &in->shstrndx) ||
	    elf_getphdrnum(in->elf, &in->phnum))
		return bad_elf(in, "bad ELF header", log);
	/* libelf reports no sections when the table is not inside the file. */
	if (!in->shnum && in->ehdr.e_shoff) {
		btf_log_printf(log, "%s: section header table at 0x%llx lies past the end of the file (%llu bytes)",
			       in->path, (unsigned long long)in->ehdr.e_shoff,
			       (unsigned long long)in->size);
		return -ENOEXEC;
	}
	if (!in->shnum) {
		btf_log_printf(log, "%s: no section header table", in->path);
		return -ENOEXEC;
	}
	in->shentsize = gelf_fsize(in->elf, ELF_T_SHDR, 1, EV_CURRENT);
	if (in->ehdr.e_shentsize != in->shentsize) {
		btf_log_printf(log, "%s: unexpected section header size %u", in->path,
			       in->ehdr.e_shentsize);
		return -ENOEXEC;
	}
	return 0;
}

/*
 * Checks that the header tables and every segment lie inside the file.
 * libelf is lenient here (it reads what it can), but a truncated file
 * must be reported, not extended with our data.
 */
static int check_tables(struct elf_in *in, const struct btf_log *log)
{
	const GElf_Ehdr *eh = &in->ehdr;
	GElf_Phdr ph;
	size_t i;

	if (in->shnum > in->size / in->shentsize ||
	    !in_file(eh->e_shoff, (uint64_t)in->shnum * in->shentsize, in->size)) {
		btf_log_printf(log, "%s: section header table lies past the end of the file (%llu bytes)",
			       in->path, (unsigned long long)in->size);
		return -ENOEXEC;
	}
	if (in->phnum && (in->phnum > in->size / eh->e_phentsize ||
			  !in_file(eh->e_phoff, (uint64_t)in->phnum * eh->e_phentsize, in->size))) {
		btf_log_printf(log, "%s: program header table lies past the end of the file",
			       in->path);
		return -ENOEXEC;
	}
	for (i = 0; i < in->phnum; i++) {
		if (!gelf_getphdr(in->elf, (int)i, &ph))
			return bad_elf(in, "bad program header", log);
		if (!in_file(ph.p_offset, ph.p_filesz, in->size)) {
			btf_log_printf(log, "%s: segment %zu lies past the end of the file (%llu bytes)",
				       in->path, i, (unsigned long long)in->size);
			return -ENOEXEC;
		}
	}
	return 0;
}

static int read_shstr(struct elf_in *in, const struct btf_log *log)
{
	const GElf_Shdr *sh;

	if (in->shstrndx >= in->shnum || in->shdrs[in->shstrndx].sh_type != SHT_STRTAB) {
		btf_log_printf(log, "%s: no section name table", in->path);
		return -ENOEXEC;
	}
	sh = &in->shdrs[in->shstrndx];
	if (!sh->sh_size || sh->sh_size > SIZE_MAX / 2 ||
	    !in_file(sh->sh_offset, sh->sh_size, in->size)) {
		btf_log_printf(log, "%s: section name table lies past the end of the file",
			       in->path);
		return -ENOEXEC;
	}
	in->shstr_size = sh->sh_size;
	in->shstr = malloc(in->shstr_size);
	if (!in->shstr)
		return -ENOMEM;
	errno = 0;
	if (pread(in->fd, in->shstr, in->shstr_size, (off_t)sh->sh_offset) != (ssize_t)in->shstr_size)
		return log_errno(log, in->path, "cannot read", errno ? errno : EIO);
	if (in->shstr[in->shstr_size - 1]) {
		btf_log_printf(log, "%s: section name table is not NUL-terminated", in->path);
		return -ENOEXEC;
	}
	return 0;
}

static int read_sections(struct elf_in *in, const struct btf_log *log)
{
	GElf_Shdr *sh;
	size_t i;
	int err;

	in->shdrs = calloc(in->shnum, sizeof(*in->shdrs));
	if (!in->shdrs)
		return log_errno(log, in->path, "out of memory", ENOMEM);
	for (i = 0; i < in->shnum; i++)
		if (!gelf_getshdr(elf_getscn(in->elf, i), &in->shdrs[i]))
			return bad_elf(in, "bad section header", log);
	err = read_shstr(in, log);
	if (err)
		return err;
	for (i = 1; i < in->shnum; i++) {
		sh = &in->shdrs[i];
		if (sh->sh_type != SHT_NOBITS && !in_file(sh->sh_offset, sh->sh_size, in->size)) {
			btf_log_printf(log, "%s: section [%zu] '%s' lies past the end of the file (%llu bytes)",
				       in->path, i, sec_name(in, i), (unsigned long long)in->size);
			return -ENOEXEC;
		}
	}
	return 0;
}

static int elf_in_open(struct elf_in *in, const char *path, const char *target,
		       const struct btf_log *log)
{
	struct stat st;
	int err;

	in->path = path;
	in->fd = open(target, O_RDONLY | O_CLOEXEC);
	if (in->fd < 0)
		return log_errno(log, path, "cannot open", errno);
	if (fstat(in->fd, &st))
		return log_errno(log, path, "cannot stat", errno);
	in->size = st.st_size;
	if (elf_version(EV_CURRENT) == EV_NONE)
		return bad_elf(in, "libelf", log);
	err = read_header(in, log);
	if (!err)
		err = check_tables(in, log);
	if (!err)
		err = read_sections(in, log);
	return err;
}

static void elf_in_close(struct elf_in *in)
{
	elf_end(in->elf);
	if (in->fd >= 0)
		close(in->fd);
	free(in->shdrs);
	free(in->shstr);
}

/* ---- planning the new layout ---- */

struct sec_plan {
	size_t idx;        /* section index in the new file */
	uint64_t off;      /* file offset of its data */
	uint32_t name_off; /* new sections: sh_name */
	bool is_new;
	bool in_place; /* allocated section overwritten where it is */
};

struct range {
	uint64_t start, end;
};

struct plan {
	struct sec_plan *secs;
	char *shstr; /* grown name table, or NULL if unchanged */
	size_t shstr_size;
	uint64_t shstr_off;
	bool *dead;           /* per input section: its old bytes are no longer referenced */
	struct range *ranges; /* those bytes, and the old section header table */
	int nr_ranges;
	uint64_t copy_end; /* input bytes kept */
	uint64_t shoff;
	size_t shnum;
	uint64_t size;
};

/* Returns the index of the section called @name, 0 if none, -EINVAL if several. */
static long find_section(const struct elf_in *in, const char *name)
{
	long found = 0;
	size_t i;

	for (i = 1; i < in->shnum; i++) {
		if (strcmp(sec_name(in, i), name))
			continue;
		if (found)
			return -EINVAL;
		found = (long)i;
	}
	return found;
}

static bool is_relocated(const struct elf_in *in, size_t idx, size_t *by)
{
	size_t i;

	for (i = 1; i < in->shnum; i++) {
		if ((in->shdrs[i].sh_type == SHT_REL || in->shdrs[i].sh_type == SHT_RELA) &&
		    in->shdrs[i].sh_info == idx) {
			*by = i;
			return true;
		}
	}
	return false;
}

static void add_dead(struct plan *p, uint64_t off, uint64_t size)
{
	p->ranges[p->nr_ranges].start = off;
	p->ranges[p->nr_ranges].end = off + size;
	p->nr_ranges++;
}

/*
 * Plans replacing section @idx by @sec.  Its data moves to the end of the
 * file unless the section is loaded, i.e. allocated in an executable or
 * shared object: the segments and the symbols around it pin it, so it can
 * only be overwritten with data of the same size.  In a relocatable
 * object (a module whose .BTF.extra kbuild made alloc) nothing pins it.
 */
static int plan_replace(const struct elf_in *in, size_t idx, const struct enc_section *sec,
			struct plan *p, struct sec_plan *sp, const struct btf_log *log)
{
	const GElf_Shdr *sh = &in->shdrs[idx];
	size_t by;

	sp->idx = idx;
	if (idx == in->shstrndx || sh->sh_type == SHT_NOBITS) {
		btf_log_printf(log, "%s: cannot replace section %s (type %u)", in->path, sec->name,
			       sh->sh_type);
		return -EINVAL;
	}
	if (is_relocated(in, idx, &by)) {
		btf_log_printf(log, "%s: cannot replace section %s: section [%zu] '%s' relocates it",
			       in->path, sec->name, by, sec_name(in, by));
		return -EINVAL;
	}
	if ((sh->sh_flags & SHF_ALLOC) && in->ehdr.e_type != ET_REL) {
		if (sh->sh_size != sec->size) {
			btf_log_printf(log, "%s: cannot resize allocated section %s (%llu -> %zu bytes): it is part of the loaded image",
				       in->path, sec->name, (unsigned long long)sh->sh_size, sec->size);
			return -EINVAL;
		}
		sp->in_place = true;
		sp->off = sh->sh_offset;
		return 0;
	}
	p->dead[idx] = true;
	add_dead(p, sh->sh_offset, sh->sh_size);
	return 0;
}

/* Finds or appends @name in the name table; sets @sp->name_off. */
static int plan_name(const struct elf_in *in, struct plan *p, const char *name,
		     struct sec_plan *sp)
{
	size_t len = strlen(name) + 1;
	const char *tab = p->shstr ? p->shstr : in->shstr;
	size_t tab_size = p->shstr ? p->shstr_size : in->shstr_size;
	const char *hit = memmem(tab, tab_size, name, len);
	char *grown;

	/* Any occurrence works: ".BTF" may be the tail of ".rela.BTF". */
	if (hit) {
		sp->name_off = (uint32_t)(hit - tab);
		return 0;
	}
	if (tab_size + len > UINT32_MAX)
		return -EFBIG;
	grown = realloc(p->shstr, tab_size + len);
	if (!grown)
		return -ENOMEM;
	if (!p->shstr)
		memcpy(grown, in->shstr, tab_size);
	memcpy(grown + tab_size, name, len);
	p->shstr = grown;
	p->shstr_size = tab_size + len;
	sp->name_off = (uint32_t)tab_size;
	return 0;
}

static int plan_sections(const struct elf_in *in, const struct enc_section *secs, int nr,
			 struct plan *p, const struct btf_log *log)
{
	long idx;
	int i, err;

	p->shnum = in->shnum;
	for (i = 0; i < nr; i++) {
		idx = find_section(in, secs[i].name);
		if (idx < 0) {
			btf_log_printf(log, "%s: several sections are named %s", in->path,
				       secs[i].name);
			return -EINVAL;
		}
		if (idx) {
			err = plan_replace(in, idx, &secs[i], p, &p->secs[i], log);
			if (err)
				return err;
			continue;
		}
		p->secs[i].is_new = true;
		p->secs[i].idx = p->shnum++;
		err = plan_name(in, p, secs[i].name, &p->secs[i]);
		if (err)
			return log_errno(log, in->path, "section name table", -err);
	}
	if (p->shstr && (in->shdrs[in->shstrndx].sh_flags & SHF_ALLOC)) {
		btf_log_printf(log, "%s: cannot grow an allocated section name table", in->path);
		return -EINVAL;
	}
	if (p->shstr) {
		p->dead[in->shstrndx] = true;
		add_dead(p, in->shdrs[in->shstrndx].sh_offset, in->shdrs[in->shstrndx].sh_size);
	}
	add_dead(p, in->ehdr.e_shoff, (uint64_t)in->shnum * in->shentsize);
	return 0;
}

/* The end of the last byte the new file still refers to through a header. */
static uint64_t live_end(const struct elf_in *in, const struct plan *p)
{
	uint64_t end = in->ehdr.e_ehsize;
	GElf_Phdr ph;
	size_t i;

	if (in->phnum && in->ehdr.e_phoff + (uint64_t)in->phnum * in->ehdr.e_phentsize > end)
		end = in->ehdr.e_phoff + (uint64_t)in->phnum * in->ehdr.e_phentsize;
	for (i = 0; i < in->phnum; i++)
		if (gelf_getphdr(in->elf, (int)i, &ph) && ph.p_offset + ph.p_filesz > end)
			end = ph.p_offset + ph.p_filesz;
	/* An empty section counts too, so that its offset stays inside the file. */
	for (i = 1; i < in->shnum; i++)
		if (!p->dead[i] && in->shdrs[i].sh_type != SHT_NOBITS &&
		    in->shdrs[i].sh_offset + in->shdrs[i].sh_size > end)
			end = in->shdrs[i].sh_offset + in->shdrs[i].sh_size;
	return end;
}

static bool zeros_between(const struct elf_in *in, uint64_t from, uint64_t to)
{
	unsigned char buf[TAIL_SLACK];
	size_t i, n = to - from;

	if (from >= to)
		return true;
	if (n > sizeof(buf) || pread(in->fd, buf, n, (off_t)from) != (ssize_t)n)
		return false;
	for (i = 0; i < n; i++)
		if (buf[i])
			return false;
	return true;
}

/*
 * Walks back from the end of the input through dead ranges (allowing
 * zero padding shorter than TAIL_SLACK between them) and never below the
 * last live byte.
 */
static uint64_t reclaim_tail(const struct elf_in *in, const struct plan *p)
{
	uint64_t pos = in->size, live = live_end(in, p);
	const struct range *r;
	bool moved = true;
	int i;

	while (moved) {
		moved = false;
		for (i = 0; i < p->nr_ranges; i++) {
			r = &p->ranges[i];
			if (r->start >= pos || r->end + TAIL_SLACK <= pos ||
			    !zeros_between(in, r->end, pos))
				continue;
			pos = r->start;
			moved = true;
		}
	}
	return pos > live ? pos : live;
}

static int plan_layout(const struct elf_in *in, const struct enc_section *secs, int nr,
		       struct plan *p, const struct btf_log *log)
{
	uint64_t off, align = gelf_getclass(in->elf) == ELFCLASS32 ? 4 : 8;
	int i;

	/*
	 * The name table goes first so that the data, the part a later run
	 * replaces, ends up next to the section header table and is reclaimed.
	 */
	off = p->copy_end = reclaim_tail(in, p);
	if (p->shstr) {
		p->shstr_off = off;
		off += p->shstr_size;
	}
	for (i = 0; i < nr; i++) {
		if (p->secs[i].in_place)
			continue;
		p->secs[i].off = off;
		off += secs[i].size;
	}
	p->shoff = (off + align - 1) & ~(align - 1);
	p->size = p->shoff + (uint64_t)p->shnum * in->shentsize;
	if (align == 4 && p->size > UINT32_MAX) {
		btf_log_printf(log, "%s: the new file (%llu bytes) is too large for ELF32", in->path,
			       (unsigned long long)p->size);
		return -EFBIG;
	}
	return 0;
}

static int plan_build(const struct elf_in *in, const struct enc_section *secs, int nr,
		      struct plan *p, const struct btf_log *log)
{
	int err;

	p->secs = calloc(nr, sizeof(*p->secs));
	p->dead = calloc(in->shnum, sizeof(*p->dead));
	p->ranges = calloc(nr + 2, sizeof(*p->ranges));
	if (!p->secs || !p->dead || !p->ranges)
		return log_errno(log, in->path, "out of memory", ENOMEM);
	err = plan_sections(in, secs, nr, p, log);
	if (err)
		return err;
	return plan_layout(in, secs, nr, p, log);
}

static void plan_free(struct plan *p)
{
	free(p->secs);
	free(p->shstr);
	free(p->dead);
	free(p->ranges);
}

/* ---- writing ---- */

/* Converts @sh to the file's class and byte order at @dst. */
static int encode_shdr(const struct elf_in *in, const GElf_Shdr *sh, void *dst)
{
	Elf_Data d = { .d_buf = dst, .d_size = in->shentsize, .d_version = EV_CURRENT };
	Elf_Data s = { .d_type = ELF_T_SHDR, .d_size = in->shentsize, .d_version = EV_CURRENT };
	Elf32_Shdr s32;
	Elf64_Shdr s64 = {
		.sh_name = sh->sh_name, .sh_type = sh->sh_type, .sh_flags = sh->sh_flags,
		.sh_addr = sh->sh_addr, .sh_offset = sh->sh_offset, .sh_size = sh->sh_size,
		.sh_link = sh->sh_link, .sh_info = sh->sh_info,
		.sh_addralign = sh->sh_addralign, .sh_entsize = sh->sh_entsize,
	};

	s.d_buf = &s64;
	if (gelf_getclass(in->elf) == ELFCLASS32) {
		s32 = (Elf32_Shdr){
			.sh_name = sh->sh_name, .sh_type = sh->sh_type, .sh_flags = sh->sh_flags,
			.sh_addr = sh->sh_addr, .sh_offset = sh->sh_offset, .sh_size = sh->sh_size,
			.sh_link = sh->sh_link, .sh_info = sh->sh_info,
			.sh_addralign = sh->sh_addralign, .sh_entsize = sh->sh_entsize,
		};
		s.d_buf = &s32;
	}
	return gelf_xlatetof(in->elf, &d, &s, in->ehdr.e_ident[EI_DATA]) ? 0 : -EINVAL;
}

static int encode_ehdr(const struct elf_in *in, const GElf_Ehdr *eh, void *dst, size_t size)
{
	Elf_Data d = { .d_buf = dst, .d_size = size, .d_version = EV_CURRENT };
	Elf_Data s = { .d_type = ELF_T_EHDR, .d_size = size, .d_version = EV_CURRENT };
	Elf32_Ehdr e32;
	Elf64_Ehdr e64;

#define COPY_EHDR(e)                                                                        \
	do {                                                                                \
		memcpy((e).e_ident, eh->e_ident, EI_NIDENT);                                \
		(e).e_type = eh->e_type, (e).e_machine = eh->e_machine;                     \
		(e).e_version = eh->e_version, (e).e_entry = eh->e_entry;                   \
		(e).e_phoff = eh->e_phoff, (e).e_shoff = eh->e_shoff;                       \
		(e).e_flags = eh->e_flags, (e).e_ehsize = eh->e_ehsize;                     \
		(e).e_phentsize = eh->e_phentsize, (e).e_phnum = eh->e_phnum;               \
		(e).e_shentsize = eh->e_shentsize, (e).e_shnum = eh->e_shnum;               \
		(e).e_shstrndx = eh->e_shstrndx;                                            \
	} while (0)
	if (gelf_getclass(in->elf) == ELFCLASS32) {
		COPY_EHDR(e32);
		s.d_buf = &e32;
	} else {
		COPY_EHDR(e64);
		s.d_buf = &e64;
	}
#undef COPY_EHDR
	return gelf_xlatetof(in->elf, &d, &s, in->ehdr.e_ident[EI_DATA]) ? 0 : -EINVAL;
}

/*
 * The new section header table: the input's entries byte for byte, with
 * the few we change re-encoded, then one entry per added section.
 */
static int write_shdrs(const struct elf_in *in, const struct plan *p,
		       const struct enc_section *secs, int nr, int fd)
{
	size_t old_bytes = in->shnum * in->shentsize;
	unsigned char *tab = calloc(p->shnum, in->shentsize);
	GElf_Shdr sh;
	int i, err = 0;

	if (!tab)
		return -ENOMEM;
	errno = 0;
	if (pread(in->fd, tab, old_bytes, (off_t)in->ehdr.e_shoff) != (ssize_t)old_bytes) {
		err = errno ? -errno : -EIO;
		goto out;
	}
	for (i = 0; i < nr && !err; i++) {
		if (p->secs[i].in_place)
			continue;
		sh = p->secs[i].is_new ? (GElf_Shdr){
			.sh_name = p->secs[i].name_off, .sh_type = SHT_PROGBITS, .sh_addralign = 1,
		} : in->shdrs[p->secs[i].idx];
		sh.sh_offset = p->secs[i].off;
		sh.sh_size = secs[i].size;
		err = encode_shdr(in, &sh, tab + p->secs[i].idx * in->shentsize);
	}
	if (!err && p->shstr) {
		sh = in->shdrs[in->shstrndx];
		sh.sh_offset = p->shstr_off;
		sh.sh_size = p->shstr_size;
		err = encode_shdr(in, &sh, tab + in->shstrndx * in->shentsize);
	}
	/* Extended numbering: the count lives in section 0's sh_size. */
	if (!err && p->shnum >= SHN_LORESERVE) {
		sh = in->shdrs[0];
		sh.sh_size = p->shnum;
		err = encode_shdr(in, &sh, tab);
	}
	if (!err)
		err = pwrite_all(fd, tab, p->shnum * in->shentsize, p->shoff);
out:
	free(tab);
	return err;
}

static int write_ehdr(const struct elf_in *in, const struct plan *p, int fd)
{
	GElf_Ehdr eh = in->ehdr;
	unsigned char buf[sizeof(Elf64_Ehdr)];
	size_t size = gelf_fsize(in->elf, ELF_T_EHDR, 1, EV_CURRENT);
	int err;

	eh.e_shoff = p->shoff;
	eh.e_shnum = p->shnum < SHN_LORESERVE ? p->shnum : 0;
	err = encode_ehdr(in, &eh, buf, size);
	return err ? err : pwrite_all(fd, buf, size, 0);
}

static int write_output(const struct elf_in *in, const struct plan *p,
			const struct enc_section *secs, int nr, int fd)
{
	int i, err;

	err = copy_prefix(in->fd, fd, p->copy_end);
	for (i = 0; i < nr && !err; i++)
		err = pwrite_all(fd, secs[i].data, secs[i].size, p->secs[i].off);
	if (!err && p->shstr)
		err = pwrite_all(fd, p->shstr, p->shstr_size, p->shstr_off);
	if (!err)
		err = write_shdrs(in, p, secs, nr, fd);
	if (!err)
		err = write_ehdr(in, p, fd);
	return err;
}

static int check_sections_arg(const char *path, const struct enc_section *secs, int nr,
			      const struct btf_log *log)
{
	int i, j;

	if (nr < 1 || !secs) {
		btf_log_printf(log, "%s: no section to add", path);
		return -EINVAL;
	}
	for (i = 0; i < nr; i++) {
		if (!secs[i].name || !secs[i].name[0] || (secs[i].size && !secs[i].data)) {
			btf_log_printf(log, "%s: bad section argument %d", path, i);
			return -EINVAL;
		}
		for (j = 0; j < i; j++) {
			if (!strcmp(secs[i].name, secs[j].name)) {
				btf_log_printf(log, "%s: section %s given twice", path, secs[i].name);
				return -EINVAL;
			}
		}
	}
	return 0;
}

int enc_elf_write_sections(const char *path, const struct enc_section *secs, int nr_secs,
			   const struct btf_log *log)
{
	struct out_file o = { .fd = -1 };
	struct elf_in in = { .fd = -1 };
	struct plan p = { 0 };
	int err;

	err = check_sections_arg(path, secs, nr_secs, log);
	if (!err)
		err = out_resolve(&o, path, true, log);
	if (!err)
		err = out_check_writable(&o, log);
	if (!err)
		err = elf_in_open(&in, path, o.target, log);
	if (!err)
		err = plan_build(&in, secs, nr_secs, &p, log);
	if (!err)
		err = out_check_size(&o, p.size, log);
	if (!err)
		err = out_create(&o, S_IRUSR | S_IWUSR, p.size, log);
	if (err)
		goto out;
	err = write_output(&in, &p, secs, nr_secs, o.fd);
	if (err) {
		log_errno(log, path, "cannot write the new file", -err);
		goto out;
	}
	err = out_commit(&o, log);
out:
	out_release(&o);
	plan_free(&p);
	elf_in_close(&in);
	return err;
}

int enc_write_file_atomic(const char *path, const void *data, size_t size,
			  const struct btf_log *log)
{
	struct out_file o = { .fd = -1 };
	mode_t mode;
	int err;

	if (size && !data) {
		btf_log_printf(log, "%s: no data to write", path);
		return -EINVAL;
	}
	err = out_resolve(&o, path, false, log);
	if (!err)
		err = out_check_writable(&o, log);
	if (!err)
		err = out_check_size(&o, size, log);
	/* An existing file gets its own mode back in out_commit(). */
	mode = o.existed ? S_IRUSR | S_IWUSR : S_IRUSR | S_IWUSR | S_IRGRP;
	if (!err)
		err = out_create(&o, mode, size, log);
	if (err)
		goto out;
	err = pwrite_all(o.fd, data, size, 0);
	if (!err && ftruncate(o.fd, (off_t)size))
		err = -errno;
	if (err) {
		log_errno(log, path, "cannot write the new file", -err);
		goto out;
	}
	err = out_commit(&o, log);
out:
	out_release(&o);
	return err;
}
