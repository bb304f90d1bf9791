#!/usr/bin/env python3
"""Library messages name parameters, never command-line flags (issue 31).

    python3 scripts/error_flags.py [--root DIR] [--cli GPDP ...] [-v]

The library (src/ and include/gpdp/) raises errors that name parameters ("target_epsilon must be
positive") and lists them in Error::parameters(); only a front end spells them as its flags (the
CLI: "--target-epsilon"), from the option specs. So a string literal there that holds a flag
("--target-epsilon") is allowed only

  * inside a call option(...): the option-spec tables (the flag itself and its --help text), or
  * in a statement listed in OUTPUT_TEXTS below: text written into an output (a certificate, a
    report, a figure's caption), not an error, which must stay byte-identical.

Everything else fails: the check prints each offending literal (path:line) and exits 1. It also
fails when an OUTPUT_TEXTS entry matches nothing (the list may only shrink with the code).

With --cli (each executable of the CLI), it also checks that every parameter an error names (the
string literals in the parameter lists of require_parameter(s), ParameterError and the other
Error constructors) is set by a flag (or a positional argument, named as it is) of some command,
so the CLI can print it as a flag: a flag's
parameter is its name with '_' for '-' ("--target-epsilon" -> target_epsilon), or the one its spec
states beside it (option("--out", ...).with_parameter("out_dir"); else its request key,
with_key("roc_path")). Parameters of library calls
that no command takes (API_ONLY) are exempt. -v prints the counts.
"""

import argparse
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FLAG = re.compile(r"(?<![\w-])--[A-Za-z]")
OPTION_CALL = re.compile(r"\boption\s*\(")
SOURCES = (".cpp", ".hpp", ".cu", ".h")

# (path, text of the statement): output texts that mention a flag on purpose.
OUTPUT_TEXTS = [
    # the provenance line of a reproduced table or figure: the command that made it
    ("src/reproduce/utility.cpp", "`gpdp-lab reproduce {} --seed"),
    ("src/reproduce/utility.cpp", "`gpdp-lab reproduce fig4-lucas --seed"),
    # the certificate's record of how --mechanism auto chose
    ("src/release/auto_mechanism.cpp", "calibrates simulated data sets"),
    # the certificate's record of how the model CRS was chosen
    ("src/gis/geo_frame.cpp", 'rule = "given (--model-crs)"'),
    # a property of the excursion GeoJSON written without a CRS
    ("src/release/outputs.cpp", "no coordinate reference system was declared"),
    # gpdp search's report: the release command line for the chosen θ
    ("src/experiments/public_search_run.cpp", "Use θ_priv for the release"),
    # the preview report's note and line on an uncalibrated prediction
    ("src/preview/report.cpp", "spends a small recorded ε to calibrate them"),
    ("src/preview/report.cpp", "prediction uncalibrated (public inputs only;"),
    # gpdp ledger show's table: the command that migrates a schema-1 ledger's rows
    ("src/commands/ledger.cpp", "gpdp ledger migrate {} --data FILE --dataset NAME"),
]


# Parameters of library calls that no CLI command takes, and who takes them.
API_ONLY = {
    "X": "gpdp.release / Python arrays of covariates (the CLI reads them from --data)",
    "input": "Python's prepared releases: the input description object",
    "options": "Python's prepared releases: the options object",
    "points": "Python's prepared releases: the query points array",
    "candidates": "privacy::envelope's list of mechanisms (gpdp.privacy)",
    "epsilons": "the calibrated preview's list of targets (gpdp.preview)",
}

ERROR_CALL = re.compile(r"\b(require_parameters?|\w*Error)\s*\(")
WITH_PARAMETER = re.compile(r"\s*\.\s*(\w+)\s*\(")


