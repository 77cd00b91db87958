"""Read one YAML file into plain data plus the position of every node.

PyYAML's safe loader accepts duplicate keys silently and expands aliases without limit;
neither is acceptable for files written by hand and shared between players. This
reader composes the node graph with the safe composer and builds the data itself:

* duplicate keys, merge keys and non-standard tags are errors;
* keys are kept as written (``9: 9`` gives the key ``"9"``), so card-value tables read
  naturally;
* the file size, the nesting depth and the number of nodes built (which bounds alias
  expansion, the "billion laughs") are capped, so a hostile file is rejected quickly and
  in bounded memory;
* every value's and every key's line and column are recorded by JSON path;
* only regular files are opened (a FIFO or a device would block or never end), an
  integer must fit in 64 bits (Python refuses to print one of 4,300 digits, and no
  implementation the rules are written for could hold it), and a number is finite (NaN
  and infinity are no count of points or lives).
"""

from __future__ import annotations

import math
import os
import re
import stat
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from schwimmen.spec.errors import JsonPath, SpecError, format_path

if TYPE_CHECKING:
    import yaml

# PyYAML is imported where a file is read, not with this module: a Document from the
# catalog's cache (schwimmen.spec.cache) needs only its data and positions.

MAX_BYTES = 256 * 1024
MAX_NODES = 20_000
MAX_DEPTH = 48
MAX_INT = 2**64
TOO_LARGE = "number too large (more than 64 bits)"

_SCALAR_TAGS = {
    "tag:yaml.org,2002:str",
    "tag:yaml.org,2002:int",
    "tag:yaml.org,2002:float",
    "tag:yaml.org,2002:bool",
    "tag:yaml.org,2002:null",
}


@dataclass
class Document:
    """A file's data and where each part of it stands in the file."""

    file: str
    data: Any
    positions: dict[JsonPath, tuple[int, int]] = field(default_factory=dict)
    key_positions: dict[JsonPath, tuple[int, int]] = field(default_factory=dict)
    containers: set[JsonPath] = field(default_factory=set)

    def locate(self, path: JsonPath, *, key: bool = False) -> tuple[int, int]:
        """The 1-based line and column of ``path``, or of its nearest located ancestor.

        A mapping or list is placed at its key (``knocker_lowest:``), a scalar at its value.
        """
        probe = tuple(path)
        if probe in self.containers and probe in self.key_positions:
            key = True
        table = self.key_positions if key else self.positions
        while probe:
            if probe in table:
                return table[probe]
            if not key and probe in self.key_positions:
                return self.key_positions[probe]
            probe = probe[:-1]
        return self.positions.get((), (1, 1))

    def error(self, path: JsonPath, message: str, *, key: bool = False) -> SpecError:
        line, col = self.locate(path, key=key)
        return SpecError(self.file, line, col, format_path(path), message)


class YamlError(Exception):
    def __init__(self, error: SpecError) -> None:
        super().__init__(str(error))
        self.error = error


class _Builder:
    def __init__(self, doc: Document) -> None:
        self.doc = doc
        self.count = 0
        import yaml

        self.scalars = yaml.constructor.SafeConstructor()
        self.scalar, self.sequence, self.mapping = (
            yaml.ScalarNode,
            yaml.SequenceNode,
            yaml.MappingNode,
        )

    def fail(self, node: yaml.Node, path: JsonPath, message: str) -> YamlError:
        mark = node.start_mark
        return YamlError(
            SpecError(self.doc.file, mark.line + 1, mark.column + 1, format_path(path), message)
        )

    def build(self, node: yaml.Node, path: JsonPath, depth: int) -> Any:
        self.count += 1
        if self.count > MAX_NODES:
            raise self.fail(
                node,
                path,
                f"the document expands to more than {MAX_NODES} nodes "
                "(an alias bomb or a far too large file); rejected",
            )
        if depth > MAX_DEPTH:
            raise self.fail(node, path, f"nesting deeper than {MAX_DEPTH} levels; rejected")
        self.doc.positions.setdefault(path, (node.start_mark.line + 1, node.start_mark.column + 1))
        if isinstance(node, self.scalar):
            if node.tag not in _SCALAR_TAGS:
                raise self.fail(node, path, f"unsupported YAML tag {node.tag!r}")
            try:
                value = self.scalars.construct_object(node)
            except ValueError:  # a decimal integer past Python's digit limit
                raise self.fail(node, path, TOO_LARGE) from None
            if isinstance(value, float) and value != value:
                raise self.fail(node, path, "NaN is not a value")
            if isinstance(value, float) and value in (math.inf, -math.inf):
                raise self.fail(node, path, "infinity is not a value")
            if isinstance(value, int) and not -MAX_INT < value < MAX_INT:
                raise self.fail(node, path, TOO_LARGE)
            return value
        if isinstance(node, self.sequence | self.mapping):
            self.doc.containers.add(path)
        if isinstance(node, self.sequence):
            if node.tag != "tag:yaml.org,2002:seq":
                raise self.fail(node, path, f"unsupported YAML tag {node.tag!r}")
            return [self.build(item, (*path, i), depth + 1) for i, item in enumerate(node.value)]
        if isinstance(node, self.mapping):
            if node.tag != "tag:yaml.org,2002:map":
                raise self.fail(node, path, f"unsupported YAML tag {node.tag!r}")
            out: dict[str, Any] = {}
            first_seen: dict[str, int] = {}
            for key_node, value_node in node.value:
                if key_node.tag == "tag:yaml.org,2002:merge":
                    raise self.fail(key_node, path, "merge keys ('<<') are not supported")
                if not isinstance(key_node, self.scalar):
                    raise self.fail(key_node, path, "a key must be a plain scalar")
                key = str(key_node.value)
                key_path = (*path, key)
                if key in out:
                    raise self.fail(
                        key_node,
                        key_path,
                        f"duplicate key {key!r} (first at line {first_seen[key]})",
                    )
                first_seen[key] = key_node.start_mark.line + 1
                self.doc.key_positions[key_path] = (
                    key_node.start_mark.line + 1,
                    key_node.start_mark.column + 1,
                )
                out[key] = self.build(value_node, key_path, depth + 1)
            return out
        raise self.fail(node, path, "unsupported YAML node")


