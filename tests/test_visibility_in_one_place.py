"""Whether a page is past its expiry, and so hidden from readers, is decided in
blog/visibility.py alone: a module elsewhere that compared expire_at with a moment in a query
would keep its own copy of the rule, and the two would drift apart (as the editor screens'
copies once did)."""

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
APPS = ("blog", "home", "search", "config")
THE_RULE = ROOT / "blog" / "visibility.py"


def expiry_lookups(path):
    """Each line where a query looks expire_at up (expire_at__lte=..., "expire_at__gt": ...)."""
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        names = []
        if isinstance(node, ast.keyword) and node.arg:
            names.append(node.arg)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            names.append(node.value)
        if any(name.startswith("expire_at__") for name in names):
            yield f"{path.relative_to(ROOT)}:{node.lineno}"


def test_only_the_visibility_module_asks_a_query_about_expiry():
    modules = [
        path
        for app in APPS
        for path in sorted((ROOT / app).rglob("*.py"))
        if path != THE_RULE and "migrations" not in path.parts
    ]
    assert modules
    assert [line for path in modules for line in expiry_lookups(path)] == []
