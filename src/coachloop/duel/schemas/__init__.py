"""The duel's JSON Schemas (shipped as package data) and a small validator for them.

`load("report" | "decision" | PATH)` reads a shipped schema or a schema file;
`validate(data, schema)` returns the list of errors (empty when valid). The validator
covers the JSON Schema keywords these schemas use: type, enum, const, required,
properties, additionalProperties (boolean), items, minItems, minLength, minimum,
allOf, if/then/else. An unsupported keyword is reported as an error rather than
silently ignored, so a schema file it cannot check never passes by accident.
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

__all__ = ["SHIPPED", "load", "validate"]

SHIPPED = ("report", "decision")
_ANNOTATIONS = frozenset({"$schema", "$id", "title", "description", "default", "examples"})
_SUPPORTED = frozenset(
    {
        "type",
        "enum",
        "const",
        "required",
        "properties",
        "additionalProperties",
        "items",
        "minItems",
        "minLength",
        "minimum",
        "allOf",
        "if",
        "then",
        "else",
    }
)
_TYPES: dict[str, tuple[type, ...]] = {
    "object": (dict,),
    "array": (list,),
    "string": (str,),
    "boolean": (bool,),
    "null": (type(None),),
    "number": (int, float),
    "integer": (int,),
}


@cache
def _shipped(name: str) -> str:
    return resources.files(__package__).joinpath(f"{name}.schema.json").read_text("utf-8")


def load(schema: str, base: Path | None = None) -> dict[str, Any]:
    """A shipped schema by name, else the schema file at `schema` (relative to `base`)."""
    if schema in SHIPPED:
        value = json.loads(_shipped(schema))
    else:
        path = Path(schema)
        if not path.is_absolute() and base is not None:
            path = base / path
        value = json.loads(path.read_text(encoding="utf-8"))
    if not isinstance(value, dict):
        raise ValueError("a schema must be a JSON object")
    return value


def _is(value: Any, kind: str) -> bool:
    if kind in ("integer", "number") and isinstance(value, bool):
        return False
    if kind == "integer" and isinstance(value, float):
        return value.is_integer()
    return isinstance(value, _TYPES.get(kind, ()))


def _check(value: Any, schema: dict[str, Any], where: str, errors: list[str]) -> None:
    for key in schema:
        if key not in _SUPPORTED and key not in _ANNOTATIONS:
            errors.append(f"{where}: schema keyword {key!r} is not supported by this validator")
    kinds = schema.get("type")
    if kinds is not None:
        allowed = [kinds] if isinstance(kinds, str) else list(kinds)
        if not any(_is(value, k) for k in allowed):
            errors.append(f"{where}: expected {' or '.join(allowed)}, got {type(value).__name__}")
            return
    if "enum" in schema and value not in schema["enum"]:
        errors.append(f"{where}: {value!r} is not one of {schema['enum']!r}")
    if "const" in schema and value != schema["const"]:
        errors.append(f"{where}: {value!r} is not {schema['const']!r}")
    if isinstance(value, str) and len(value) < schema.get("minLength", 0):
        errors.append(f"{where}: must not be empty" if value == "" else f"{where}: too short")
    number = isinstance(value, int | float) and not isinstance(value, bool)
    if number and "minimum" in schema and value < schema["minimum"]:
        errors.append(f"{where}: {value} is below the minimum {schema['minimum']}")
    if isinstance(value, list):
        if len(value) < schema.get("minItems", 0):
            errors.append(f"{where}: needs at least {schema['minItems']} item(s)")
        if isinstance(schema.get("items"), dict):
            for index, item in enumerate(value):
                _check(item, schema["items"], f"{where}[{index}]", errors)
    if isinstance(value, dict):
        for name in schema.get("required", []):
            if name not in value:
                errors.append(f"{where}: missing required field {name!r}")
        properties: dict[str, Any] = schema.get("properties", {})
        for name, item in value.items():
            if name in properties:
                _check(item, properties[name], f"{where}.{name}", errors)
            elif schema.get("additionalProperties") is False:
                errors.append(f"{where}: unexpected field {name!r}")
    for part in schema.get("allOf", []):
        _check(value, part, where, errors)
    if "if" in schema:
        probe: list[str] = []
        _check(value, schema["if"], where, probe)
        branch = schema.get("then") if not probe else schema.get("else")
        if isinstance(branch, dict):
            _check(value, branch, where, errors)


def validate(data: Any, schema: dict[str, Any]) -> list[str]:
    """Every way `data` breaks `schema` (see the module docstring); [] when valid."""
    errors: list[str] = []
    _check(data, schema, "$", errors)
    return errors
