#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""
cut_names.py OBJ NAME...

Cuts each NAME in OBJ's .debug_str to "" (its first byte becomes NUL), in
place, wherever it starts a string: a DIE that named it then has an
empty name.  For tests/empty_names.sh.  Exit 77: not a little-endian
ELF64 file, or .debug_str missing or compressed (the fixture cannot be
made here); 1: a NAME not found.
"""
import os
import struct
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "bad_input"))
from elfdwarf import Elf  # noqa: E402

SHF_COMPRESSED = 0x800


def main():
    path, names = sys.argv[1], sys.argv[2:]
    try:
        elf = Elf(open(path, "rb").read())
    except ValueError as e:
        print("SKIP: %s: %s" % (path, e))
        return 77
    h = elf.sections.get(".debug_str")
    if h is None or struct.unpack_from("<Q", elf.data, h["hdr"] + 8)[0] & SHF_COMPRESSED:
        print("SKIP: %s: no uncompressed .debug_str" % path)
        return 77
    start, end = elf.span(".debug_str")
    for name in names:
        want = name.encode() + b"\0"
        at, cut = elf.data.find(want, start, end), 0
        while at >= 0:
            if at == start or elf.data[at - 1] == 0:
                elf.data[at] = 0
                cut += 1
            at = elf.data.find(want, at + 1, end)
        if not cut:
            print("%s: %s not in .debug_str" % (path, name))
            return 1
    open(path, "wb").write(elf.data)
    return 0


sys.exit(main())
