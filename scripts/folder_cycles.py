#!/usr/bin/env python3
"""Lines per library folder and the include cycles between folders (issue 31's evidence).

    python3 scripts/folder_cycles.py [-v] [--json] [--max-cycles N] [--max-layer-cycles N]
                                     [--leaf FOLDER ...]

A folder is src/<f> with include/gpdp/<f> ("core" for the files directly in src/ and
include/gpdp/). Folder A uses folder B when a file of A includes "gpdp/<B>/..." (or, for core, a
"gpdp/<name>.hpp" directly under include/gpdp) or a header only the library uses, "<B>/x.hpp" in
src/<B>; own-folder includes ("x.hpp") stay inside A. A cycle
is a strongly connected component of that graph with more than one node. It is reported twice: per
folder, and per CMake layer (CMakeLists.txt: core is src/*.cpp with io, samplers, posteriors and
cuda; every other folder is its own layer). -v lists, for each cycle, the includes that close it. It also prints the folders each --leaf folder
uses.

Checks (exit status 1, naming what failed; the test folder_cycles runs them): --max-cycles N fails
when there are more than N include cycles between folders (and between layers, unless
--max-layer-cycles N sets that bound apart); --leaf FOLDER
(repeatable) fails when FOLDER includes a folder other than core (privacy/: the trusted maps depend
only on the core vocabulary). Without them the exit status is 0 whatever it finds.
"""

import argparse

import json
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
INCLUDE = re.compile(r'^\s*#\s*include\s+"gpdp/([^"]+)"', re.MULTILINE)
# A header only the library uses, in another folder of src/ ("io/atomic_file.hpp").
PRIVATE_INCLUDE = re.compile(r'^\s*#\s*include\s+"([a-z_]+/[^"]+)"', re.MULTILINE)


def folder_of(rel):
    """The folder of a path relative to src/ or include/gpdp/."""
    parts = rel.split("/")
    return parts[0] if len(parts) > 1 else "core"


def scan():
    lines, edges = {}, {}
    for base in ("src", os.path.join("include", "gpdp")):
        top = os.path.join(ROOT, base)
        for d, _, files in os.walk(top):
            for f in files:
                if not f.endswith((".cpp", ".hpp", ".cu")):
                    continue
                path = os.path.join(d, f)
                rel = os.path.relpath(path, top).replace(os.sep, "/")
                src = folder_of(rel)
                with open(path, encoding="utf-8") as fh:
                    text = fh.read()
                if base == "src":
                    lines[src] = lines.get(src, 0) + text.count("\n")
                private = [inc for inc in PRIVATE_INCLUDE.findall(text)
                           if os.path.isfile(os.path.join(ROOT, "src", inc))]
                for inc in INCLUDE.findall(text) + private:
                    dst = folder_of(inc)
                    if dst != src:
                        edges.setdefault((src, dst), []).append(f"{base}/{rel}")
    return lines, edges


# Folders built into the core layer (CMakeLists.txt, gpdp_add_layer(core ...) and gpdp_cuda).
CORE_LAYER = {"core", "io", "samplers", "posteriors", "cuda"}


def by_layer(edges):
    """The folder graph with the core layer's folders merged into one node."""
    out = {}
    for (a, b), files in edges.items():
        a, b = ("core" if x in CORE_LAYER else x for x in (a, b))
        if a != b:
            out.setdefault((a, b), []).extend(files)
    return out


def components(nodes, edges):
    """Tarjan's strongly connected components."""
    succ = {n: sorted({b for (a, b) in edges if a == n}) for n in nodes}
    index, low, stack, on, out = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in succ[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            out.append(sorted(comp))

    for n in sorted(nodes):
        if n not in index:
            visit(n)
    return [c for c in out if len(c) > 1]


def report(title, edges, verbose):
    nodes = {a for a, _ in edges} | {b for _, b in edges}
    cycles = components(nodes, edges)
    mutual = sorted(f"{a}<->{b}" for (a, b) in edges if a < b and (b, a) in edges)
    print(f"include cycles between {title}: {len(cycles)} (sizes {[len(c) for c in cycles]}); "
          f"pairs that include each other: {len(mutual)} {' '.join(mutual)}")
    for comp in cycles:
        print(f"  {{{', '.join(comp)}}}")
        if not verbose:
            continue
        for (a, b), files in sorted(edges.items()):
            if a in comp and b in comp:
                files = sorted(set(files))
                more = f" (+{len(files) - 4})" if len(files) > 4 else ""
                print(f"    {a} -> {b}: {', '.join(files[:4])}{more}")
    return cycles


def main():
    parser = argparse.ArgumentParser(description="Lines per src/ folder and include cycles.")
    parser.add_argument("-v", action="store_true", help="list the includes that close each cycle")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument("--max-cycles", type=int, default=None, metavar="N",
                        help="fail when folders (and layers) have more than N include cycles")
    parser.add_argument("--max-layer-cycles", type=int, default=None, metavar="N",
                        help="fail when layers have more than N include cycles")
    parser.add_argument("--leaf", action="append", default=[], metavar="FOLDER",
                        help="fail when FOLDER includes any folder but core (repeatable)")
    args = parser.parse_args()
    lines, edges = scan()
    layers = by_layer(edges)
    if args.json:
        nodes = {a for a, _ in edges} | {b for _, b in edges}
        layer_nodes = {a for a, _ in layers} | {b for _, b in layers}
        doc = {"lines": lines, "folder_cycles": components(nodes, edges),
               "layer_cycles": components(layer_nodes, layers)}
        json.dump(doc, sys.stdout, indent=2, sort_keys=True)
        print()
        return 0
    print("lines of src/ per folder:")
    for name in sorted(lines, key=lambda n: -lines[n]):
        print(f"  {lines[name]:7d}  {name}")
    print(f"  {sum(lines.values()):7d}  total")
    failures = []
    layer_bound = args.max_layer_cycles if args.max_layer_cycles is not None else args.max_cycles
    for title, graph, bound, flag in (("folders", edges, args.max_cycles, "--max-cycles"),
                                      ("layers", layers, layer_bound, "--max-layer-cycles")):
        cycles = report(title, graph, args.v)
        if bound is not None and len(cycles) > bound:
            failures.append(f"{len(cycles)} include cycles between {title}, more than {flag} "
                            f"{bound}")
    for leaf in args.leaf:
        uses = sorted(b for (a, b) in edges if a == leaf)
        print(f"{leaf} uses: {', '.join(uses) if uses else 'nothing'}")
        for b in uses:
            if b != "core":
                files = sorted(set(edges[(leaf, b)]))
                failures.append(f"{leaf} is not a leaf over core: it includes {b} "
                                f"({', '.join(files)})")
    for f in failures:
        print(f"folder_cycles: {f}", file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
