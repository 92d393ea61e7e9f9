#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""
gen_cases.py OUTDIR --btfenc B --cc CC --demo DEMO --fixtures DIR [--clang C] [--ref F]

Builds the bad-input corpus from the fixtures: compiles a few of them
(DWARF 5 and 4, executable and relocatable), then writes damaged copies
into OUTDIR and OUTDIR/manifest.json, which run_cases.py executes.  Every
damage is computed from the parsed file (section headers, DIEs, location
lists, BTF types), so the corpus follows the fixtures when they change.

A case: name, group, input (file in OUTDIR, or a special: "missing",
"dir"), modes (J, detached, dump, inlines, stats), args, base (file in
OUTDIR), expect ("fail": exit 1 with one line; "any": that, or exit 0
with an output that validates), user ("nobody": run unprivileged),
mode/dirmode (permission bits).
"""
import argparse
import json
import os
import random
import shutil
import struct
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import elfdwarf  # noqa: E402
from elfdwarf import Elf  # noqa: E402

DEBUG_SECTIONS = [".debug_info", ".debug_abbrev", ".debug_loclists", ".debug_rnglists",
                  ".debug_str", ".debug_loc", ".debug_ranges", ".debug_line",
                  ".debug_line_str", ".rela.debug_info"]


class Corpus:
    def __init__(self, out):
        self.out = out
        self.cases = []

    def add(self, name, data, group, modes=("J", "detached"), expect="any", **kw):
        if data is not None:
            with open(os.path.join(self.out, name), "wb") as f:
                f.write(data)
        case = {"name": name, "group": group, "input": kw.pop("input", name),
                "modes": list(modes), "expect": expect}
        case.update(kw)
        self.cases.append(case)

    def write(self):
        with open(os.path.join(self.out, "manifest.json"), "w") as f:
            json.dump(self.cases, f, indent=1)


def sh(*cmd):
    subprocess.run(cmd, check=True)


def truncations(c, tag, data):
    elf = Elf(data)
    size = len(data)
    offs = {0, 1, 4, 16, 52, 63, 64, size - 1, elf.shoff, elf.shoff + 1,
            size - elf.shentsize}
    offs.update(size * i // 32 for i in range(1, 32))
    for name in DEBUG_SECTIONS + [".symtab", ".strtab", ".text"]:
        if name in elf.sections:
            start, end = elf.span(name)
            offs.update((start, start + 1, (start + end) // 2))
    for off in sorted(o for o in offs if 0 <= o < size):
        c.add("%s.trunc%06d" % (tag, off), bytes(data[:off]), "truncate")


def section_damage(c, tag, data):
    elf = Elf(data)
    for name in DEBUG_SECTIONS:
        if name not in elf.sections:
            continue
        start, end = elf.span(name)
        short = name.lstrip(".")
        d = bytearray(data)
        d[start:end] = bytes(end - start)
        c.add("%s.zero.%s" % (tag, short), d, "section")
        for seed in range(3):
            rnd = random.Random("%s%s%d" % (tag, name, seed))
            d = bytearray(data)
            d[start:end] = bytes(rnd.randrange(256) for _ in range(end - start))
            c.add("%s.garble%d.%s" % (tag, seed, short), d, "section")
            d = bytearray(data)
            for _ in range(16):
                d[rnd.randrange(start, end)] = rnd.randrange(256)
            c.add("%s.flip%d.%s" % (tag, seed, short), d, "section")


def header_damage(c, tag, data):
    size = len(data)
    for name in [".debug_info", ".debug_abbrev", ".debug_str", ".debug_loclists",
                 ".debug_loc", ".debug_line", ".symtab", ".shstrtab"]:
        elf = Elf(data)
        if name not in elf.sections:
            continue
        short = name.lstrip(".")
        for what, kw in [("offpast", {"offset": size + 4096}),
                         ("endpast", {"offset": size - 8}),
                         ("hugesize", {"size": 1 << 62}),
                         ("bigsize", {"size": size * 10})]:
            elf = Elf(data)
            elf.set_sh(name, **kw)
            c.add("%s.sh.%s.%s" % (tag, what, short), elf.data, "header")
    # The symbol table, read on a thread of its own beside the decode.
    if ".symtab" in Elf(data).sections:
        for what, kw in [("entsize0", {"entsize": 0}), ("linkbad", {"link": 0xfff0})]:
            elf = Elf(data)
            elf.set_sh(".symtab", **kw)
            c.add("%s.sh.%s.symtab" % (tag, what), elf.data, "header")
    elf = Elf(data)
    for what, fmt, at, val in [("shoff_past", "<Q", 0x28, size + 64),
                               ("shoff_huge", "<Q", 0x28, 1 << 63),
                               ("shnum_huge", "<H", 0x3c, 0xffff),
                               ("shstrndx_bad", "<H", 0x3e, 0xfff0),
                               ("shentsize_0", "<H", 0x3a, 0)]:
        d = bytearray(data)
        struct.pack_into(fmt, d, at, val)
        c.add("%s.ehdr.%s" % (tag, what), d, "header")
    # Section header table overlapping the last bytes of the file.
    d = bytearray(data)
    struct.pack_into("<Q", d, 0x28, size - elf.shentsize * elf.shnum // 2)
    c.add("%s.ehdr.shoff_overlap_end" % tag, d, "header")


def patch_ref(elf, die, attr, target):
    """Sets @die's @attr (a CU-relative DW_FORM_ref4) to CU-relative @target."""
    info = elf.sections[".debug_info"]["offset"]
    for a, form, at, _ in die["attrs"]:
        if a == attr and form == elfdwarf.DW_FORM_ref4:
            struct.pack_into("<I", elf.data, info + at, target & 0xffffffff)
            return True
    return False