def blank_comments_and_strings(text):
    """(code, literals): `code` is `text` with comments and the insides of string and character
    literals blanked (same length, newlines kept); literals are (start, end, body) of each string
    literal (raw strings included)."""
    out = list(text)
    literals = []
    i, n = 0, len(text)

    def blank(a, b):
        for k in range(a, b):
            if out[k] != "\n":
                out[k] = " "

    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            blank(i, j)
            i = j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            blank(i, j)
            i = j
        elif c == "R" and text.startswith('R"', i) and (i == 0 or not text[i - 1].isalnum()):
            open_paren = text.find("(", i + 2)
            delim = text[i + 2 : open_paren]
            close = text.find(")" + delim + '"', open_paren)
            literals.append((i, close + len(delim) + 2, text[open_paren + 1 : close]))
            blank(i + 2, close + len(delim) + 1)
            i = close + len(delim) + 2
        elif c in "\"'":
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == "\\" else 1
            if c == '"':
                literals.append((i, j + 1, text[i + 1 : j]))
            blank(i + 1, j)
            i = j + 1
        else:
            i += 1
    return "".join(out), literals


def call_spans(code, pattern):
    """(start, end) of each call matched by `pattern` (its parenthesised arguments included)."""
    spans = []
    for m in pattern.finditer(code):
        depth, j = 0, m.end() - 1
        while j < len(code):
            if code[j] == "(":
                depth += 1
            elif code[j] == ")":
                depth -= 1
                if depth == 0:
                    break
            j += 1
        spans.append((m.start(), j + 1))
    return spans


def statement_of(code, text, start, end):
    """The text of the statement around [start, end): from the last ; { } before it to the next ;."""
    a = max(code.rfind(ch, 0, start) for ch in ";{}") + 1
    b = code.find(";", end)
    return text[a : len(text) if b < 0 else b + 1]


def top_level_args(code, start, end):
    """(a, b) spans of the comma-separated arguments of the call whose parentheses are
    code[start:end]."""
    spans, depth, a = [], 0, start + 1
    for j in range(start, end):
        c = code[j]
        if c in "({[":
            depth += 1
        elif c in ")}]":
            depth -= 1
        elif c == "," and depth == 1:
            spans.append((a, j))
            a = j + 1
    spans.append((a, end - 1))
    return spans


def literals_in(literals, span):
    return [body for s, e, body in literals if span[0] <= s and e <= span[1]]


def close_of(code, paren):
    """The offset just past the parenthesis that closes code[paren] == '('."""
    depth = 0
    for j in range(paren, len(code)):
        depth += code[j] == "("
        depth -= code[j] == ")"
        if depth == 0:
            return j + 1
    return len(code)


def named_parameters(code, literals):
    """(parameter, offset) of each literal parameter an error call names, and the count of
    parameter lists that are not literals (a variable, checked where it is set)."""
    found, opaque = [], 0
    for m in ERROR_CALL.finditer(code):
        name = m.group(1)
        args = top_level_args(code, m.end() - 1, close_of(code, m.end() - 1))
        index = 0 if name == "ParameterError" else 1
        if index >= len(args):
            continue
        a, b = args[index]
        text = code[a:b].strip()
        if name == "require_parameter":
            if not text.startswith('"'):
                opaque += 1
                continue
        elif not text.startswith("{"):
            opaque += name in ("ParameterError", "require_parameters")
            continue
        found.extend((body, a) for body in literals_in(literals, (a, b)))
    return found, opaque


def spec_parameters(code, literals):
    """The parameters stated beside a flag: option("--flag", ...)...with_parameter("p"), or its
    request key read as a parameter: ...with_key("k-k") -> k_k."""
    stated = set()
    for _, end in call_spans(code, OPTION_CALL):
        j, key, parameter = end, [], []
        while (m := WITH_PARAMETER.match(code, j)) is not None:
            call_end = close_of(code, m.end() - 1)
            if m.group(1) == "with_parameter":
                parameter = literals_in(literals, (m.end() - 1, call_end))
            elif m.group(1) == "with_key":
                key = [k.replace("-", "_") for k in literals_in(literals, (m.end() - 1, call_end))]
            j = call_end
        stated.update(parameter or key)
    return stated


