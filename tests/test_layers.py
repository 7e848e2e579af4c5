"""The package's import facts: layers that only import downwards, no import cycles, no Flask in the core.

A module's imports are read from its source (every ``import``, also inside functions, except
under ``if TYPE_CHECKING``), so the test needs nothing imported and fails before a cycle bites
at run time. The layers, lowest first, are :data:`LAYERS`; a module may import its own layer and
the ones below it, never one above.
"""

from __future__ import annotations

import ast
from pathlib import Path

from tutor import ROOT

PACKAGE = ROOT / "tutor"
#: Lowest first: (layer, module prefixes). A module belongs to the layer of its longest matching prefix.
LAYERS = (
    (
        "foundation",
        (
            "tutor",
            "tutor.signs",
            "tutor.text",
            "tutor.primes",
            "tutor.expressions",
            "tutor.answers",
            "tutor.checks",
            "tutor.content",
            "tutor.deck",
            "tutor.standard_deck",
            "tutor.gnav_deck",
            "tutor.speech",
            "tutor.config",
            "tutor.code_version",
            "tutor.models",
        ),
    ),
    ("rules and questions", ("tutor.engine", "tutor.drills", "tutor.answer_key")),
    ("lessons", ("tutor.lessons",)),
    (
        "storage and the skill model",
        (
            "tutor.skill_model",
            "tutor.db",
            "tutor.accounts",
            "tutor.second_factor",
            "tutor.limits",
            "tutor.guessing",
            "tutor.answer_counts",
        ),
    ),
    (
        "services",
        (
            "tutor.classroom",
            "tutor.homework_status",
            "tutor.groups",
            "tutor.roster",
            "tutor.steps",
            "tutor.reports",
            "tutor.admin",
            "tutor.password_reset",
            "tutor.mail",
            "tutor.demo",
            "tutor.lti",
            "tutor.sso",
        ),
    ),
    ("web", ("tutor.web", "tutor.app", "tutor.cli", "tutor.migrations")),
)
WEB_LIBRARIES = ("flask", "flask_babel", "flask_wtf", "jinja2_fragments", "werkzeug", "jinja2")
#: Libraries' Flask adapters, which import Flask themselves (pylti1p3's FlaskOIDCLogin, FlaskRequest...).
FLASK_ADAPTERS = ("pylti1p3.contrib",)


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(path): path for path in sorted(PACKAGE.rglob("*.py"))}


def layer_of(module: str) -> int:
    matches = [
        (len(prefix), index)
        for index, (_, prefixes) in enumerate(LAYERS)
        for prefix in prefixes
        if module == prefix or (prefix != "tutor" and module.startswith(prefix + "."))
    ]
    if not matches:
        raise AssertionError(f"{module} is in no layer: add it to LAYERS")
    return max(matches)[1]


def _type_checking_only(node: ast.AST) -> bool:
    return isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)


def imported(module: str) -> set[str]:
    """Every module name ``module`` imports at run time (tutor modules resolved to the deepest module)."""
    tree = ast.parse(MODULES[module].read_text(encoding="utf-8"))
    found: set[str] = set()

    def visit(node: ast.AST) -> None:
        for child in ast.iter_child_nodes(node):
            if _type_checking_only(child):
                continue
            if isinstance(child, ast.Import):
                found.update(alias.name for alias in child.names)
            elif isinstance(child, ast.ImportFrom) and child.level == 0 and child.module:
                found.add(child.module)
                found.update(
                    f"{child.module}.{alias.name}" for alias in child.names if f"{child.module}.{alias.name}" in MODULES
                )
            visit(child)

    visit(tree)
    return found


GRAPH = {module: {name for name in imported(module) if name in MODULES and name != module} for module in MODULES}


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The import cycles among the package's modules, each as a path that ends where it starts."""
    found, state, stack = [], {}, []

    def walk(module: str) -> None:
        state[module] = "open"
        stack.append(module)
        for name in sorted(graph[module]):
            if state.get(name) == "open":
                found.append([*stack[stack.index(name) :], name])
            elif name not in state:
                walk(name)
        stack.pop()
        state[module] = "done"

    for module in sorted(graph):
        if module not in state:
            walk(module)
    return found


def upward(graph: dict[str, set[str]]) -> list[str]:
    """Every import of a module in a higher layer, as a sentence."""
    return [
        f"{module} ({LAYERS[layer_of(module)][0]}) imports {name} ({LAYERS[layer_of(name)][0]})"
        for module, names in sorted(graph.items())
        for name in sorted(names)
        if layer_of(name) > layer_of(module)
    ]


def test_every_module_is_in_a_layer():
    for module in MODULES:
        layer_of(module)


def test_no_import_cycles():
    assert cycles(GRAPH) == []


def test_imports_only_point_downwards():
    assert upward(GRAPH) == []


def web_leaks(imports: dict[str, set[str]]) -> list[str]:
    """Every import of a web library (Flask and its kin) by a module below the web layer."""
    web = layer_of("tutor.web")
    return [
        f"{module} imports {name}"
        for module, names in sorted(imports.items())
        if layer_of(module) < web
        for name in sorted(names)
        if name.split(".")[0] in WEB_LIBRARIES or name.startswith(FLASK_ADAPTERS)
    ]


ALL_IMPORTS = {module: imported(module) for module in MODULES}


def test_the_core_imports_no_web_library():
    assert web_leaks(ALL_IMPORTS) == []


def test_a_planted_cycle_and_a_planted_upward_import_are_found():
    planted = {**GRAPH, "tutor.signs": GRAPH["tutor.signs"] | {"tutor.answers"}}
    assert any(set(cycle) == {"tutor.answers", "tutor.signs"} for cycle in cycles(planted))
    planted = {**GRAPH, "tutor.engine.core": GRAPH["tutor.engine.core"] | {"tutor.web.lessons"}}
    assert upward(planted) == ["tutor.engine.core (rules and questions) imports tutor.web.lessons (web)"]


def test_flask_in_the_core_is_found_and_in_the_web_layer_is_not():
    assert "flask" in ALL_IMPORTS["tutor.web.db"]
    planted = {**ALL_IMPORTS, "tutor.steps": ALL_IMPORTS["tutor.steps"] | {"flask_babel"}}
    assert web_leaks(planted) == ["tutor.steps imports flask_babel"]
