#!/usr/bin/env python3
"""The house's own checks, run by .ci/run (issue 46, items 3 and 7).

  house.py api [--bless]   each published crate's public API, as rustdoc sees it, against
                           the snapshot in api/<crate>.txt: a new, changed or removed
                           `pub` item shows in review as a diff of that file. --bless
                           writes the snapshots.
  house.py paths           every repository path named in a comment or a doc (`a/b.rs`,
                           `x.gd`, ...) exists, so a moved file leaves no stale pointer.
  house.py package         each published crate's `cargo package --list` holds only what
                           a user of the crate needs (sources, its README, licence,
                           changelog, build files): no probe script or tool rides along.

The API walk reads rustdoc's JSON, hidden items included (a `#[doc(hidden)] pub` item is
still public, so it shows in review like any other). That JSON is an unstable rustdoc
output, enabled on the stable toolchain with RUSTC_BOOTSTRAP=1 for this check only;
nothing built with it ships. The text of a type is the path as the source wrote it.
"""

import json
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# The crates a user installs: (package, manifest directory, features for rustdoc).
PUBLISHED = [
    ("godot_bin", ".", "--all-features"),
    ("godot_bin_files", "crates/godot_bin_files", "--all-features"),
    ("godot_bin_multiplayer", "crates/godot_bin_multiplayer", "--all-features"),
]


def run(cmd, **kw):
    return subprocess.run(cmd, cwd=ROOT, check=True, **kw)


# ---------------------------------------------------------------------------------------
# api


def rustdoc_json(package, features):
    env = dict(os.environ, RUSTC_BOOTSTRAP="1")
    target = os.environ.get("CARGO_TARGET_DIR", os.path.join(ROOT, "target"))
    run(
        ["cargo", "rustdoc", "-q", "-p", package, "--lib", features, "--",
         "-Z", "unstable-options", "--output-format", "json", "--document-hidden-items"],
        env=env,
    )
    with open(os.path.join(target, "doc", package + ".json")) as f:
        return json.load(f)


# Impls that derives add for std's own unstable use (rustdoc shows them only with hidden
# items on): not this crate's API.
HIDDEN_STD_TRAITS = {"TrivialClone", "StructuralPartialEq"}


