#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""
odd_abbrevs.py OBJ OUTDIR

Writes copies of relocatable object OBJ (little-endian ELF64, DWARF 4 or
5) whose .debug_abbrev holds a valid-looking table that libdw reads in
its own way, for tests/odd_abbrevs.sh:

  shadow.o     the abbreviation of a data member moved to the table's
               end, after an entry whose code is 2^32 plus the member's
               code, where the member offset attribute is renamed
               DW_AT_decl_column: libdw keeps codes in 32 bits, so that
               entry is the one it uses;
  long_sleb.o  the member abbreviation gains a DW_FORM_implicit_const
               attribute whose SLEB128 takes 11 bytes: libdw reads 10 and
               goes on from there.
"""
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "bad_input"))
from elfdwarf import Elf, uleb  # noqa: E402

DW_TAG_member = 0x0d
DW_AT_data_member_location = 0x38
DW_AT_decl_column = 0x39
DW_FORM_implicit_const = 0x21


def enc_uleb(v):
    out = bytearray()
    while True:
        b, v = v & 0x7f, v >> 7
        out.append(b | (0x80 if v else 0))
        if not v:
            return bytes(out)


def entries(table):
    """[(code, tag, bytes after the code, [(name, form, offset in those bytes)])]"""
    out, off = [], 0
    while True:
        start = off
        code, off = uleb(table, off)
        if code == 0:
            return out, table[start:]
        body = off
        tag, off = uleb(table, off)
        off += 1
        pairs = []
        while True:
            at = off - body
            name, off = uleb(table, off)
            form, off = uleb(table, off)
            if name == 0 and form == 0:
                break
            if form == DW_FORM_implicit_const:
                off = uleb(table, off)[1]  # an SLEB's length is a ULEB's
            pairs.append((name, form, at))
        out.append((code, tag, bytes(table[body:off]), pairs))


def main():
    obj, outdir = sys.argv[1], sys.argv[2]
    elf = Elf(open(obj, "rb").read())
    ents, tail = entries(elf.section(".debug_abbrev"))
    member = next(e for e in ents if e[1] == DW_TAG_member and
                  any(n == DW_AT_data_member_location and f in (0x0b, 0x05) for n, f, _ in e[3]))
    code, _, body, pairs = member
    at = next(a for n, f, a in pairs if n == DW_AT_data_member_location)
    renamed = body[:at] + bytes([DW_AT_decl_column]) + body[at + 1:]
    others = b"".join(enc_uleb(c) + b for c, _, b, _ in ents if c != code)
    tables = {
        # At the table's end, the shadow first: libdw takes it for the code.
        "shadow": others + enc_uleb((1 << 32) + code) + renamed + enc_uleb(code) + body,
        # 0x7f ends the 11-byte SLEB128 for a reader of any length; libdw
        # takes it for the next attribute's name.
        "long_sleb": b"".join(enc_uleb(c) + (b[:-2] + bytes([DW_AT_decl_column,
                                                               DW_FORM_implicit_const]) +
                                             b"\x80" * 10 + b"\x7f" + b"\0\0"
                                             if c == code else b)
                              for c, _, b, _ in ents),
    }
    for name, table in tables.items():
        table += tail
        path = os.path.join(outdir, name + ".bin")
        open(path, "wb").write(table)
        subprocess.run(["objcopy", "--update-section", ".debug_abbrev=" + path, obj,
                        os.path.join(outdir, name + ".o")], check=True)


if __name__ == "__main__":
    main()
