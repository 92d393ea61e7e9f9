# SPDX-License-Identifier: GPL-2.0
"""
Just enough ELF64/DWARF/BTF parsing to damage fixtures on purpose: find a
section's header and bytes, the DIEs of .debug_info with where each
attribute value lives, the entries of .debug_loclists, the types of a raw
BTF blob.  Little-endian x86-64 fixtures only; anything else raises.
"""
import struct


class Elf:
    def __init__(self, data):
        self.data = bytearray(data)
        if self.data[:4] != b"\x7fELF" or self.data[4] != 2 or self.data[5] != 1:
            raise ValueError("not a little-endian ELF64 file")
        self.shoff, = struct.unpack_from("<Q", self.data, 0x28)
        self.shentsize, self.shnum, self.shstrndx = struct.unpack_from("<HHH", self.data, 0x3a)
        self.sections = {}
        names = self.sh(self.shstrndx)
        for i in range(self.shnum):
            h = self.sh(i)
            end = self.data.index(b"\0", names["offset"] + h["name"])
            name = self.data[names["offset"] + h["name"]:end].decode()
            h["index"] = i
            self.sections[name] = h

    def sh(self, i):
        base = self.shoff + i * self.shentsize
        name, typ, flags, addr, off, size = struct.unpack_from("<IIQQQQ", self.data, base)
        return {"name": name, "type": typ, "offset": off, "size": size, "hdr": base}

    def set_sh(self, name, offset=None, size=None, link=None, entsize=None):
        h = self.sections[name]
        if offset is not None:
            struct.pack_into("<Q", self.data, h["hdr"] + 24, offset)
        if size is not None:
            struct.pack_into("<Q", self.data, h["hdr"] + 32, size)
        if link is not None:
            struct.pack_into("<I", self.data, h["hdr"] + 40, link)
        if entsize is not None:
            struct.pack_into("<Q", self.data, h["hdr"] + 56, entsize)

    def span(self, name):
        h = self.sections[name]
        return h["offset"], h["offset"] + h["size"]

    def section(self, name):
        start, end = self.span(name)
        return self.data[start:end]


def uleb(buf, pos):
    val = shift = 0
    while True:
        b = buf[pos]
        pos += 1
        val |= (b & 0x7f) << shift
        shift += 7
        if not b & 0x80:
            return val, pos


def sleb(buf, pos):
    val = shift = 0
    while True:
        b = buf[pos]
        pos += 1
        val |= (b & 0x7f) << shift
        shift += 7
        if not b & 0x80:
            if b & 0x40:
                val -= 1 << shift
            return val, pos


DW_AT_sibling, DW_AT_location, DW_AT_abstract_origin, DW_AT_type = 0x01, 0x02, 0x31, 0x49
DW_FORM_block, DW_FORM_data4, DW_FORM_strp, DW_FORM_ref4 = 0x09, 0x06, 0x0e, 0x13
DW_FORM_sec_offset, DW_FORM_exprloc, DW_FORM_implicit_const = 0x17, 0x18, 0x21
DW_TAG_inlined_subroutine = 0x1d

# Fixed sizes; None: variable (handled in form_size).
FIXED = {0x05: 2, 0x06: 4, 0x07: 8, 0x0b: 1, 0x0c: 1, 0x0e: 4, 0x10: 4, 0x11: 1,
         0x12: 2, 0x13: 4, 0x14: 8, 0x17: 4, 0x19: 0, 0x1c: 4, 0x1d: 4, 0x1e: 16,
         0x1f: 4, 0x20: 8, 0x21: 0, 0x24: 8, 0x25: 1, 0x26: 2, 0x27: 3, 0x28: 4,
         0x29: 1, 0x2a: 2, 0x2b: 3, 0x2c: 4}


def skip_form(buf, pos, form, addr_size):
    if form in FIXED:
        return pos + FIXED[form]
    if form == 0x01:
        return pos + addr_size
    if form in (0x0d,):
        return sleb(buf, pos)[1]
    if form in (0x0f, 0x15, 0x1a, 0x1b, 0x22, 0x23):
        return uleb(buf, pos)[1]
    if form == 0x08:
        return buf.index(b"\0", pos) + 1
    if form in (0x09, 0x18):
        n, pos = uleb(buf, pos)
        return pos + n
    if form == 0x0a:
        return pos + 1 + buf[pos]
    if form == 0x03:
        return pos + 2 + struct.unpack_from("<H", buf, pos)[0]
    if form == 0x04:
        return pos + 4 + struct.unpack_from("<I", buf, pos)[0]
    if form == 0x16:
        real, pos = uleb(buf, pos)
        return skip_form(buf, pos, real, addr_size)
    raise ValueError("form 0x%x" % form)