def has_ref4(die, attr):
    return any(a == attr and f == elfdwarf.DW_FORM_ref4 for a, f, _, _ in die["attrs"])


def dwarf_damage(c, tag, data, dwarf4):
    dies = elfdwarf.dies(Elf(data))
    with_ao = [d for d in dies if has_ref4(d, elfdwarf.DW_AT_abstract_origin)]
    inl = [d for d in with_ao if d["tag"] == elfdwarf.DW_TAG_inlined_subroutine]

    def variant(name, patches):
        elf = Elf(data)
        for die, attr, target in patches:
            if not patch_ref(elf, die, attr, target):
                return
        c.add("%s.dw.%s" % (tag, name), elf.data, "dwarf")

    rel = lambda d: d["off"] - d["cu"]  # noqa: E731
    for i, d in enumerate(with_ao[:3]):
        variant("ao_self%d" % i, [(d, elfdwarf.DW_AT_abstract_origin, rel(d))])
    if len(inl) >= 2:
        a, b = inl[0], inl[1]
        if a["cu"] == b["cu"]:
            variant("ao_cycle2", [(a, elfdwarf.DW_AT_abstract_origin, rel(b)),
                                  (b, elfdwarf.DW_AT_abstract_origin, rel(a))])
    if with_ao:
        d = with_ao[0]
        variant("ao_outside", [(d, elfdwarf.DW_AT_abstract_origin, 0xfffffff0)])
        variant("ao_cuheader", [(d, elfdwarf.DW_AT_abstract_origin, 0)])
        variant("ao_middie", [(d, elfdwarf.DW_AT_abstract_origin, rel(d) + 1)])
    # Type cycles: a typedef/pointer/const/volatile naming itself.
    for t in (0x16, 0x0f, 0x26, 0x35, 0x01):
        for d in dies:
            if d["tag"] == t and has_ref4(d, elfdwarf.DW_AT_type):
                variant("type_self_tag%x" % t, [(d, elfdwarf.DW_AT_type, rel(d))])
                break
    sib = [d for d in dies if has_ref4(d, elfdwarf.DW_AT_sibling)]
    for i, d in enumerate(sib[:2]):
        variant("sibling_self%d" % i, [(d, elfdwarf.DW_AT_sibling, rel(d))])
    if sib:
        variant("sibling_back", [(sib[-1], elfdwarf.DW_AT_sibling, rel(sib[0]))])

    # A unit length past the end of .debug_info (libdw takes the unit
    # anyway), and one in the reserved range: nothing may be read beyond
    # the section.
    start, end = Elf(data).span(".debug_info")
    for name, length in (("unit_len_huge", 0x7ffffff0), ("unit_len_reserved", 0xfffffff0)):
        elf = Elf(data)
        struct.pack_into("<I", elf.data, start, length)
        c.add("%s.dw.%s" % (tag, name), elf.data, "dwarf")
    # ... and with a 2 GB block in the unit DIE (its first DW_FORM_strp made
    # DW_FORM_block4), which fits that length but not the section.
    abbrev = Elf(data).sections[".debug_abbrev"]["offset"]
    strp = [(pos, at) for a, form, pos, at in dies[0]["attrs"] if form == 0x0e] if dies else []
    if strp:
        elf = Elf(data)
        struct.pack_into("<I", elf.data, start, 0x7ffffff0)
        elf.data[abbrev + strp[0][1]] = 0x04
        struct.pack_into("<I", elf.data, start + strp[0][0], 0x7fffff00)
        c.add("%s.dw.unit_len_huge_block" % tag, elf.data, "dwarf")

    # DW_AT_location in a form it must not have (same encoded size, so
    # the rest of the unit still parses).
    wrong = {elfdwarf.DW_FORM_sec_offset: [("strp", elfdwarf.DW_FORM_strp),
                                          ("ref4", elfdwarf.DW_FORM_ref4),
                                          ("data4", elfdwarf.DW_FORM_data4)],
             elfdwarf.DW_FORM_exprloc: [("block", elfdwarf.DW_FORM_block)]}
    abbrev = Elf(data).sections[".debug_abbrev"]["offset"]
    seen = {}
    for d in dies:
        for a, form, _, form_at in d["attrs"]:
            if a == elfdwarf.DW_AT_location and form in wrong:
                seen.setdefault(form, set()).add(form_at)
    for form, ats in seen.items():
        for fname, newform in wrong[form]:
            elf = Elf(data)
            for at in ats:
                elf.data[abbrev + at] = newform
            c.add("%s.dw.location_as_%s" % (tag, fname), elf.data, "dwarf")

    # Location lists without their terminator.
    elf = Elf(data)
    if not dwarf4 and ".debug_loclists" in elf.sections:
        ends = elfdwarf.loclist_terminators(elf, dies)
        start, end = elf.span(".debug_loclists")
        if ends and ends[-1] == end - start - 1:
            length, = struct.unpack_from("<I", elf.data, start)
            struct.pack_into("<I", elf.data, start, length - 1)
            elf.set_sh(".debug_loclists", size=end - start - 1)
            c.add("%s.dw.loclist_noterm_last" % tag, elf.data, "dwarf")
            elf = Elf(data)
            elf.data[start + ends[-1]] = 0x04  # DW_LLE_offset_pair, running off the end
            c.add("%s.dw.loclist_runoff" % tag, elf.data, "dwarf")
        if len(ends) > 1:
            elf = Elf(data)
            for e in ends:  # every list runs into the next one
                elf.data[start + e] = 0x05  # DW_LLE_default_location
            c.add("%s.dw.loclist_noterm_all" % tag, elf.data, "dwarf")
    if dwarf4 and ".debug_loc" in elf.sections:
        start, end = elf.span(".debug_loc")
        if elf.data[end - 16:end] == bytes(16):
            elf.set_sh(".debug_loc", size=end - start - 16)
            c.add("%s.dw.loc_noterm_last" % tag, elf.data, "dwarf")


