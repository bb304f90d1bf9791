"""Every ```python block of docs/python.md runs, in order, in one namespace (like a reader
pasting them into one session), in a temporary working directory."""

import os
import pathlib
import re

import pytest

DOC = pathlib.Path(__file__).resolve().parents[2] / "docs" / "python.md"


def python_blocks(text):
    return re.findall(r"^```python\n(.*?)^```", text, flags=re.S | re.M)


def test_doc_has_code():
    assert len(python_blocks(DOC.read_text())) >= 4


def test_doc_blocks_run(tmp_path, monkeypatch):
    import matplotlib

    matplotlib.use("Agg")
    monkeypatch.chdir(tmp_path)
    namespace = {"__name__": "__docs__"}
    for i, block in enumerate(python_blocks(DOC.read_text())):
        try:
            exec(compile(block, f"{DOC.name}[block {i + 1}]", "exec"), namespace)
        except Exception as e:  # name the block that failed
            pytest.fail(f"docs/python.md block {i + 1} raised {type(e).__name__}: {e}\n{block}")
