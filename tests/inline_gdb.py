#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""
The gdb check of inline sites (issue 5, acceptance 1).

  inline_gdb.py [--layout merged] BTFENC EXE...

For each non-PIE executable: encode a copy with
`btfenc -J --btf_features=default,inline.extra` (with --layout merged:
`default,inline.extra,layout`, the bpf-next layout), list its sites with
`btfenc inlines --json` (what seed 010's consumer computes: addresses are
base + offset, constants already relocated), then run the program under
gdb with a breakpoint at every site address.  At each first stop the
inline frame of the site's function is found (gdb presents the innermost
inline frame at an address breakpoint; the site may be an outer one) and
every parameter btfenc locates is compared, as bytes of the parameter's
type, with gdb's value of it in that frame.

In the merged layout, reg + offset values ("reg_off": register + offset,
not dereferenced) and frame-base slots ("fbreg": memory at the frame base
+ offset; the frame base taken as gdb's CFA of the real frame, which is
DW_OP_call_frame_cfa's value) are compared too; the parameters the seed
layout leaves out but the merged layout has (those, and constants the seed
consumer would relocate wrongly) are counted as merged-only when checked.

Fails on any disagreement.  Prints how many parameters gdb shows that
btfenc leaves out, and the sites gdb could not check (not reached, or no
inline frame there: an inline whose code is all merged into its caller).
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

GDB_SCRIPT = r'''
import gdb, json, sys

REGS = ["rax", "rdx", "rcx", "rbx", "rsi", "rdi", "rbp", "rsp",
        "r8", "r9", "r10", "r11", "r12", "r13", "r14", "r15"]
sites = json.load(open(SITES))
res = {"checked_sites": 0, "checked_params": 0, "disagree": [], "gdb_only": 0,
       "unreached": 0, "no_frame": 0, "gdb_unknown": 0, "ambiguous": 0,
       "merged_only": 0, "fbreg": 0}
by_addr = {}
for s in sites:
    by_addr.setdefault(s["addr"], []).append(s)

def reg(frame, n):
    return int(frame.read_register(REGS[n])) & (2**64 - 1)

def value_bytes(v):
    """Bytes of gdb value v in target (little-endian) layout."""
    t = v.type.strip_typedefs()
    size = t.sizeof
    if t.code in (gdb.TYPE_CODE_STRUCT, gdb.TYPE_CODE_UNION):
        out = bytearray(size)
        for f in t.fields():
            if f.bitsize or not hasattr(f, "bitpos"):
                return None
            fb = value_bytes(v[f])
            if fb is None:
                return None
            off = f.bitpos // 8
            out[off:off + len(fb)] = fb
        return bytes(out)
    if t.code == gdb.TYPE_CODE_FLT:
        return bytes(gdb.selected_inferior().read_memory(v.address, size)) if v.address else None
    if t.code == gdb.TYPE_CODE_ARRAY:
        return None
    return (int(v) & ((1 << (8 * size)) - 1)).to_bytes(size, "little")

def frame_cfa(frame):
    """gdb's CFA of the real (not inline) frame holding @frame."""
    while frame.type() == gdb.INLINE_FRAME:
        frame = frame.older()
    frame.select()
    for line in gdb.execute("info frame", to_string=True).splitlines():
        if ", frame at 0x" in line:
            return int(line.split("frame at ")[1].rstrip(":"), 16)
    return None

def btf_bytes(frame, p, size):
    """What the consumer reads for parameter p, extended to size bytes."""
    k = p["kind"]
    psz = abs(p["size"])
    if k == "reg_pair":
        raw = reg(frame, p["reg"]).to_bytes(8, "little") + reg(frame, p["reg2"]).to_bytes(8, "little")
        return raw[:size]
    if k == "reg":
        v = reg(frame, p["reg"])
    elif k == "deref":
        a = (reg(frame, p["reg"]) + p["offset"]) & (2**64 - 1)
        v = int.from_bytes(bytes(gdb.selected_inferior().read_memory(a, psz)), "little")
    elif k == "reg_off":
        v = (reg(frame, p["reg"]) + p["offset"]) & (2**64 - 1)
    elif k == "fbreg":
        cfa = frame_cfa(frame)
        if cfa is None:
            return None
        a = (cfa + p["offset"]) & (2**64 - 1)
        v = int.from_bytes(bytes(gdb.selected_inferior().read_memory(a, psz)), "little")
    elif k == "const":
        v = p["value"]
    else:
        return None
    v &= (1 << (8 * psz)) - 1
    if p["size"] < 0 and v >> (8 * psz - 1):
        v -= 1 << (8 * psz)
    return (v & ((1 << (8 * size)) - 1)).to_bytes(size, "little")

def inline_frame(name):
    f = gdb.newest_frame()
    while f is not None and f.type() == gdb.INLINE_FRAME:
        if f.name() == name:
            return f
        f = f.older()
    return None

def compare(f, site):
    """
    (disagreements, parameters compared, parameters only gdb has,
    merged-only parameters compared, frame-base parameters compared).
    """
    bad, checked, gdb_only, merged_only, fbreg = [], 0, 0, 0, 0
    block = f.block()
    for p in site["params"]:
        try:
            v = f.read_var(p["name"], block)
            shown = not v.is_optimized_out
            if shown:
                want = value_bytes(v)
        except gdb.error:
            shown = False
        if not shown:
            continue
        if want is None:
            res["gdb_unknown"] += 1
            continue
        if p["kind"] == "none":
            gdb_only += 1
            continue
        got = btf_bytes(f, p, len(want))
        checked += 1
        merged_only += p.get("merged_only", False)
        fbreg += p["kind"] == "fbreg"
        if got != want:
            bad.append("%s@%#x %s: btfenc %s = %s, gdb %s" % (
                site["func"], site["addr"], p["name"], p["loc"], got.hex(), want.hex()))
    return bad, checked, gdb_only, merged_only, fbreg

def check(group):
    """
    Sites of one function at one address.  Usually one; gcc also starts
    sibling instances at the same address (f(x, k) + f(x, 3), code
    interleaved), and gdb shows only one of them: it must agree with one
    site of the group, the others cannot be told apart by gdb.
    """
    f = inline_frame(group[0]["func"])
    if f is None:
        res["no_frame"] += len(group)
        return
    results = [compare(f, s) for s in group]
    match = [r for r in results if not r[0]]
    r = match[0] if match else results[0]
    res["checked_sites"] += 1
    res["ambiguous"] += len(group) - 1
    res["disagree"] += r[0]
    res["checked_params"] += r[1]
    res["gdb_only"] += r[2]
    res["merged_only"] += r[3]
    res["fbreg"] += r[4]

gdb.execute("set pagination off")
gdb.execute("set confirm off")
bps = {}
for a in by_addr:
    bps[a] = gdb.Breakpoint("*%#x" % a)
gdb.execute("run %s > /dev/null" % ARGS)
while True:
    try:
        pc = gdb.newest_frame().pc()
    except gdb.error:
        break
    if pc in bps:
        groups = {}
        for s in by_addr[pc]:
            groups.setdefault(s["func"], []).append(s)
        for g in groups.values():
            check(g)
        bps.pop(pc).delete()
        del by_addr[pc]
    if not bps:
        break
    try:
        gdb.execute("continue")
    except gdb.error:
        break
res["unreached"] = sum(len(v) for v in by_addr.values())
json.dump(res, open(OUT, "w"))
gdb.execute("kill")
'''


def list_sites(btfenc, exe, copy, features):
    shutil.copy(exe, copy)
    subprocess.run([btfenc, "-J", "--btf_features=" + features, copy], check=True)
    return json.loads(subprocess.run([btfenc, "inlines", "--json", copy], check=True,
                                     capture_output=True, text=True).stdout)


def mark_merged_only(sites, seed):
    """
    Flags the merged-layout parameters that the seed layout leaves out: at
    the same address and function, every seed site has no location there.
    """
    by_key = {}
    for s in seed:
        by_key.setdefault((s["addr"], s["func"]), []).append(s)
    for s in sites:
        twins = by_key.get((s["addr"], s["func"]), [])
        for i, p in enumerate(s["params"]):
            p["merged_only"] = p["kind"] != "none" and bool(twins) and all(
                t["params"][i]["kind"] == "none" for t in twins)


def run_one(btfenc, exe, tmp, layout):
    copy = os.path.join(tmp, os.path.basename(exe))
    if layout == "merged":
        seed = list_sites(btfenc, exe, copy + ".seed", "default,inline.extra")
        sites = list_sites(btfenc, exe, copy, "default,inline.extra,layout")
        mark_merged_only(sites, seed)
    else:
        sites = list_sites(btfenc, exe, copy, "default,inline.extra")
    # Sites of the program's own functions (libc's inlines are not in its DWARF).
    sites_path = copy + ".sites.json"
    json.dump(sites, open(sites_path, "w"))
    out = copy + ".res.json"
    script = copy + ".gdb.py"
    with open(script, "w") as f:
        f.write("SITES = %r\nOUT = %r\nARGS = %r\n" % (sites_path, out, "7") + GDB_SCRIPT)
    subprocess.run(["gdb", "-nx", "-batch", "-x", script, copy], check=True,
                   capture_output=True, text=True, timeout=120)
    res = json.load(open(out))
    res["sites"] = len(sites)
    return res


def main():
    args = sys.argv[1:]
    layout = "seed"
    if args[:1] == ["--layout"]:
        layout, args = args[1], args[2:]
    btfenc, exes = args[0], args[1:]
    if not shutil.which("gdb"):
        print("SKIP: no gdb")
        return 77
    total = {}
    bad = []
    with tempfile.TemporaryDirectory() as tmp:
        for exe in exes:
            res = run_one(btfenc, exe, tmp, layout)
            print("%-22s sites %3d checked %3d params %3d disagree %d gdb-only %d "
                  "unreached %d no-inline-frame %d same-address %d merged-only %d" % (
                      os.path.basename(exe), res["sites"], res["checked_sites"],
                      res["checked_params"], len(res["disagree"]), res["gdb_only"],
                      res["unreached"], res["no_frame"], res["ambiguous"],
                      res["merged_only"]))
            for d in res["disagree"]:
                print("  DISAGREE " + d)
            bad += res["disagree"]
            for k in ("sites", "checked_sites", "checked_params", "gdb_only", "unreached",
                      "no_frame", "gdb_unknown", "ambiguous", "merged_only", "fbreg"):
                total[k] = total.get(k, 0) + res[k]
    print("total: %d sites, %d checked against gdb, %d parameters compared, "
          "%d disagreements, %d parameters gdb shows that btfenc leaves out, "
          "%d sites not reached, %d with no inline frame in gdb, %d more of one function "
          "at an address gdb shows once" % (
              total["sites"], total["checked_sites"], total["checked_params"], len(bad),
              total["gdb_only"], total["unreached"], total["no_frame"], total["ambiguous"]))
    if layout == "merged":
        print("merged layout: %d of the parameters compared are merged-only (the seed layout "
              "leaves them out), %d of them frame-base slots" % (
                  total["merged_only"], total["fbreg"]))
    if total["checked_params"] == 0:
        print("FAIL: nothing was compared")
        return 1
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
