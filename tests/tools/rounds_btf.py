#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""
rounds_btf.py OUT [FILLERS]

Writes a raw BTF file on which the dedup's struct phase on two threads
(btf/dedup_rounds.c) once merged two different definitions of a struct,
for tests/dedup_rounds.sh.  Four CUs, in id order:

  W: struct T { long b; }; struct Y { struct T *p; };
  V: struct T;  struct X { struct T *p; };          (FWD T: the canonical one)
     FILLERS structs of their own
  X: struct X { struct T *p; };  FILLERS structs;  struct T { int a; };
  Z: struct T;  struct Y { struct T *p; };

Comparing X's X with V's resolves the FWD T to X's own T, FILLERS types
further on.  A round that ends just after X's X leaves X's T to the next
round's head, and the other thread, comparing Z's Y with W's, reaches
X's T through that FWD and would mark it as W's T.  One thread keeps
the two Ts apart: struct T { int a; } must be in the output.
"""
import struct
import sys

KIND_INT, KIND_PTR, KIND_STRUCT, KIND_FWD = 1, 2, 4, 7


class Btf:
    def __init__(self):
        self.strs = bytearray(b"\0")
        self.offs = {}
        self.types = []

    def name(self, s):
        if s not in self.offs:
            self.offs[s] = len(self.strs)
            self.strs += s.encode() + b"\0"
        return self.offs[s]

    def add(self, rec):
        self.types.append(rec)
        return len(self.types)

    def int_(self, name, size):
        return self.add(struct.pack("<IIII", self.name(name), KIND_INT << 24, size, size * 8))

    def ptr(self, to):
        return self.add(struct.pack("<III", 0, KIND_PTR << 24, to))

    def fwd(self, name):
        return self.add(struct.pack("<III", self.name(name), KIND_FWD << 24, 0))

    def struct_(self, name, size, members):
        rec = struct.pack("<III", self.name(name), KIND_STRUCT << 24 | len(members), size)
        for mname, mtype, bit_off in members:
            rec += struct.pack("<III", self.name(mname), mtype, bit_off)
        return self.add(rec)

    def raw(self):
        types = b"".join(self.types)
        hdr = struct.pack("<HBBIIIII", 0xEB9F, 1, 0, 24, 0, len(types), len(types),
                          len(self.strs))
        return hdr + types + bytes(self.strs)


def main():
    out = sys.argv[1]
    fillers = int(sys.argv[2]) if len(sys.argv) > 2 else 50000
    b = Btf()

    lng = b.int_("long", 8)
    t_w = b.struct_("T", 8, [("b", lng, 0)])
    b.struct_("Y", 8, [("p", b.ptr(t_w), 0)])

    b.struct_("X", 8, [("p", b.ptr(b.fwd("T")), 0)])
    for i in range(fillers):
        b.struct_("G%d" % i, 8, [("c", lng, 0)])

    # X's pointer refers forward to X's T, the last type of the CU.
    ptr_x = b.add(None)
    b.struct_("X", 8, [("p", ptr_x, 0)])
    int4 = b.int_("int", 4)
    for i in range(fillers):
        b.struct_("F%d" % i, 4, [("a", int4, 0)])
    t_x = b.struct_("T", 4, [("a", int4, 0)])
    b.types[ptr_x - 1] = struct.pack("<III", 0, KIND_PTR << 24, t_x)

    b.struct_("Y", 8, [("p", b.ptr(b.fwd("T")), 0)])

    with open(out, "wb") as f:
        f.write(b.raw())


if __name__ == "__main__":
    main()
