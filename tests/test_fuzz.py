"""Property tests: whatever a person types, the loader answers with a ruleset or with
located errors, never with a traceback."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from schwimmen.resources import spec_dir
from schwimmen.spec.errors import SpecErrors
from schwimmen.spec.loader import Catalog
from schwimmen.spec.validation import schema_errors
from schwimmen.spec.yamlread import YamlError, read_text

YAML_ALPHABET = st.sampled_from([*list("abc:-[]{}&*!|>'\"#,? \n\t0123456789.%@`~<="), "é", "\x00"])

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-5, 100)
    | st.floats(allow_nan=False, width=16)
    | st.text(max_size=8),
    lambda children: (
        st.lists(children, max_size=3)
        | st.dictionaries(st.text(min_size=1, max_size=6), children, max_size=3)
    ),
    max_leaves=6,
)


@settings(max_examples=300, deadline=None)
@given(st.text(YAML_ALPHABET, max_size=200))
def test_random_text_gives_data_or_a_located_error(text: str) -> None:
    try:
        doc = read_text("fuzz.yaml", text)
    except YamlError as exc:
        assert exc.error.file == "fuzz.yaml"
        assert exc.error.line >= 1 and exc.error.col >= 1
        return
    for error in schema_errors(doc, "ruleset.schema.json"):
        assert error.line >= 1


def _paths(data: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [prefix]
    if isinstance(data, dict):
        for k, v in data.items():
            out.extend(_paths(v, (*prefix, k)))
    elif isinstance(data, list):
        for i, v in enumerate(data):
            out.extend(_paths(v, (*prefix, i)))
    return out


REAL = {
    name: yaml.safe_load((spec_dir() / "rulesets" / f"{name}.yaml").read_text(encoding="utf-8"))
    for name in ("pagat", "scat")
}


@st.composite
def mutated_rulesets(draw: st.DrawFn) -> tuple[str, dict[str, Any]]:
    name = draw(st.sampled_from(sorted(REAL)))
    data = copy.deepcopy(REAL[name])
    for _ in range(draw(st.integers(1, 3))):
        paths = [p for p in _paths(data) if p]
        path = draw(st.sampled_from(paths))
        parent = data
        for part in path[:-1]:
            parent = parent[part]
        action = draw(st.sampled_from(["delete", "replace", "rename"]))
        if action == "delete":
            del parent[path[-1]]
        elif action == "replace":
            parent[path[-1]] = draw(json_values)
        elif isinstance(parent, dict):
            parent[draw(st.text(min_size=1, max_size=8))] = parent.pop(path[-1])
    return name, data


@pytest.mark.slow
@settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(mutated_rulesets())
def test_mutated_rulesets_resolve_or_report_located_errors(
    tmp_path_factory: Any, case: tuple[str, dict[str, Any]]
) -> None:
    name, data = case
    root: Path = tmp_path_factory.mktemp("spec")
    (root / "rulesets").mkdir()
    (root / "house-rules").mkdir()
    (root / "sources.yaml").write_text((spec_dir() / "sources.yaml").read_text(encoding="utf-8"))
    text = yaml.safe_dump(data, allow_unicode=True, sort_keys=False)
    (root / "rulesets" / f"{name}.yaml").write_text(text, encoding="utf-8")
    catalog = Catalog.load(root)
    try:
        catalog.resolve(name)
    except SpecErrors as exc:
        assert exc.errors
        for error in exc.errors:
            assert error.line >= 1 and error.col >= 1 and error.message
