#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""
Issue 5, acceptance 2: the inline sites of EXE from its DWARF, read by
readelf (check_sites.py's parser, not libdw and not btfenc), as the list
test_consumer compares the seed 010 consumer walk of btfenc's output with.

  consumer_sites.py BTFENC TEST_CONSUMER FEATURES EXE...

For each EXE: a copy is encoded with `btfenc -J --btf_features=FEATURES`;
every DW_TAG_inlined_subroutine with an address in .text is one expected
site, at DW_AT_entry_pc, else DW_AT_low_pc, else the lowest start of its
DW_AT_ranges (decoded here from the raw .debug_rnglists/.debug_ranges:
readelf's dump of them leaves out lists and bases);
test_consumer then finds each function's sites by binary search.
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import check_sites  # noqa: E402

def readelf(args, path):
    return subprocess.run(['readelf', '-W'] + args + [path], check=True, capture_output=True,
                          text=True).stdout


def section(path, name, tmp):
    """The bytes of section @name (objcopy, binutils), b'' when absent."""
    out = os.path.join(tmp, name.strip('.') + '.bin')
    r = subprocess.run(['objcopy', '--dump-section', '%s=%s' % (name, out), path,
                        os.path.join(tmp, 'objcopy.out')], capture_output=True)
    return open(out, 'rb').read() if r.returncode == 0 and os.path.exists(out) else b''


def uleb(data, i):
    v = shift = 0
    while True:
        b = data[i]
        i += 1
        v |= (b & 0x7f) << shift
        shift += 7
        if not b & 0x80:
            return v, i


def u64(data, i):
    return int.from_bytes(data[i:i + 8], 'little'), i + 8


class Ranges:
    """DW_AT_ranges lists decoded from the raw sections (DWARF 4 and 5)."""

    def __init__(self, path, tmp):
        self.rnglists = section(path, '.debug_rnglists', tmp)
        self.ranges = section(path, '.debug_ranges', tmp)
        self.addr = section(path, '.debug_addr', tmp)

    def addrx(self, addr_base, idx):
        return u64(self.addr, addr_base + 8 * idx)[0]

    def lowest(self, off, cu_low, addr_base, dwarf5):
        """Lowest start of a non-empty range of the list at @off."""
        starts = []
        if not dwarf5:
            base, d = cu_low, self.ranges
            while off + 16 <= len(d):
                a, off = u64(d, off)
                b, off = u64(d, off)
                if a == 0 and b == 0:
                    break
                if a == 2**64 - 1:
                    base = b
                elif a != b:
                    starts.append(base + a)
            return min(starts) if starts else None
        base, d = cu_low, self.rnglists
        while off < len(d):
            kind, off = d[off], off + 1
            if kind == 0:        # DW_RLE_end_of_list
                break
            if kind == 1:        # base_addressx
                i, off = uleb(d, off)
                base = self.addrx(addr_base, i)
                continue
            if kind == 5:        # base_address
                base, off = u64(d, off)
                continue
            if kind == 2:        # startx_endx
                i, off = uleb(d, off)
                j, off = uleb(d, off)
                a, b = self.addrx(addr_base, i), self.addrx(addr_base, j)
            elif kind == 3:      # startx_length
                i, off = uleb(d, off)
                n, off = uleb(d, off)
                a = self.addrx(addr_base, i)
                b = a + n
            elif kind == 4:      # offset_pair
                x, off = uleb(d, off)
                y, off = uleb(d, off)
                a, b = base + x, base + y
            elif kind == 6:      # start_end
                a, off = u64(d, off)
                b, off = u64(d, off)
            elif kind == 7:      # start_length
                a, off = u64(d, off)
                n, off = uleb(d, off)
                b = a + n
            else:
                raise SystemExit('unknown DW_RLE %d' % kind)
            if a != b:
                starts.append(a)
        return min(starts) if starts else None


def text_section(path):
    for line in readelf(['-S'], path).splitlines():
        f = line.replace('[ ', '[').split()
        if len(f) > 5 and f[1] == '.text':
            return int(f[3], 16), int(f[5], 16)
    raise SystemExit('%s: no .text' % path)


def text_base(path, text_addr):
    """Offsets are from _text when the ELF has it (vmlinux), else .text."""
    for line in readelf(['-s'], path).splitlines():
        f = line.split()
        if len(f) >= 8 and f[7] == '_text':
            return int(f[1], 16)
    return text_addr


def cu_versions(path):
    """{offset of a CU's DIE: DWARF version} from readelf's CU headers."""
    out, off, vers = {}, None, {}
    for line in readelf(['--debug-dump=info'], path).splitlines():
        m = re.match(r'\s*Compilation Unit @ offset (0x[0-9a-f]+|[0-9]+):', line)
        if m:
            off = int(m.group(1), 0)
        m = re.match(r'\s*Version:\s+(\d+)', line)
        if m and off is not None:
            vers[off] = int(m.group(1))
        m = check_sites.DIE_RE.match(line)
        if m and m.group(1) == '0' and off is not None:
            out[int(m.group(2), 16)] = vers.get(off, 4)
            off = None
    return out


def expected_sites(path, tmp):
    dies = check_sites.parse_readelf(path)
    ranges = Ranges(path, tmp)
    versions = cu_versions(path)
    lo, size = text_section(path)
    cu_low, addr_base, dwarf5, sites = 0, 0, False, []
    for d in sorted(dies.values(), key=lambda d: d.off):
        if d.tag in ('DW_TAG_compile_unit', 'DW_TAG_partial_unit'):
            cu_low = check_sites.addr_value(d.attrs.get('DW_AT_low_pc', '')) or 0
            addr_base = check_sites.addr_value(d.attrs.get('DW_AT_addr_base', '')) or 0
            dwarf5 = versions.get(d.off, 4) >= 5
        if d.tag != 'DW_TAG_inlined_subroutine':
            continue
        addr = check_sites.expected_addr(d)
        if addr is None and 'DW_AT_ranges' in d.attrs:
            off = check_sites.addr_value(d.attrs['DW_AT_ranges'])
            addr = ranges.lowest(off, cu_low, addr_base, dwarf5)
        if addr is None or not lo <= addr < lo + size:
            continue
        origin = dies.get(check_sites.ref(d, 'DW_AT_abstract_origin'))
        sites.append((check_sites.name_of(dies, origin), addr))
    return sites, text_base(path, lo)


def main():
    btfenc, consumer, features, exes = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
    bad = 0
    with tempfile.TemporaryDirectory() as tmp:
        for exe in exes:
            copy = os.path.join(tmp, os.path.basename(exe))
            shutil.copy(exe, copy)
            subprocess.run([btfenc, '-J', '--btf_features=' + features, copy], check=True)
            sites, base = expected_sites(copy, tmp)
            listing = copy + '.expected'
            with open(listing, 'w') as f:
                for name, addr in sites:
                    f.write('%s %x\n' % (name, addr))
            sys.stdout.flush()
            bad |= subprocess.run([consumer, copy, '%x' % base, listing]).returncode != 0
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