def btf_damage(c, btfenc, demo):
    """Encoded BTF (raw and in ELF) with huge vlen and broken headers."""
    raw = os.path.join(c.out, "good.btf")
    sh(btfenc, "--btf_encode_detached", raw, "--btf_features=default,inline.extra", demo)
    elf_path = os.path.join(c.out, "good.elf")
    shutil.copyfile(demo, elf_path)
    sh(btfenc, "-J", "--btf_features=default,inline.extra", elf_path)
    c.add("good.btf", None, "btf", modes=["dump"], expect="any")
    c.add("good.elf", None, "btf", modes=["dump", "inlines", "stats"], expect="any")
    blobs = {"btf": open(raw, "rb").read(), "extra": open(raw + ".extra", "rb").read()}
    elf = Elf(open(elf_path, "rb").read())
    spans = {"btf": elf.span(".BTF"), "extra": elf.span(".BTF.extra")}

    def emit(which, name, patch):
        blob = bytearray(blobs[which])
        patch(blob)
        tag = "btf.%s.%s" % (which, name)
        if which == "btf":
            c.add(tag + ".raw", blob, "btf", modes=["dump"], expect="fail")
            c.add(tag + ".base", None, "btf", modes=["detached"], expect="fail",
                  input="good.elf.src", base=tag + ".raw")
        else:
            c.add(tag + ".raw", blob, "btf", modes=["dump"], expect="fail", base="good.btf")
        d = bytearray(elf.data)
        start, end = spans[which]
        d[start:end] = blob
        # dump reads .BTF only; inlines and stats read .BTF.extra too.
        modes = ["dump", "inlines", "stats"] if which == "btf" else ["inlines", "stats"]
        c.add(tag + ".elf", d, "btf", modes=modes, expect="fail")

    shutil.copyfile(demo, os.path.join(c.out, "good.elf.src"))
    for which in ("btf", "extra"):
        types = elfdwarf.btf_types(blobs[which])
        for kind in (4, 5, 6, 13, 15, 19, 21, 22):
            first = [t for t in types if t[1] == kind]
            if not first:
                continue
            off = first[0][0]

            def huge(b, off=off):
                info, = struct.unpack_from("<I", b, off + 4)
                struct.pack_into("<I", b, off + 4, info | 0xffff)
            emit(which, "vlen_huge_kind%d" % kind, huge)
        for field, at, val in [("type_len", 12, 0xffffffff), ("str_len", 20, 0xffffffff),
                               ("str_off", 16, 0xfffffff0), ("hdr_len", 4, 0xffff),
                               ("hdr_len_small", 4, 8), ("magic", 0, 0x9feb)]:
            fmt = "<H" if field == "magic" else "<I"
            emit(which, "hdr_" + field, lambda b, fmt=fmt, at=at, val=val:
                 struct.pack_into(fmt, b, at, val))