class Api:
    def __init__(self, doc):
        self.doc = doc
        self.index = doc["index"]
        self.lines = set()
        self.seen = set()

    def item(self, id_):
        return self.index.get(str(id_))

    # Types as text, enough for a reviewer to see a signature change.
    def ty(self, t):
        if t is None:
            return "()"
        (k, v), = t.items()
        if k == "primitive":
            return v
        if k == "generic":
            return v
        if k == "resolved_path":
            name = v.get("path") or v.get("name")
            return name + self.args(v.get("args"))
        if k == "borrowed_ref":
            lt = (v.get("lifetime") or "") + " " if v.get("lifetime") else ""
            return "&" + lt + ("mut " if v.get("is_mutable") else "") + self.ty(v["type"])
        if k == "raw_pointer":
            return ("*mut " if v.get("is_mutable") else "*const ") + self.ty(v["type"])
        if k == "slice":
            return "[" + self.ty(v) + "]"
        if k == "array":
            return "[" + self.ty(v["type"]) + "; " + str(v["len"]) + "]"
        if k == "tuple":
            return "(" + ", ".join(self.ty(x) for x in v) + ")"
        if k == "impl_trait":
            return "impl " + " + ".join(self.bound(b) for b in v)
        if k == "dyn_trait":
            return "dyn " + " + ".join(
                p["trait"]["path"] + self.args(p["trait"].get("args")) for p in v["traits"]
            )
        if k == "qualified_path":
            return "<" + self.ty(v["self_type"]) + ">::" + v["name"]
        if k == "function_pointer":
            return "fn(..)"
        return k

    def args(self, a):
        if not a or "angle_bracketed" not in a:
            if a and "parenthesized" in a:
                p = a["parenthesized"]
                return "(" + ", ".join(self.ty(x) for x in p["inputs"]) + ")" + (
                    " -> " + self.ty(p["output"]) if p.get("output") else "")
            return ""
        parts = []
        for g in a["angle_bracketed"]["args"]:
            (k, v), = g.items() if isinstance(g, dict) else (("lifetime", g),)
            if k == "type":
                parts.append(self.ty(v))
            elif k == "lifetime":
                parts.append(v)
            elif k == "const":
                parts.append(str(v.get("expr", "_")))
        for c in a["angle_bracketed"].get("constraints", []):
            parts.append(c["name"] + "=..")
        return "<" + ", ".join(parts) + ">" if parts else ""

    def bound(self, b):
        if "trait_bound" in b:
            t = b["trait_bound"]["trait"]
            return t["path"] + self.args(t.get("args"))
        if "outlives" in b:
            return b["outlives"]
        return "?"

    def generics(self, g):
        names = []
        for p in g.get("params", []):
            kind = p["kind"]
            if "lifetime" in kind:
                names.append(p["name"])
            elif "type" in kind:
                if kind["type"].get("is_synthetic"):
                    continue
                bounds = kind["type"].get("bounds", [])
                names.append(p["name"] + (": " + " + ".join(self.bound(b) for b in bounds)
                                          if bounds else ""))
            elif "const" in kind:
                names.append("const " + p["name"])
        return "<" + ", ".join(names) + ">" if names else ""

    def sig(self, name, f):
        s = f["sig"]
        ins = ", ".join(
            (n if n == "self" else n + ": " + self.ty(t)) if n != "self" else self.ty(t)
            for n, t in s["inputs"]
        )
        out = " -> " + self.ty(s["output"]) if s.get("output") else ""
        h = f.get("header", {})
        pre = ("const " if h.get("is_const") else "") + ("unsafe " if h.get("is_unsafe") else "")
        return pre + "fn " + name + self.generics(f.get("generics", {})) + "(" + ins + ")" + out

    def add(self, line):
        self.lines.add(line)

    def walk(self, id_, path, name=None):
        it = self.item(id_)
        if it is None:
            return
        if it["visibility"] not in ("public", "default") and "use" not in it["inner"]:
            return
        (kind, inner), = it["inner"].items()
        name = name or it["name"]
        here = path + "::" + name if path and name else (path or name)
        key = (id_, here)
        if key in self.seen:
            return
        self.seen.add(key)
        if kind == "module":
            if inner.get("is_crate"):
                here = path
            else:
                self.add("mod " + here)
            for c in inner["items"]:
                self.walk(c, here)
        elif kind == "use":
            if inner.get("is_glob"):
                target = self.item(inner["id"]) if inner.get("id") is not None else None
                if target and "module" in target["inner"]:
                    for c in target["inner"]["module"]["items"]:
                        self.walk(c, path)
                else:
                    self.add("use " + path + "::* = " + inner["source"] + "::*")
            elif inner.get("id") is not None and self.item(inner["id"]) is not None:
                self.walk(inner["id"], path, inner["name"])
            else:
                self.add("use " + path + "::" + inner["name"] + " = " + inner["source"])
        elif kind == "function":
            self.add(self.sig(here, inner))
        elif kind == "struct":
            self.add("struct " + here + self.generics(inner.get("generics", {})))
            k = inner["kind"]
            if "plain" in k:
                for fid in k["plain"]["fields"]:
                    fld = self.item(fid)
                    if fld and fld["visibility"] == "public":
                        self.add("field " + here + "." + fld["name"] + ": " +
                                 self.ty(fld["inner"]["struct_field"]))
                if k["plain"].get("has_stripped_fields"):
                    self.add("struct " + here + " has private fields")
            elif "tuple" in k:
                shown = [self.ty(self.item(f)["inner"]["struct_field"]) if f is not None and
                         self.item(f) else "_" for f in k["tuple"]]
                self.add("struct " + here + "(" + ", ".join(shown) + ")")
            self.impls(here, inner.get("impls", []))
        elif kind == "enum":
            self.add("enum " + here + self.generics(inner.get("generics", {})))
            for vid in inner["variants"]:
                v = self.item(vid)
                vk = v["inner"]["variant"]["kind"]
                if vk == "plain":
                    self.add("variant " + here + "::" + v["name"])
                elif "tuple" in vk:
                    fs = [self.ty(self.item(f)["inner"]["struct_field"]) if f is not None and
                          self.item(f) else "_" for f in vk["tuple"]]
                    self.add("variant " + here + "::" + v["name"] + "(" + ", ".join(fs) + ")")
                else:
                    fs = [self.item(f)["name"] + ": " +
                          self.ty(self.item(f)["inner"]["struct_field"])
                          for f in vk["struct"]["fields"]]
                    self.add("variant " + here + "::" + v["name"] + " { " +
                             ", ".join(fs) + " }")
            self.impls(here, inner.get("impls", []))
        elif kind == "union":
            self.add("union " + here)
        elif kind == "trait":
            self.add("trait " + here + self.generics(inner.get("generics", {})))
            for c in inner["items"]:
                ci = self.item(c)
                if ci is None:
                    continue
                (ck, cv), = ci["inner"].items()
                if ck == "function":
                    self.add("trait-fn " + self.sig(here + "::" + ci["name"], cv))
                else:
                    self.add("trait-" + ck + " " + here + "::" + ci["name"])
        elif kind == "constant":
            self.add("const " + here + ": " + self.ty(inner["type"]))
        elif kind == "static":
            self.add("static " + here + ": " + self.ty(inner["type"]))
        elif kind == "type_alias":
            self.add("type " + here + " = " + self.ty(inner["type"]))
        elif kind == "macro":
            self.add("macro " + here + "!")
        else:
            self.add(kind + " " + here)

    def impls(self, here, ids):
        for iid in ids:
            im = self.item(iid)
            if im is None:
                continue
            imp = im["inner"]["impl"]
            if imp.get("is_synthetic") or imp.get("blanket_impl") is not None:
                continue
            if imp.get("trait"):
                t = imp["trait"]
                if t["path"] in HIDDEN_STD_TRAITS:
                    continue
                self.add("impl " + ("!" if imp.get("is_negative") else "") + t["path"] +
                         self.args(t.get("args")) + " for " + here)
                continue
            for c in imp["items"]:
                ci = self.item(c)
                if ci is None or ci["visibility"] != "public":
                    continue
                (ck, cv), = ci["inner"].items()
                if ck == "function":
                    self.add("method " + self.sig(here + "::" + ci["name"], cv))
                elif ck == "constant":
                    self.add("const " + here + "::" + ci["name"] + ": " + self.ty(cv["type"]))
                else:
                    self.add(ck + " " + here + "::" + ci["name"])