def parse_abbrevs(abbrev, off):
    """{code: (tag, [(attr, form, offset of the form byte in .debug_abbrev)])}"""
    table = {}
    while True:
        code, off = uleb(abbrev, off)
        if code == 0:
            return table
        tag, off = uleb(abbrev, off)
        off += 1  # children
        attrs = []
        while True:
            attr, off = uleb(abbrev, off)
            form_at = off
            form, off = uleb(abbrev, off)
            if attr == 0 and form == 0:
                break
            if form == DW_FORM_implicit_const:
                off = sleb(abbrev, off)[1]
            attrs.append((attr, form, form_at))
        table[code] = (tag, attrs)


def dies(elf):
    """Each DIE of .debug_info: dict(off, cu, tag, attrs=[(attr, form, value_off, form_at)])."""
    info = elf.section(".debug_info")
    abbrev = elf.section(".debug_abbrev")
    out = []
    cu = 0
    while cu + 11 <= len(info):
        length, version = struct.unpack_from("<IH", info, cu)
        if length >= 0xfffffff0:
            raise ValueError("64-bit DWARF")
        end = cu + 4 + length
        if version >= 5:
            unit_type, addr_size, abbr_off = struct.unpack_from("<BBI", info, cu + 6)
            pos = cu + 12 + (8 if unit_type in (4, 5) else 0) + (12 if unit_type in (2, 6) else 0)
        else:
            abbr_off, addr_size = struct.unpack_from("<IB", info, cu + 6)
            pos = cu + 11
        table = parse_abbrevs(abbrev, abbr_off)
        while pos < end:
            die_off = pos
            code, pos = uleb(info, pos)
            if code == 0:
                continue
            tag, attrs = table[code]
            vals = []
            for attr, form, form_at in attrs:
                vals.append((attr, form, pos, form_at))
                pos = skip_form(info, pos, form, addr_size)
            out.append({"off": die_off, "cu": cu, "tag": tag, "attrs": vals})
        cu = end
    return out


def loclist_terminators(elf, dies):
    """
    Offsets (in .debug_loclists) of the DW_LLE_end_of_list byte of each
    list a DW_AT_location points at.  Lists are parsed from those starts,
    not walked in sequence: gcc puts its location views (bare ulebs)
    between them.
    """
    data = elf.section(".debug_loclists")
    info = elf.section(".debug_info")
    starts = set()
    for d in dies:
        for attr, form, at, _ in d["attrs"]:
            if attr == DW_AT_location and form == DW_FORM_sec_offset:
                starts.add(struct.unpack_from("<I", info, at)[0])
    addr_size = data[6]
    ends = set()
    for pos in starts:
        while pos < len(data):
            kind = data[pos]
            pos += 1
            if kind == 0:
                ends.add(pos - 1)
                break
            elif kind == 1:
                pos = uleb(data, pos)[1]
            elif kind in (2, 3, 4):
                pos = uleb(data, uleb(data, pos)[1])[1]
                pos = skip_form(data, pos, DW_FORM_exprloc, addr_size)
            elif kind == 5:
                pos = skip_form(data, pos, DW_FORM_exprloc, addr_size)
            elif kind == 6:
                pos += addr_size
            elif kind == 7:
                pos = skip_form(data, pos + 2 * addr_size, DW_FORM_exprloc, addr_size)
            elif kind == 8:
                pos = skip_form(data, uleb(data, pos + addr_size)[1], DW_FORM_exprloc, addr_size)
            elif kind == 9:  # DW_LLE_GNU_view_pair
                pos = uleb(data, uleb(data, pos)[1])[1]
            else:
                raise ValueError("DW_LLE 0x%x" % kind)
    return sorted(ends)


BTF_KIND_TRAILER = {  # kind: (fixed bytes, bytes per vlen)
    1: (4, 0), 2: (0, 0), 3: (12, 0), 4: (0, 12), 5: (0, 12), 6: (0, 8), 7: (0, 0),
    8: (0, 0), 9: (0, 0), 10: (0, 0), 11: (0, 0), 12: (0, 0), 13: (0, 8), 14: (4, 0),
    15: (0, 12), 16: (0, 0), 17: (4, 0), 18: (0, 0), 19: (0, 12), 20: (8, 0), 21: (0, 4),
    22: (0, 16),
}


def btf_types(blob):
    """[(offset of the btf_type in blob, kind, vlen)] of a raw BTF blob."""
    magic, version, flags, hdr_len, type_off, type_len = struct.unpack_from("<HBBIII", blob, 0)
    if magic != 0xeb9f:
        raise ValueError("not BTF")
    pos = hdr_len + type_off
    end = pos + type_len
    out = []
    while pos + 12 <= end:
        info, = struct.unpack_from("<I", blob, pos + 4)
        kind, vlen = (info >> 24) & 0x1f, info & 0xffff
        out.append((pos, kind, vlen))
        fixed, per = BTF_KIND_TRAILER[kind]
        pos += 12 + fixed + per * vlen
    return out