def base_cases(c, fixtures, ref):
    c.add("text.file", b"this is not BTF\n", "base", modes=[], expect="fail")
    c.add("empty.base", b"", "base", modes=[], expect="fail")
    for base, expect in [("text.file", "fail"), ("empty.base", "fail"), ("missing", "fail"),
                         ("dir", "fail"), ("good.elf.src", "fail"),
                         ("good.btf.extra", "any"), ("types.o.btf", "any"),
                         ("ref.vmlinux.BTF", "any")]:
        if base == "ref.vmlinux.BTF":
            if not ref or not os.path.exists(ref):
                continue
            shutil.copyfile(ref, os.path.join(c.out, base))
        c.add("base_%s.case" % base.replace(".", "_"), None, "base", modes=["J", "detached"],
              expect=expect, input="args-gcc-dw5", base=base)


def file_cases(c, cc, src):
    c.add("empty", b"", "file", expect="fail")
    c.add("text", b"#!/bin/sh\necho not an ELF file\n", "file", expect="fail")
    c.add("dir", None, "file", expect="fail", input="dir")
    c.add("missing", None, "file", expect="fail", input="missing")
    out = c.out
    sh(cc, "-O2", "-c", "-o", os.path.join(out, "nodebug.o"), src)
    c.add("nodebug.o", None, "file", expect="fail")
    sh(cc, "-O2", "-o", os.path.join(out, "nodebug.exe"), src)
    c.add("nodebug.exe", None, "file", expect="fail")
    sh("strip", "-o", os.path.join(out, "stripped"), os.path.join(out, "args-gcc-dw5"))
    c.add("stripped", None, "file", expect="fail")
    sh("strip", "-g", "-o", os.path.join(out, "stripped-g.o"), os.path.join(out, "types.o"))
    c.add("stripped-g.o", None, "file", expect="fail")
    # Odd but legal: a skeleton unit whose .dwo is not there, DWARF in .o
    # with relocations, a shared object.
    sh(cc, "-O2", "-g", "-gsplit-dwarf", "-c", "-o", os.path.join(out, "split.o"), src)
    os.unlink(os.path.join(out, "split.dwo"))
    c.add("split.o", None, "file", expect="any")
    c.add("types.o", None, "file", expect="any")
    sh(cc, "-O2", "-g", "-shared", "-fPIC", "-o", os.path.join(out, "args.so"), src)
    c.add("args.so", None, "file", expect="any")


