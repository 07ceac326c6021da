"""The shape of the code a reader of pyproject.toml is promised: no module of the apps imports
itself back through others (counting imports inside functions), and every module has its place
in an import-linter contract, so lint-imports checks each one's imports."""

import tomllib
from pathlib import Path

import grimp
import pytest

PACKAGES = ("blog", "home", "search", "config")
PYPROJECT = Path(__file__).resolve().parent.parent / "pyproject.toml"
# The keys of import-linter's contracts that name modules.
MODULE_KEYS = ("source_modules", "forbidden_modules", "modules", "layers")


@pytest.fixture(scope="module")
def graph():
    return grimp.build_graph(*PACKAGES)


def cycles(graph):
    """The strongly connected components of more than one module (Tarjan's algorithm)."""
    order, lowest, stack, on_stack, found = {}, {}, [], set(), []

    def visit(module):
        order[module] = lowest[module] = len(order)
        stack.append(module)
        on_stack.add(module)
        for imported in graph.find_modules_directly_imported_by(module):
            if imported not in order:
                visit(imported)
                lowest[module] = min(lowest[module], lowest[imported])
            elif imported in on_stack:
                lowest[module] = min(lowest[module], order[imported])
        if lowest[module] == order[module]:
            component = set()
            while module not in component:
                component.add(stack.pop())
            on_stack.difference_update(component)
            if len(component) > 1:
                found.append(sorted(component))

    for module in sorted(graph.modules):
        if module not in order:
            visit(module)
    return found


def named_in_contracts():
    """Every module a contract names, a container's layers under their container's name.
    The root packages themselves say nothing of a module's place, so they are left out."""
    names = set()
    for contract in tomllib.loads(PYPROJECT.read_text())["tool"]["importlinter"]["contracts"]:
        for key in MODULE_KEYS:
            for entry in contract.get(key, []):
                for name in entry.replace("|", ":").split(":"):
                    name = name.strip()
                    names.update(f"{c}.{name}" for c in contract.get("containers", [""]))
    return {name.lstrip(".") for name in names} - set(PACKAGES)


def test_no_module_imports_itself_back_through_others(graph):
    found = cycles(graph)
    assert not found, "Modules that import each other round a cycle: " + "; ".join(
        ", ".join(component) for component in found
    )


def test_every_module_has_a_place_in_a_contract(graph):
    named = named_in_contracts()

    def covered(module):
        if any(module == name or module.startswith(name + ".") for name in named):
            return True
        # A package is placed when everything in it is.
        children = graph.find_children(module)
        return bool(children) and all(covered(child) for child in children)

    unplaced = sorted(module for module in graph.modules if not covered(module))
    assert not unplaced, "Modules no import-linter contract names: " + ", ".join(unplaced)