def read_text(file: str, text: str) -> Document:
    """Parse ``text`` (the contents of ``file``) or raise :class:`YamlError`."""
    import yaml

    doc = Document(file=file, data=None)
    if len(text.encode("utf-8", "surrogatepass")) > MAX_BYTES:
        raise YamlError(SpecError(file, 1, 1, "$", f"file larger than {MAX_BYTES} bytes; rejected"))
    try:
        loader: type[Any] = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
        nodes = list(yaml.compose_all(text, Loader=loader))
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line, col = (mark.line + 1, mark.column + 1) if mark else (1, 1)
        problem = exc.problem or "invalid YAML"
        if "tab character" in problem or _char_at(text, line, col) == "\t":
            problem = "a tab character: YAML indents with spaces only"
        raise YamlError(SpecError(file, line, col, "$", f"YAML syntax: {problem}")) from None
    except yaml.YAMLError as exc:
        raise YamlError(SpecError(file, 1, 1, "$", f"YAML syntax: {exc}")) from None
    except RecursionError:
        raise YamlError(SpecError(file, 1, 1, "$", "nesting far too deep; rejected")) from None
    if not nodes:
        raise YamlError(SpecError(file, 1, 1, "$", "the file is empty"))
    if len(nodes) > 1:
        mark = nodes[1].start_mark
        raise YamlError(
            SpecError(file, mark.line + 1, mark.column + 1, "$", "one YAML document per file")
        )
    doc.data = _Builder(doc).build(nodes[0], (), 0)
    return doc


# The line breaks PyYAML counts when it numbers lines.
_LINE_BREAK = re.compile("\r\n|[\n\r\x85\u2028\u2029]")


def _char_at(text: str, line: int, col: int) -> str:
    """The character at 1-based ``line`` and ``col`` of ``text``, or ``""``."""
    lines = _LINE_BREAK.split(text)
    if not 0 < line <= len(lines) or not 0 < col <= len(lines[line - 1]):
        return ""
    return lines[line - 1][col - 1]


def _open_regular(path: Path) -> int:
    """Open ``path`` for reading if it is a regular file; raise :class:`OSError` otherwise.

    A FIFO, a device or a socket is refused before it is opened (opening a FIFO blocks
    until a writer comes, reading ``/dev/zero`` never ends). The file is opened without
    blocking and checked again, in case it was replaced between the two looks.
    """
    if not stat.S_ISREG(path.stat().st_mode):
        raise OSError(0, "not a regular file")
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        raise OSError(0, "not a regular file")
    return fd


def read_file(path: Path, shown_as: str | None = None) -> Document:
    """Read and parse a regular file, refusing to read more than :data:`MAX_BYTES` of it."""
    name = shown_as or str(path)
    try:
        with os.fdopen(_open_regular(path), "rb") as handle:
            raw = handle.read(MAX_BYTES + 1)
    except OSError as exc:
        raise YamlError(SpecError(name, 1, 1, "$", f"cannot read: {exc.strerror}")) from None
    if len(raw) > MAX_BYTES:
        raise YamlError(SpecError(name, 1, 1, "$", f"file larger than {MAX_BYTES} bytes; rejected"))
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise YamlError(SpecError(name, 1, 1, "$", f"not UTF-8 text (byte {exc.start})")) from None
    return read_text(name, text)