def api(bless):
    failed = False
    os.makedirs(os.path.join(ROOT, "api"), exist_ok=True)
    for package, _, features in PUBLISHED:
        doc = rustdoc_json(package, features)
        a = Api(doc)
        a.walk(doc["root"], package)
        text = "".join(line + "\n" for line in sorted(a.lines))
        snap = os.path.join(ROOT, "api", package + ".txt")
        old = open(snap).read() if os.path.exists(snap) else None
        if bless:
            with open(snap, "w") as f:
                f.write(text)
            print(f"api/{package}.txt: {len(a.lines)} items")
        elif old != text:
            failed = True
            new = os.path.join(os.environ.get("TMPDIR", "/tmp"), package + ".api.txt")
            with open(new, "w") as f:
                f.write(text)
            diff = subprocess.run(["diff", "-u", snap, new], capture_output=True, text=True)
            print(f"api/{package}.txt differs from the crate's public API:\n{diff.stdout}")
        else:
            print(f"api/{package}.txt: {len(a.lines)} items, as recorded")
    if failed:
        print("A public item was added, changed or removed. If meant, run "
              "`python3 .ci/house.py api --bless` and commit api/ with the change.")
        sys.exit(1)


# ---------------------------------------------------------------------------------------
# paths

# A path-like word ending in a file extension this repository keeps.
PATH_RE = re.compile(
    r"(?<![\w./:-])((?:\.{1,2}/)?[\w.-]+(?:/[\w.-]+)*\.(?:rs|md|toml|gd|tsv|json|py|sh|txt))"
    r"(?![\w/])")
STRING_RE = re.compile(r'"(?:\\.|[^"\\])*"')
# Words that look like paths but name something else: files of other projects (the
# engine's sources, other crates), files a test or a user makes, and generic names.
FOREIGN_PREFIXES = ("core/", "scene/", "editor/", "modules/", "servers/", "platform/",
                    "main/", "drivers/", "doc/", "thirdparty/", "godotengine/", "src/bin/",
                    "../shared/", "shared/", "res:/", "user:/", ".godot/", "addons/")