def perm_cases(c):
    # Not readable: must fail, and as nobody (root reads anything).
    c.add("noread", None, "perm", expect="fail", input="args-gcc-dw5", mode=0o000, user="nobody")
    # Target in a directory nobody may write: no temp file can be made.
    c.add("rodir", None, "perm", modes=["J"], expect="any", input="args-gcc-dw5",
          dirmode=0o555, user="nobody")
    # Read-only file in a writable directory.
    c.add("rofile", None, "perm", modes=["J"], expect="any", input="args-gcc-dw5",
          mode=0o444, user="nobody")
    # Detached output into a directory nobody may write.
    c.add("rodir_detached", None, "perm", modes=["detached"], expect="fail",
          input="args-gcc-dw5", dirmode=0o555, user="nobody")


def main():
    p = argparse.ArgumentParser()
    p.add_argument("out")
    p.add_argument("--btfenc", required=True)
    p.add_argument("--cc", required=True)
    p.add_argument("--clang")
    p.add_argument("--demo", required=True)
    p.add_argument("--fixtures", required=True)
    p.add_argument("--ref")
    a = p.parse_args()

    shutil.rmtree(a.out, ignore_errors=True)
    os.makedirs(a.out)
    c = Corpus(a.out)
    src = os.path.join(a.fixtures, "inline", "args.c")
    fixtures = [("args-gcc-dw5", [a.cc, "-O2", "-g"], False),
                ("args-gcc-dw4", [a.cc, "-O2", "-gdwarf-4"], True)]
    if a.clang:
        fixtures.append(("args-clang-dw5", [a.clang, "-O2", "-g"], False))
    for tag, cmd, _ in fixtures:
        sh(*cmd, "-o", os.path.join(a.out, tag), src)
    sh(a.cc, "-O2", "-g", "-c", "-o", os.path.join(a.out, "types.o"),
       os.path.join(a.fixtures, "types", "types.c"))
    sh(a.btfenc, "--btf_encode_detached", os.path.join(a.out, "types.o.btf"),
       os.path.join(a.out, "types.o"))

    for tag, _, dwarf4 in fixtures + [("types.o", None, False)]:
        data = open(os.path.join(a.out, tag), "rb").read()
        if tag in ("args-gcc-dw5", "args-gcc-dw4", "types.o"):
            truncations(c, tag, data)
        section_damage(c, tag, data)
        header_damage(c, tag, data)
        if tag != "types.o":  # ET_REL: relocations rewrite refs; see .rela damage
            dwarf_damage(c, tag, data, dwarf4)
    btf_damage(c, a.btfenc, a.demo)
    base_cases(c, a.fixtures, a.ref)
    file_cases(c, a.cc, src)
    perm_cases(c)
    c.write()
    groups = {}
    for case in c.cases:
        groups[case["group"]] = groups.get(case["group"], 0) + 1
    print("%d cases: %s" % (len(c.cases), ", ".join("%s %d" % kv for kv in sorted(groups.items()))))


if __name__ == "__main__":
    main()
