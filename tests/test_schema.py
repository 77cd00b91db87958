"""The ruleset schema is valid JSON Schema 2020-12 and matches the parameter registry."""

from __future__ import annotations

import json

import pytest
from jsonschema import Draft202012Validator

from schwimmen.resources import schema_dir
from schwimmen.spec import schema_gen
from schwimmen.spec.parameters import BY_PATH, ENUM_OF, PARAMETERS


def test_schemas_are_valid_json_schema() -> None:
    for path in sorted(schema_dir().glob("*.schema.json")):
        schema = json.loads(path.read_text(encoding="utf-8"))
        Draft202012Validator.check_schema(schema)
        assert schema["$id"].endswith(path.name), path


def test_checked_in_schema_is_generated_from_the_registry() -> None:
    on_disk = (schema_dir() / "ruleset.schema.json").read_text(encoding="utf-8")
    assert on_disk == schema_gen.render(), "run: python -m schwimmen.spec.schema_gen"


def test_every_parameter_is_in_the_schema_with_its_choices() -> None:
    schema = schema_gen.build_schema()
    groups = schema["properties"]["rules"]["properties"]
    for param in PARAMETERS:
        assert param.name in groups[param.group]["properties"], param.path
        entry = schema["$defs"]["param." + param.path]
        if param.choices and param.path not in ("turns.swaps", "protection.hands"):
            assert entry["properties"]["value"]["enum"] == list(param.choices)


def test_enum_classes_cover_every_choice_parameter() -> None:
    with_choices = {p.path for p in PARAMETERS if p.choices}
    assert with_choices == set(ENUM_OF)
    assert all(path in BY_PATH for path in ENUM_OF)


@pytest.mark.slow
def test_every_yaml_file_reads_the_same_without_libyaml() -> None:
    """PyYAML's C loader accepts a few things its pure-Python loader refuses (a plain
    scalar ending in "?" inside a flow mapping); on a machine without libyaml such a file
    would not load. Every shipped file must read the same with both."""
    import yaml

    from schwimmen.resources import conformance_dir, spec_dir

    fast = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    files = sorted(spec_dir().rglob("*.yaml")) + sorted(conformance_dir().rglob("*.yaml"))
    assert files
    for path in files:
        text = path.read_text(encoding="utf-8")
        assert yaml.load(text, Loader=yaml.SafeLoader) == yaml.load(text, Loader=fast), path
