#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Checks test_sites' inline sites for FILE against readelf's reading of
the same DWARF (binutils, not libdw):

* every DW_TAG_inlined_subroutine with an address (entry_pc, low_pc or
  ranges), nested ones included, is one site, and nothing else is;
* the site's name is its abstract origin's name, its address the
  entry_pc (else low_pc; ranges-only sites are not address-checked);
* the parameters are the origin's formal parameters, in order;
* a parameter without a concrete DIE is no_param_die, one without
  location or const_value no_location, a const_value a constant, and a
  single-register exprloc that register, and "DW_OP_addr X;
  DW_OP_stack_value" the address X.

usage: check_sites.py TEST_SITES FILE
"""
import re
import subprocess
import sys

DIE_RE = re.compile(r'^\s*<(\d+)><([0-9a-f]+)>: Abbrev Number: (\d+)(?: \((\w+)\))?')
ATTR_RE = re.compile(r'^\s*<[0-9a-f]+>\s+(DW_AT_\w+)\s*:\s*(.*)$')
REF_RE = re.compile(r'<0x([0-9a-f]+)>')
REG_RE = re.compile(r'^(?:\(exprloc\) )?1 byte block: [0-9a-f]+ \t?\(DW_OP_reg(\d+) \([^)]*\)\)$')
REGX_RE = re.compile(r'\(DW_OP_regx: (\d+) ')
ADDR_RE = re.compile(r'\(DW_OP_addr: ([0-9a-f]+); DW_OP_stack_value\)$')

SIZE_MISSES = {'too_big', 'bad_size'}


class Die:
    def __init__(self, off, depth, tag):
        self.off, self.depth, self.tag = off, depth, tag
        self.attrs = {}
        self.children = []


def parse_readelf(path):
    out = subprocess.run(['readelf', '--debug-dump=info', '-W', path], check=True,
                         capture_output=True, text=True).stdout
    dies, stack, cur = {}, [], None
    for line in out.splitlines():
        m = DIE_RE.match(line)
        if m:
            depth, off, tag = int(m.group(1)), int(m.group(2), 16), m.group(4)
            if tag is None:     # "Abbrev Number: 0": end of siblings
                cur = None
                continue
            cur = Die(off, depth, tag)
            dies[off] = cur
            del stack[depth:]
            if stack:
                stack[-1].children.append(cur)
            stack.append(cur)
            continue
        m = ATTR_RE.match(line)
        if m and cur:
            cur.attrs[m.group(1)] = m.group(2).strip()
    return dies


def ref(die, attr):
    v = die.attrs.get(attr)
    m = REF_RE.search(v) if v else None
    return int(m.group(1), 16) if m else None


def name_of(dies, die):
    for _ in range(8):
        if die is None:
            return None
        if 'DW_AT_name' in die.attrs:
            # "(strp) (offset: 0x1f): name", "(string) name", "name"
            return re.sub(r'^(\([^)]*\)\s*)+', '', die.attrs['DW_AT_name'].split('): ')[-1])
        nxt = ref(die, 'DW_AT_abstract_origin') or ref(die, 'DW_AT_specification')
        die = dies.get(nxt)
    return None


def ultimate(dies, die):
    for _ in range(8):
        nxt = ref(die, 'DW_AT_abstract_origin')
        if nxt is None or nxt not in dies:
            break
        die = dies[nxt]
    return die.off


def params_of(dies, origin):
    die = origin
    for _ in range(8):
        ps = [c for c in die.children
              if c.tag in ('DW_TAG_formal_parameter', 'DW_TAG_unspecified_parameters')]
        if ps:
            return ps
        nxt = ref(die, 'DW_AT_abstract_origin') or ref(die, 'DW_AT_specification')
        if nxt not in dies:
            break
        die = dies[nxt]
    return []


def addr_value(v):
    m = re.search(r'0x([0-9a-f]+)\s*$', v)
    return int(m.group(1), 16) if m else None


def expected_addr(die):
    if 'DW_AT_entry_pc' in die.attrs:
        v = die.attrs['DW_AT_entry_pc']
        if '0x' in v:
            return addr_value(v)
        low = addr_value(die.attrs.get('DW_AT_low_pc', ''))
        return None if low is None else low + int(v, 0)
    if 'DW_AT_low_pc' in die.attrs:
        return addr_value(die.attrs['DW_AT_low_pc'])
    return None


def parse_sites(tool, path):
    out = subprocess.run([tool, path], check=True, capture_output=True, text=True).stdout
    sites, cur, summary = {}, None, []
    for line in out.splitlines():
        f = line.split()
        if f[0] == 'site':
            cur = {'addr': int(f[2], 16), 'name': f[3], 'nr': int(f[4]), 'params': []}
            sites[int(f[1], 16)] = cur
        elif f[0] == 'param':
            cur['params'].append({'name': f[1], 'kind': f[2], 'reason': f[3], 'reg': int(f[5]),
                                  'value': int(f[8], 16)})
        else:
            summary.append(line)
    return sites, summary


def check_param(errs, where, dies, site_die, proto_param, got):
    if proto_param.tag == 'DW_TAG_unspecified_parameters':
        if got['kind'] != 'none':
            errs.append(f'{where}: varargs parameter located')
        return
    want_origin = ultimate(dies, proto_param)
    concrete = [c for c in site_die.children if c.tag == 'DW_TAG_formal_parameter'
                and ultimate(dies, c) == want_origin]
    if not concrete:
        if got['reason'] != 'no_param_die':
            errs.append(f'{where}: no concrete DIE, got {got["kind"]}/{got["reason"]}')
        return
    a = concrete[0].attrs
    if 'DW_AT_const_value' in a:
        if got['kind'] != 'const' and got['reason'] not in SIZE_MISSES:
            errs.append(f'{where}: const_value, got {got["kind"]}/{got["reason"]}')
    elif 'DW_AT_location' not in a:
        if got['reason'] != 'no_location':
            errs.append(f'{where}: no location, got {got["kind"]}/{got["reason"]}')
    elif ADDR_RE.search(a['DW_AT_location']):
        x = int(ADDR_RE.search(a['DW_AT_location']).group(1), 16)
        if got['reason'] not in SIZE_MISSES and (got['kind'] != 'addr' or got['value'] != x):
            errs.append(f'{where}: address 0x{x:x}, got {got["kind"]} 0x{got["value"]:x}')
    else:
        m = REG_RE.match(a['DW_AT_location']) or REGX_RE.search(a['DW_AT_location'])
        if m and got['reason'] not in SIZE_MISSES and \
                (got['kind'] != 'reg' or got['reg'] != int(m.group(1))):
            errs.append(f'{where}: {a["DW_AT_location"]}, got {got["kind"]} {got["reg"]}')


def main():
    tool, path = sys.argv[1], sys.argv[2]
    dies = parse_readelf(path)
    sites, summary = parse_sites(tool, path)
    errs, nested = [], 0
    want = {}
    for d in dies.values():
        if d.tag != 'DW_TAG_inlined_subroutine':
            continue
        if not any(k in d.attrs for k in ('DW_AT_entry_pc', 'DW_AT_low_pc', 'DW_AT_ranges')):
            continue
        want[d.off] = d
    for off in sorted(set(want) - set(sites)):
        errs.append(f'DIE 0x{off:x}: inlined_subroutine with an address not found')
    for off in sorted(set(sites) - set(want)):
        errs.append(f'DIE 0x{off:x}: site that readelf does not list as an inline')
    for off, d in sorted(want.items()):
        got = sites.get(off)
        if not got:
            continue
        origin = dies.get(ref(d, 'DW_AT_abstract_origin'))
        where = f'DIE 0x{off:x} ({got["name"]})'
        if name_of(dies, origin) != got['name']:
            errs.append(f'{where}: origin name is {name_of(dies, origin)}')
        addr = expected_addr(d)
        if addr is not None and addr != got['addr']:
            errs.append(f'{where}: address 0x{got["addr"]:x}, entry is 0x{addr:x}')
        protos = params_of(dies, origin)
        if len(protos) != got['nr'] or len(got['params']) != got['nr']:
            errs.append(f'{where}: {got["nr"]} parameters ({len(got["params"])} listed), '
                        f'origin has {len(protos)}')
            continue
        for i, (p, g) in enumerate(zip(protos, got['params'])):
            pname = name_of(dies, p) or '(anon)'
            if p.tag == 'DW_TAG_formal_parameter' and pname != g['name']:
                errs.append(f'{where}: parameter {i} is {g["name"]}, origin says {pname}')
            check_param(errs, f'{where} param {pname}', dies, d, p, g)
    # Nested: an inline site whose parent DIE chain holds another one.
    parents = {}
    for d in dies.values():
        for c in d.children:
            parents[c.off] = d
    for off in want:
        p = parents.get(off)
        while p is not None and p.tag not in ('DW_TAG_subprogram', 'DW_TAG_inlined_subroutine'):
            p = parents.get(p.off)
        nested += p is not None and p.tag == 'DW_TAG_inlined_subroutine'
    print(f'{path}: {len(sites)} sites ({nested} nested), readelf lists {len(want)}')
    print('\n'.join(summary[:2]))
    for e in errs:
        print('FAIL', e)
    return 1 if errs else 0


if __name__ == '__main__':
    sys.exit(main())
