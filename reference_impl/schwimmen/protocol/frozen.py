"""A quicker way in for frozen dataclasses with slots, still frozen from outside.

A frozen dataclass sets each field in ``__init__`` with ``object.__setattr__(self, name,
value)``, which looks the name up in the class again for every field: an event of three
fields takes about twice as long to make as a plain one. The engine makes a few dozen
events and records a decision, so :func:`quick_init` gives such a class an ``__init__``
that stores each field straight through its slot (the slot's own descriptor, found once,
when the class is made). Assigning a field afterwards still raises
``FrozenInstanceError``; equality, hashing, ``repr``, ``replace`` and pickling are the
dataclass's own.
"""

from __future__ import annotations

from dataclasses import MISSING, fields, is_dataclass
from typing import Any, TypeVar

T = TypeVar("T")


def quick_init(cls: type[T]) -> type[T]:
    """Replace the ``__init__`` of the frozen slotted dataclass ``cls`` by one that sets
    the slots directly; the signature (names, order, plain defaults) stays the same."""
    params = getattr(cls, "__dataclass_params__", None)
    if not is_dataclass(cls) or params is None or not params.frozen:
        raise TypeError(f"{cls.__name__} is not a frozen dataclass")
    if not hasattr(cls, "__slots__") or hasattr(cls, "__post_init__"):
        raise TypeError(f"{cls.__name__} needs slots and no __post_init__")
    names: list[str] = []
    scope: dict[str, Any] = {}
    for f in fields(cls):
        if not f.init or f.default_factory is not MISSING:
            raise TypeError(f"{cls.__name__}.{f.name}: only plain fields are supported")
        if f.default is not MISSING:
            scope[f"_d_{f.name}"] = f.default
            names.append(f"{f.name}=_d_{f.name}")
        else:
            names.append(f.name)
        scope[f"_s_{f.name}"] = getattr(cls, f.name).__set__
    body = "".join(f"    _s_{f.name}(self, {f.name})\n" for f in fields(cls)) or "    pass\n"
    source = f"def __init__(self, {', '.join(names)}):\n{body}"
    exec(source, scope)  # the same technique dataclasses uses to write __init__
    init = scope["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    init.__doc__ = cls.__init__.__doc__
    setattr(cls, "__init__", init)  # noqa: B010 (mypy refuses assigning a method)
    return cls
