#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""
run_cases.py BTFENC CORPUS WORKDIR [--group G]... [--valgrind N]

Runs btfenc on every case of CORPUS/manifest.json (see gen_cases.py),
each on a fresh copy in its own directory under `timeout`, and checks:
  * no signal, no timeout, exit status 0 or 1 (never 2: the command
    lines are valid);
  * exit 1: exactly one line on stderr, "btfenc: ..." naming the file;
  * exit 0 where a failure is required is a failure;
  * exit 0: the output validates (`btfenc dump`, on its bases);
  * the input is byte-identical afterwards unless -J succeeded, and
    nothing but the expected outputs is left in its directory.
--valgrind N runs every N-th run under memcheck instead (definite leaks
and errors fail).  Sanitizer reports fail through their exit codes.
"""
import argparse
import hashlib
import json
import os
import pwd
import shutil
import subprocess
import sys

TIMEOUT = 20
FEATURES = "--btf_features=default,inline.extra"
SAN_EXIT = {86: "AddressSanitizer", 87: "UndefinedBehaviorSanitizer", 23: "LeakSanitizer",
            99: "valgrind"}


def digest(path):
    if not os.path.isfile(path):
        return None
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


class Runner:
    def __init__(self, a):
        self.btfenc = os.path.abspath(a.btfenc)
        self.corpus = os.path.abspath(a.corpus)
        self.work = os.path.abspath(a.work)
        self.valgrind = a.valgrind
        self.runs = self.failures = self.vg_runs = 0
        self.outcomes = {}
        self.root = os.geteuid() == 0
        self.env = dict(os.environ)
        for var, opts in [("ASAN_OPTIONS", "exitcode=86"),
                          ("UBSAN_OPTIONS", "halt_on_error=1:exitcode=87:print_stacktrace=1")]:
            self.env[var] = (self.env.get(var, "") + ":" + opts).lstrip(":")

    def fail(self, case, mode, why, res=None):
        self.failures += 1
        print("FAIL %s [%s]: %s" % (case["name"], mode, why))
        if res is not None:
            print("     $ %s\n     exit %d, stderr:\n%s" % (
                " ".join(res.args), res.returncode,
                "".join("       | " + l + "\n" for l in res.stderr.splitlines()[:30])))

    def run(self, argv, user=None, cwd=None, wrap=True):
        cmd = ["timeout", "-s", "KILL", str(TIMEOUT)]
        if user and self.root:
            cmd += ["setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups"]
        if wrap and self.valgrind and self.runs % self.valgrind == 0:
            self.vg_runs += 1
            cmd += ["valgrind", "-q", "--leak-check=full", "--errors-for-leak-kinds=definite",
                    "--error-exitcode=99"]
        if wrap:
            self.runs += 1
        return subprocess.run(cmd + [self.btfenc] + argv, cwd=cwd, env=self.env,
                              capture_output=True, text=True, errors="replace")

    def resolve(self, name, dirpath):
        if name == "missing":
            return os.path.join(dirpath, "no-such-file")
        if name == "dir":
            d = os.path.join(dirpath, "a-directory")
            os.makedirs(d, exist_ok=True)
            return d
        return os.path.join(self.corpus, name)

    def setup(self, case, mode):
        d = os.path.join(self.work, "%s.%s" % (case["name"], mode))
        if os.path.isdir(d):
            os.chmod(d, 0o755)
            shutil.rmtree(d)
        os.makedirs(d)
        os.chmod(d, 0o755)
        src = self.resolve(case["input"], d)
        if case["input"] in ("missing", "dir"):
            target = src
        else:
            target = os.path.join(d, os.path.basename(case["input"]))
            shutil.copyfile(src, target)
            os.chmod(target, case.get("mode", 0o644))
        if case.get("user") and self.root:
            nobody = pwd.getpwnam("nobody")
            os.chown(d, nobody.pw_uid, nobody.pw_gid)
            if os.path.exists(target):
                os.chown(target, nobody.pw_uid, nobody.pw_gid)
        if case.get("dirmode"):
            os.chmod(d, case["dirmode"])
        return d, target

    def argv(self, case, mode, d, target):
        base = None
        if case.get("base"):
            base = self.resolve(case["base"], d)
        if mode == "J":
            argv = ["-J", "-j2", FEATURES]
        elif mode == "detached":
            argv = ["--btf_encode_detached", os.path.join(d, "out.btf"), "-j1", FEATURES]
        else:
            argv = [mode]
            if base:
                argv += ["--base", base]
            return argv + [target], base
        if base:
            argv += ["--btf_base", base]
        return argv + [target], base

    def validate(self, case, mode, d, target, base):
        bases = ["--base", base] if base and mode != "dump" else []
        if mode == "J":
            checks = [bases + [target]]
        elif mode == "detached":
            out = os.path.join(d, "out.btf")
            checks = [bases + [out]]
            if os.path.exists(out + ".extra"):
                checks.append(bases + ["--base", out, out + ".extra"])
        else:
            return True
        for argv in checks:
            res = self.run(["dump"] + argv, wrap=False)
            if res.returncode != 0:
                self.fail(case, mode, "output does not validate", res)
                return False
        return True

    def one(self, case, mode):
        d, target = self.setup(case, mode)
        argv, base = self.argv(case, mode, d, target)
        before = digest(target)
        listing = sorted(os.listdir(d))
        failures = self.failures
        res = self.run(argv, user=case.get("user"), cwd=d)
        rc = res.returncode
        if case.get("dirmode"):
            os.chmod(d, 0o755)
        key = "exit %d" % rc
        self.outcomes[key] = self.outcomes.get(key, 0) + 1
        if rc < 0 or rc >= 124 or rc in SAN_EXIT:
            why = SAN_EXIT.get(rc) or ("timeout" if rc in (124, 137, -9) else "signal/crash")
            return self.fail(case, mode, "%s (exit %d)" % (why, rc), res)
        if rc not in (0, 1):
            return self.fail(case, mode, "exit status %d" % rc, res)
        lines = res.stderr.splitlines()
        if rc == 1:
            named = case["input"] if case["input"] in ("missing", "dir") else target
            # The file at fault: the input, the base or the output.
            names = [os.path.basename(target), "out.btf"]
            if base:
                names.append(os.path.basename(base))
            if len(lines) != 1 or not lines[0].startswith("btfenc: ") or \
                    not any(n in lines[0] for n in names):
                self.fail(case, mode, "not exactly one line naming %s" % named, res)
        elif case["expect"] == "fail":
            return self.fail(case, mode, "succeeded on input that must be refused", res)
        elif not self.validate(case, mode, d, target, base):
            return
        if not (mode == "J" and rc == 0) and digest(target) != before:
            self.fail(case, mode, "input file changed", res)
        after = sorted(os.listdir(d))
        if mode == "detached" and rc == 0:
            after = [f for f in after if f not in ("out.btf", "out.btf.extra")]
        if after != listing:
            self.fail(case, mode, "directory changed: %s -> %s" % (listing, after), res)
        if self.failures == failures:
            shutil.rmtree(d)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("btfenc")
    p.add_argument("corpus")
    p.add_argument("work")
    p.add_argument("--group", action="append")
    p.add_argument("--valgrind", type=int, default=0)
    a = p.parse_args()
    if a.valgrind and not shutil.which("valgrind"):
        print("SKIP: valgrind not installed")
        sys.exit(77)
    with open(os.path.join(a.corpus, "manifest.json")) as f:
        cases = json.load(f)
    os.makedirs(a.work, exist_ok=True)
    os.chmod(a.work, 0o755)
    r = Runner(a)
    for case in cases:
        if a.group and case["group"] not in a.group:
            continue
        if case.get("user") and r.root and not shutil.which("setpriv"):
            print("SKIP %s: no setpriv to drop root" % case["name"])
            continue
        for mode in case["modes"]:
            r.one(case, mode)
    print("%d runs (%d under valgrind), outcomes: %s; %d failures" % (
        r.runs, r.vg_runs, ", ".join("%s: %d" % kv for kv in sorted(r.outcomes.items())),
        r.failures))
    sys.exit(1 if r.failures else 0)


if __name__ == "__main__":
    main()
