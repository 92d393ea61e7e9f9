/* SPDX-License-Identifier: GPL-2.0 */
/*
 * elf_write.h - put BTF into files: add or replace sections of an ELF
 * file in place (-J), or write a raw BTF file (--btf_encode_detached).
 *
 * Both functions replace their target atomically: the new contents go to
 * a temporary file beside the target, which is fsync'ed and renamed over
 * it.  After a failure the target is byte-identical to what it was and
 * the temporary file is gone.  After SIGKILL (or a power cut before the
 * rename) the target is still intact but a stale temporary file named
 * ".NAME.btfenc-XXXXXX" may remain in its directory; it is safe to
 * delete.
 */
#ifndef BTFENC_ELF_WRITE_H
#define BTFENC_ELF_WRITE_H

#include "../btf/btf.h"

#include <stddef.h>

/* One section to add: @data (@size bytes, any byte order) is copied as is. */
struct enc_section {
	const char *name; /* ".BTF", ".BTF.extra", ".BTF.base" */
	const void *data;
	size_t size;
};

/*
 * Adds each section of @secs (@nr_secs >= 1, distinct names) to the ELF
 * file @path, replacing a section of the same name if present.
 *
 * Everything already in the file keeps its bytes, offset and header: the
 * original bytes are copied unchanged, the section data, a grown copy of
 * the section-name string table (only if a name is new) and a new section
 * header table are appended at the end, and new section headers go after
 * the existing ones, so every section index stays valid.  An added
 * section looks as `objcopy --add-section` makes it: SHT_PROGBITS,
 * flags 0, alignment 1.  A replaced section keeps its header except
 * offset and size; an allocated one of an executable or shared object
 * (part of the loaded image, e.g. vmlinux's .BTF) can only be replaced by
 * data of the same size, which is written in place.
 * Bytes our own earlier runs left at the end of the file (the old section
 * header table, an old appended .BTF) are reused rather than kept as dead
 * space.
 *
 * @path may be a symlink: its target is rewritten.  The new file keeps
 * the mode and, where permitted, the owner of the old one; timestamps,
 * extended attributes and other hard links are not carried over (as with
 * objcopy).  A file without any write permission bit is refused even for
 * root.  Nobody else may write @path meanwhile.
 *
 * Returns 0 or a negative errno (-EINVAL for an argument or a file we
 * cannot handle, -ENOEXEC for a non-ELF or damaged file, -EFBIG over the
 * file size limit, errors of the system calls otherwise); on failure one
 * line naming @path goes to @log (may be NULL).
 */
int enc_elf_write_sections(const char *path, const struct enc_section *secs, int nr_secs,
			   const struct btf_log *log);

/*
 * Writes @size bytes of @data to @path, replacing it atomically.  A new
 * file gets mode 0640 minus the umask, as pahole's --btf_encode_detached
 * does; an existing one keeps its mode and owner (and, unlike pahole,
 * never keeps a stale tail).  Symlinks, read-only files and errors are
 * handled as in enc_elf_write_sections().
 */
int enc_write_file_atomic(const char *path, const void *data, size_t size,
			  const struct btf_log *log);

#endif /* BTFENC_ELF_WRITE_H */