def tracked():
    out = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True,
                         check=True).stdout.split("\n")
    return [p for p in out if p]


def paths():
    files = tracked()
    have = set(files)
    dirs = set()
    for p in files:
        parts = p.split("/")
        for i in range(1, len(parts)):
            dirs.add("/".join(parts[:i]))
    names = {os.path.basename(p) for p in files}
    crate_roots = sorted({os.path.dirname(p) for p in files if p.endswith("Cargo.toml")},
                         key=len, reverse=True)
    allow = set()
    allow_file = os.path.join(ROOT, ".ci", "paths-allowed.txt")
    if os.path.exists(allow_file):
        allow = {l.split("#")[0].strip() for l in open(allow_file)} - {""}
    missing = []
    for f in files:
        if not f.endswith((".rs", ".md", ".toml")) or f.startswith("api/"):
            continue
        if f.endswith(("CHANGELOG.md", "RESULTS.md")):
            continue  # history: names files as they were when it was written
        try:
            text = open(os.path.join(ROOT, f), encoding="utf-8").read()
        except (UnicodeDecodeError, FileNotFoundError):
            continue
        here = os.path.dirname(f)
        crate = next((c for c in crate_roots if f.startswith(c + "/") or c == ""), "")
        for n, line in enumerate(text.split("\n"), 1):
            if f.endswith(".rs"):
                # Comments and docs only, without their string literals: those name files
                # a test or an example makes.
                line = STRING_RE.sub('""', line)
                at = line.find("//")
                if at < 0:
                    continue
                line = line[at:]
            for m in PATH_RE.finditer(line):
                word = m.group(1).rstrip(".")
                if word in allow or word.startswith(FOREIGN_PREFIXES) or "://" in line[
                        max(0, m.start() - 12):m.start() + 3]:
                    continue
                if "*" in word or "{" in word or "<" in word:
                    continue
                candidates = [word, os.path.normpath(os.path.join(here, word)),
                              os.path.normpath(os.path.join(crate, word))]
                if any(c in have or c in dirs for c in candidates):
                    continue
                if "/" not in word.lstrip("./") and word in names:
                    continue  # a bare file name that exists in the tree
                if "/" in word and any(p.endswith("/" + word) for p in files):
                    continue  # a path written from a folder deeper than the crate
                missing.append(f"{f}:{n}: names `{word}`, which is not in the repository")
    for m in missing:
        print(m)
    if missing:
        print(f"{len(missing)} comment(s) or doc(s) name files that do not exist; fix the "
              "path, or list a name of another project in .ci/paths-allowed.txt")
        sys.exit(1)
    print("paths: every file named in a comment or doc exists")


# ---------------------------------------------------------------------------------------
# package

# What a published crate's package may hold, by top-level entry.
PACKAGE_OK = re.compile(
    r"^(Cargo\.toml|Cargo\.toml\.orig|Cargo\.lock|\.cargo_vcs_info\.json|README\.md|"
    r"LICENSE[\w.-]*|CHANGELOG\.md|ARCHITECTURE\.md|\.gitignore|build\.rs|docs/[\w.-]+\.md|"
    r"src/.*|tests/.*|benches/.*|examples/.*)$")


def package():
    bad = []
    for package, _, _ in PUBLISHED:
        out = subprocess.run(
            ["cargo", "package", "--list", "--allow-dirty", "-q", "-p", package],
            cwd=ROOT, capture_output=True, text=True, check=True).stdout.split()
        for p in out:
            if not PACKAGE_OK.match(p):
                bad.append(f"{package}: {p}")
        print(f"{package}: {len(out)} files in the package")
    for b in bad:
        print("stray file in the package:", b)
    if bad:
        print("Exclude it in the crate's Cargo.toml (`exclude = [...]`) or move it out.")
        sys.exit(1)


if __name__ == "__main__":
    cmd = sys.argv[1] if len(sys.argv) > 1 else ""
    if cmd == "api":
        api("--bless" in sys.argv)
    elif cmd == "paths":
        paths()
    elif cmd == "package":
        package()
    else:
        print(__doc__)
        sys.exit(2)
