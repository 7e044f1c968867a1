"""The walls between packages (DESIGN.md: clients -> protocol <- saturnd), checked by reading
every import statement, including the ones inside functions."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def imported_modules(path: Path) -> set[str]:
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.add(node.module)
    return found


def breaches(folder: str, forbidden: tuple[str, ...]) -> list[str]:
    """`file imports module` for each import of a forbidden package (or a module inside it)."""
    return [
        f"{path.relative_to(ROOT)} imports {module}"
        for path in sorted((ROOT / folder).rglob("*.py"))
        for module in sorted(imported_modules(path))
        if any(module == name or module.startswith(name + ".") for name in forbidden)
    ]


@pytest.mark.parametrize(("folder", "forbidden"), [
    ("clients", ("saturnd",)),
    ("machine", ("saturnd", "clients")),
])
def test_no_import_crosses_a_wall(folder: str, forbidden: tuple[str, ...]) -> None:
    assert breaches(folder, forbidden) == []


def test_memory_imports_neither_the_turn_nor_the_tools() -> None:
    assert breaches("saturnd/memory", ("saturnd.turn", "saturnd.tools")) == []