def cli_flags(executable, words=()):
    """The long flags and positional arguments of the command `words` of `executable` and of all
    its subcommands (from --help: an entry starts in the third column, its description's next lines
    further right)."""
    out = subprocess.run([executable, *words, "--help"], capture_output=True, text=True, check=True)
    flags, subcommands, section = set(), [], ""
    for line in out.stdout.splitlines():
        if line and not line[0].isspace():
            section = line.strip().rstrip(":").lower()
            continue
        entry = re.match(r"  (\S+)", line)
        if not entry:
            continue
        if section == "options" and entry.group(1).startswith("-"):
            flags.update(re.findall(r"--([A-Za-z][\w-]*)", entry.group(1)))
        elif section == "positionals":  # named as it is: `gpdp-lab reproduce TARGET`'s target
            flags.add(entry.group(1))
        elif section == "subcommands":
            subcommands.append(entry.group(1))
    for sub in subcommands:
        flags |= cli_flags(executable, (*words, sub))
    return flags


def scan(root):
    """The findings over src/ and include/gpdp/: offending literals, unused OUTPUT_TEXTS entries,
    counts of allowed literals, the parameters errors name ({name: [path:line]}), the count of
    parameter lists that are not literals, and the parameters specs state beside their flags."""
    offending, in_specs, in_outputs, opaque = [], 0, 0, 0
    used, named, stated = set(), {}, set()
    for base in ("src", os.path.join("include", "gpdp")):
        for d, _, files in os.walk(os.path.join(root, base)):
            for f in sorted(files):
                if not f.endswith(SOURCES):
                    continue
                path = os.path.join(d, f)
                rel = os.path.relpath(path, root).replace(os.sep, "/")
                with open(path, encoding="utf-8") as fh:
                    text = fh.read()
                code, literals = blank_comments_and_strings(text)
                specs = call_spans(code, OPTION_CALL)
                for start, end, body in literals:
                    if not FLAG.search(body):
                        continue
                    if any(a <= start and end <= b for a, b in specs):
                        in_specs += 1
                        continue
                    statement = statement_of(code, text, start, end)
                    listed = [
                        k for k, (p, t) in enumerate(OUTPUT_TEXTS) if p == rel and t in statement
                    ]
                    if listed:
                        used.update(listed)
                        in_outputs += 1
                        continue
                    line = text.count("\n", 0, start) + 1
                    offending.append(f"{rel}:{line}: {text[start:end]}")
                found, unknown = named_parameters(code, literals)
                opaque += unknown
                for parameter, offset in found:
                    where = f"{rel}:{text.count(chr(10), 0, offset) + 1}"
                    named.setdefault(parameter, []).append(where)
                stated |= spec_parameters(code, literals)
    unused = [f"{p}: {t!r}" for k, (p, t) in enumerate(OUTPUT_TEXTS) if k not in used]
    return offending, unused, in_specs, in_outputs, named, opaque, stated


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--root", default=ROOT, help="the repository (default: this script's)")
    ap.add_argument("--cli", nargs="+", default=[], help="the CLI's executables (gpdp, ...)")
    ap.add_argument("-v", action="store_true", help="print the counts of each class")
    args = ap.parse_args()
    offending, unused, in_specs, in_outputs, named, opaque, stated = scan(args.root)
    failed = bool(offending or unused)
    if args.v:
        print(f"flag literals: {in_specs} in option specs, {in_outputs} in output texts, "
              f"{len(offending)} elsewhere")
    for o in offending:
        print(f"error_flags: a flag in a library message (name the parameter instead): {o}")
    for u in unused:
        print(f"error_flags: OUTPUT_TEXTS entry matches nothing (remove it): {u}")
    if args.cli:
        flags = set()
        for executable in args.cli:
            flags |= cli_flags(executable)
        settable = {f.replace("-", "_") for f in flags} | stated
        missing = {p: w for p, w in named.items() if p not in settable and p not in API_ONLY}
        if args.v:
            print(f"parameters named by errors: {len(named)} ({len(API_ONLY)} API-only), "
                  f"{opaque} parameter lists not literal; flags of the CLI: {len(flags)}")
        for p, where in sorted(missing.items()):
            print(f"error_flags: no flag of the CLI sets parameter '{p}' ({', '.join(where)})")
        failed = failed or bool(missing)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
