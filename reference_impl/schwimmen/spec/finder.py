"""The variant finder: a few questions that lead a table to the nearest ruleset.

The questions live in ``docs/data/finder.yaml`` (schema ``schemas/finder.schema.json``):
each answer names rule parameters and their values, so nothing here knows a ruleset or a
rule. At build time :func:`export` puts the questions, the widget's words, every
ruleset's values of the parameters the questions ask about and the entries of the
contradiction table (``spec/contradictions.yaml``) that answers could make into one JSON
document that the page's script (``docs/javascripts/finder.js``) reads: the page never
offers a house rule the loader refuses, and warns where the loader warns.

The functions below the export (:func:`ranking`, :func:`differences`,
:func:`house_rule_yaml`, ...) are the finder's logic over that document, the same as the
script's: the build uses them to say which rulesets the questions cannot tell apart, and
the tests use them to check every ruleset can be reached and every house rule the page
can offer is one ``schwimmen validate`` accepts, and that the script answers alike.
``schwimmen validate`` checks the questions with the catalog (:func:`load_finder`); the
site's page puts the export on the page (:mod:`schwimmen.docsgen.finderpage`).
"""

from __future__ import annotations

import json
import posixpath
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from schwimmen.spec import termination
from schwimmen.spec.errors import JsonPath, SpecError, SpecErrors
from schwimmen.spec.model import Ruleset, thaw
from schwimmen.spec.parameters import BY_PATH, PARAMETERS
from schwimmen.spec.validation import read_checked, value_errors

SCHEMA = "finder.schema.json"
# The hand-written page and where it finds its questions (relative to docs/).
PAGE = "tools/finder.md"
DATA = "data/finder.yaml"
LANGUAGES = ("en", "de")
# The words the widget, the house rule file and the generated part of the page use.
WORDS = (
    "no-script",
    "skip",
    "clear",
    "result",
    "start",
    "agrees",
    "tied",
    "ranking",
    "page",
    "same",
    "differences",
    "yours",
    "theirs",
    "other-rule",
    "not-applicable",
    "game-note",
    "dropped-note",
    "house-rule",
    "house-rule-help",
    "download",
    "file-id",
    "file-comment",
    "file-title",
    "file-summary",
    "file-why",
    "all-apart",
    "together",
    "differ-in",
    "refused",
    "suspected",
)
_PLACEHOLDER = re.compile(r"\{([a-z]+)\}")

Text = Mapping[str, str]
Data = Mapping[str, Any]
# What a table answered: question id -> answer id (unanswered questions are left out).
Answers = Mapping[str, str]


@dataclass(frozen=True)
class Answer:
    id: str
    text: Text
    values: Mapping[str, Any]


@dataclass(frozen=True)
class Question:
    id: str
    text: Text
    answers: tuple[Answer, ...]
    decides_game: bool = False
    help: Text | None = None


@dataclass(frozen=True)
class Finder:
    """The questions and the widget's words, as read and checked from the data file."""

    words: Mapping[str, Text]
    questions: tuple[Question, ...]

    def word(self, name: str, language: str, **fill: str) -> str:
        return fill_in(pick(self.words[name], language), fill)


def pick(text: Text, language: str) -> str:
    """A text in ``language``, or in English where it has none."""
    return text.get(language) or text["en"]


def fill_in(template: str, fill: Mapping[str, str]) -> str:
    """``{name}`` in a word replaced by its value (the script does the same)."""
    return _PLACEHOLDER.sub(lambda m: fill.get(m.group(1), m.group(0)), template)


# ----------------------------------------------------------------------------- loading
def load_finder(path: Path, shown_as: str | None = None) -> Finder:
    """Read and check the finder's data file; raise :class:`SpecErrors` with every problem
    (file, line, what is wrong)."""
    doc = read_checked(path, SCHEMA, shown_as)
    data = doc.data
    errors = _check_words(doc.error, data["words"])
    owner: dict[str, str] = {}
    question_ids: set[str] = set()
    for qi, raw in enumerate(data["questions"]):
        at: JsonPath = ("questions", qi)
        if raw["id"] in question_ids:
            errors.append(doc.error((*at, "id"), f"question id {raw['id']!r} is used twice"))
        question_ids.add(raw["id"])
        errors += _check_text(doc.error, (*at, "text"), raw["text"])
        if "help" in raw:
            errors += _check_text(doc.error, (*at, "help"), raw["help"])
        answer_ids: set[str] = set()
        for ai, answer in enumerate(raw["answers"]):
            where: JsonPath = (*at, "answers", ai)
            if answer["id"] in answer_ids:
                errors.append(
                    doc.error((*where, "id"), f"answer id {answer['id']!r} is used twice")
                )
            answer_ids.add(answer["id"])
            errors += _check_text(doc.error, (*where, "text"), answer["text"])
            for param, value in answer["values"].items():
                spot: JsonPath = (*where, "values", param)
                known = BY_PATH.get(param)
                if known is None:
                    errors.append(doc.error(spot, f"unknown rule parameter {param!r}", key=True))
                    continue
                errors += value_errors(doc, spot, value, known.schema, "ruleset.schema.json")
                first = owner.setdefault(param, raw["id"])
                if first != raw["id"]:
                    errors.append(
                        doc.error(
                            spot,
                            f"{param} is asked already by question {first!r}: each parameter "
                            "belongs to one question, so the house rule never sets it twice",
                            key=True,
                        )
                    )
        errors += _check_exclusive(doc.error, at, raw["answers"])
    if errors:
        raise SpecErrors(errors)
    return Finder(
        words={name: dict(text) for name, text in data["words"].items()},
        questions=tuple(
            Question(
                id=raw["id"],
                text=dict(raw["text"]),
                help=dict(raw["help"]) if "help" in raw else None,
                decides_game=bool(raw.get("decides_game", False)),
                answers=tuple(
                    Answer(a["id"], dict(a["text"]), dict(a["values"])) for a in raw["answers"]
                ),
            )
            for raw in data["questions"]
        ),
    )


_Error = Callable[[JsonPath, str], SpecError]


def _check_words(error: _Error, words: Mapping[str, Text]) -> list[SpecError]:
    out = [error(("words",), f"missing word {name!r}") for name in WORDS if name not in words]
    for name, text in words.items():
        if name not in WORDS:
            out.append(error(("words", name), f"word {name!r} is used nowhere"))
        out += _check_text(error, ("words", name), text)
    return out


def _check_text(error: _Error, at: JsonPath, text: Text) -> list[SpecError]:
    """Both languages must leave the same gaps for the page to fill."""
    gaps = {lang: sorted(set(_PLACEHOLDER.findall(text[lang]))) for lang in LANGUAGES}
    if gaps["en"] != gaps["de"]:
        return [
            error(
                (*at, "de"),
                f"the German words have the gaps {gaps['de']}, the English ones {gaps['en']}",
            )
        ]
    return []


def _check_exclusive(
    error: _Error, at: JsonPath, answers: Sequence[Mapping[str, Any]]
) -> list[SpecError]:
    """No ruleset may agree with two answers of one question: some parameter they both
    name must have different values."""
    out = []
    for i, a in enumerate(answers):
        for j in range(i):
            b = answers[j]
            shared = set(a["values"]) & set(b["values"])
            if not any(a["values"][p] != b["values"][p] for p in shared):
                out.append(
                    error(
                        (*at, "answers", i, "values"),
                        f"answers {b['id']!r} and {a['id']!r} do not exclude each other: "
                        "give them a parameter with different values",
                    )
                )
    return out


# ----------------------------------------------------------------------------- export
def page_url(target: str, page: str = PAGE) -> str:
    """The link from ``page`` to the page of ``target`` (both docs-relative ``.md`` paths),
    as MkDocs serves them (directory URLs)."""

    def folder(path: str) -> str:
        stem = path.removesuffix(".md")
        if posixpath.basename(stem) == "index":
            stem = posixpath.dirname(stem)
        return stem or "."

    return posixpath.relpath(folder(target), folder(page)) + "/"


def asked_parameters(finder: Finder) -> list[str]:
    """The parameters the answers name and the ones deciding whether those apply, in the
    registry's order (the order of a ruleset file)."""
    wanted = {p for q in finder.questions for a in q.answers for p in a.values}
    todo = list(wanted)
    while todo:
        for cond in BY_PATH[todo.pop()].applies_when:
            if cond.param not in wanted:
                wanted.add(cond.param)
                todo.append(cond.param)
    return [p.path for p in PARAMETERS if p.path in wanted]


def export(
    finder: Finder,
    rulesets: Mapping[str, Ruleset],
    titles: Mapping[str, Mapping[str, str]] | None = None,
) -> dict[str, Any]:
    """Everything the page's script needs, as JSON data. ``titles`` gives each ruleset's
    name by language (its own ``de:`` title for German pages); a ruleset it does not
    name is called by its English title."""
    params = asked_parameters(finder)
    names = titles or {}
    return {
        "words": {name: dict(text) for name, text in finder.words.items()},
        "order": params,
        "conditions": {
            p: [
                {"param": c.param, "values": [thaw(v) for v in c.values], "negate": c.negate}
                for c in BY_PATH[p].applies_when
            ]
            for p in params
            if BY_PATH[p].applies_when
        },
        "questions": [
            {
                "id": q.id,
                "text": dict(q.text),
                **({"help": dict(q.help)} if q.help else {}),
                "decides_game": q.decides_game,
                "answers": [
                    {"id": a.id, "text": dict(a.text), "values": dict(a.values)} for a in q.answers
                ],
            }
            for q in finder.questions
        ],
        **clash_entries(rulesets, params),
        "rulesets": [
            {
                "id": rid,
                "title": dict(names.get(rid) or {"en": ruleset.title}),
                "url": page_url(f"rulesets/{rid}.md"),
                "values": {
                    p: thaw(ruleset.settings[p].value) if p in ruleset.settings else None
                    for p in params
                },
            }
            for rid, ruleset in rulesets.items()
        ],
    }


def clash_entries(rulesets: Mapping[str, Ruleset], params: Sequence[str]) -> dict[str, Any]:
    """The contradiction table's refused (``refused``) and suspected (``suspected``)
    changes that a house rule of the finder could make on one of ``rulesets``: those whose
    changed parameters the questions all ask about. ``with`` keeps the base's parameters
    that take part only where a question asks about them (the others the house rule
    never changes, so they always keep the base's value)."""
    asked = set(params)
    out: dict[str, list[dict[str, Any]]] = {"refused": [], "suspected": []}
    tables: tuple[tuple[str, Sequence[termination.Clash]], ...] = (
        ("refused", termination.findings()),
        ("suspected", termination.suspects()),
    )
    for kind, entries in tables:
        for entry in entries:
            if entry.base not in rulesets or not all(p in asked for p, _ in entry.changes):
                continue
            out[kind].append(
                {
                    "base": entry.base,
                    "set": {p: v for p, v in entry.changes},
                    "with": [p for p in entry.partners if p in asked],
                }
            )
    return out


def script_json(data: Data) -> str:
    """The export as one line that is safe inside a ``<script>`` element."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    return text.replace("&", "\\u0026").replace("<", "\\u003c").replace(">", "\\u003e")


# ----------------------------------------------------------------------------- the logic
def _answer(question: Data, answer_id: str | None) -> Data | None:
    return next((a for a in question["answers"] if a["id"] == answer_id), None)


def agrees(values: Data, answer: Data) -> bool:
    """The ruleset with these values has every value the answer names."""
    return all(values.get(p) == v for p, v in answer["values"].items())


def matching_answer(question: Data, values: Data) -> Data | None:
    """The answer a ruleset with these values would give (answers exclude each other)."""
    return next((a for a in question["answers"] if agrees(values, a)), None)


def arises(question: Data, values: Data) -> bool:
    """Some parameter the question asks about applies to the ruleset."""
    return any(values.get(p) is not None for a in question["answers"] for p in a["values"])


def _chosen(data: Data, answers: Answers, questions: Sequence[Data]) -> list[tuple[Data, Data]]:
    out = []
    for q in questions:
        a = _answer(q, answers.get(q["id"]))
        if a is not None:
            out.append((q, a))
    return out


def _game_scores(data: Data, answers: Answers) -> list[int]:
    game = _chosen(data, answers, [q for q in data["questions"] if q["decides_game"]])
    return [sum(agrees(r["values"], a) for _, a in game) for r in data["rulesets"]]


def shown_questions(data: Data, answers: Answers) -> list[Data]:
    """The questions worth asking: those deciding the game, and the others wherever the
    question arises in a ruleset that agrees best on the game (no passing in Scat)."""
    scores = _game_scores(data, answers)
    best = max(scores)
    candidates = [r for r, s in zip(data["rulesets"], scores, strict=True) if s == best]
    return [
        q
        for q in data["questions"]
        if q["decides_game"] or any(arises(q, r["values"]) for r in candidates)
    ]


@dataclass(frozen=True)
class Rank:
    """How well one ruleset agrees: answers on the game first, then the rest."""

    id: str
    game: int
    other: int

    @property
    def agreed(self) -> int:
        return self.game + self.other


def counted(data: Data, answers: Answers) -> list[tuple[Data, Data]]:
    """The (question, answer) pairs that count: answered questions that are shown."""
    return _chosen(data, answers, shown_questions(data, answers))


def ranking(data: Data, answers: Answers) -> list[Rank]:
    """Every ruleset, the nearest first; equally near ones keep the catalog's order."""
    pairs = counted(data, answers)
    ranks = [
        Rank(
            r["id"],
            sum(agrees(r["values"], a) for q, a in pairs if q["decides_game"]),
            sum(agrees(r["values"], a) for q, a in pairs if not q["decides_game"]),
        )
        for r in data["rulesets"]
    ]
    return sorted(ranks, key=lambda k: (-k.game, -k.other))


def nearest(data: Data, answers: Answers) -> list[str]:
    """The rulesets that agree best (several when tied)."""
    ranks = ranking(data, answers)
    top = (ranks[0].game, ranks[0].other)
    return [k.id for k in ranks if (k.game, k.other) == top]


def ruleset_entry(data: Data, rid: str) -> Data:
    """The exported entry of ruleset ``rid`` (its title, page and values)."""
    found: Data = next(r for r in data["rulesets"] if r["id"] == rid)
    return found


def _applies(data: Data, param: str, values: Data) -> bool:
    for cond in data["conditions"].get(param, ()):
        value = values.get(cond["param"])
        if value is None or (value in cond["values"]) == cond["negate"]:
            return False
    return True


@dataclass(frozen=True)
class Change:
    """One value the house rule sets, and the question and answer it comes from."""

    param: str
    value: Any
    question: str
    answer: str


def house_rule_changes(data: Data, rid: str, answers: Answers) -> tuple[list[Change], set[str]]:
    """The values a house rule on ``rid`` must set to play as answered, in file order, and
    the questions whose answer cannot be written on ``rid`` (its parameters do not apply
    there). Answers deciding the game are never written."""
    base = ruleset_entry(data, rid)["values"]
    changes: dict[str, Change] = {}
    for q, a in counted(data, answers):
        if q["decides_game"] or agrees(base, a):
            continue
        for param, value in a["values"].items():
            if base.get(param) != value:
                changes[param] = Change(param, value, q["id"], a["id"])
    dropped: set[str] = set()
    while True:
        merged = {**base, **{p: c.value for p, c in changes.items()}}
        out = [p for p in changes if not _applies(data, p, merged)]
        if not out:
            break
        for p in out:
            dropped.add(changes.pop(p).question)
    order = {p: i for i, p in enumerate(data["order"])}
    return sorted(changes.values(), key=lambda c: order[c.param]), dropped


@dataclass(frozen=True)
class Clash:
    """Answers whose house rule on a ruleset the contradiction table refuses
    (``kind`` "refused") or warns about ("suspected"), and the questions that make it."""

    kind: str
    questions: tuple[str, ...]


CLASH_KINDS = ("refused", "suspected")


def clash(data: Data, rid: str, answers: Answers) -> Clash | None:
    """The entry of the contradiction table the house rule on ``rid`` would make, if any
    (a refusal before a suspicion): every value it sets is set, and none of the base's
    parameters it names alongside is changed."""
    changes, _ = house_rule_changes(data, rid, answers)
    values = {c.param: c for c in changes}
    for kind in CLASH_KINDS:
        for entry in data.get(kind, ()):
            if entry["base"] != rid or any(p in values for p in entry["with"]):
                continue
            made = [values[p] for p in entry["set"] if p in values]
            if len(made) == len(entry["set"]) and all(
                c.value == entry["set"][c.param] for c in made
            ):
                asked = {c.question for c in made}
                ids = tuple(q["id"] for q in data["questions"] if q["id"] in asked)
                return Clash(kind, ids)
    return None


def clash_text(data: Data, rid: str, found: Clash, language: str) -> str:
    """What the page says of a clash: the questions by their text, the ruleset by name."""
    questions = {q["id"]: q for q in data["questions"]}
    asked = " ".join(pick(questions[q]["text"], language) for q in found.questions)
    title = pick(ruleset_entry(data, rid)["title"], language)
    return word(data, found.kind, language, questions=asked, ruleset=title)


@dataclass(frozen=True)
class Difference:
    """An answered question where a ruleset plays otherwise: its own answer (None when no
    answer fits it or the question does not arise there) and how the house rule treats it."""

    question: str
    answer: str
    theirs: str | None
    arises: bool
    note: str | None  # "game-note", "dropped-note" or None (the house rule carries it)


def differences(data: Data, rid: str, answers: Answers) -> list[Difference]:
    values = ruleset_entry(data, rid)["values"]
    _, dropped = house_rule_changes(data, rid, answers)
    out = []
    for q, a in counted(data, answers):
        if agrees(values, a):
            continue
        theirs = matching_answer(q, values)
        note = "game-note" if q["decides_game"] else "dropped-note" if q["id"] in dropped else None
        out.append(
            Difference(q["id"], a["id"], theirs["id"] if theirs else None, arises(q, values), note)
        )
    return out


def yaml_value(value: Any) -> str:
    """A value in YAML's flow style (which is also JSON with spaces)."""
    if isinstance(value, list):
        return "[" + ", ".join(yaml_value(v) for v in value) + "]"
    if isinstance(value, dict):
        return (
            "{"
            + ", ".join(
                f"{json.dumps(k, ensure_ascii=False)}: {yaml_value(v)}" for k, v in value.items()
            )
            + "}"
        )
    return json.dumps(value, ensure_ascii=False)


def file_name(data: Data, language: str) -> str:
    return word(data, "file-id", language) + ".yaml"


def word(data: Data, name: str, language: str, **fill: str) -> str:
    """One of the widget's words from the export, in ``language``, its gaps filled."""
    return fill_in(pick(data["words"][name], language), fill)


def house_rule_yaml(data: Data, rid: str, answers: Answers, language: str) -> str | None:
    """The house rule on ``rid`` that plays as answered, as the page offers it; None when
    there is nothing to write, or when the contradiction table refuses it (the page says
    why instead, :func:`clash_text`)."""
    changes, _ = house_rule_changes(data, rid, answers)
    if not changes:
        return None
    found = clash(data, rid, answers)
    if found is not None and found.kind == "refused":
        return None
    title = pick(ruleset_entry(data, rid)["title"], language)
    questions = {q["id"]: q for q in data["questions"]}
    name = file_name(data, language)
    lines = [
        "# " + word(data, "file-comment", language, file=name),
        "id: " + word(data, "file-id", language),
        "kind: house-rule",
        "title: " + yaml_value(word(data, "file-title", language)),
        "summary: " + yaml_value(word(data, "file-summary", language, ruleset=title)),
        "origin: " + rid,
        "rules:",
    ]
    group = None
    for change in changes:
        head, param = change.param.split(".", 1)
        if head != group:
            lines.append(f"  {head}:")
            group = head
        q = questions[change.question]
        a = _answer(q, change.answer)
        assert a is not None
        why = word(
            data,
            "file-why",
            language,
            question=pick(q["text"], language),
            answer=pick(a["text"], language),
        )
        lines += [
            f"    {param}:",
            f"      value: {yaml_value(change.value)}",
            "      default:",
            f"        why: {yaml_value(why)}",
        ]
    return "\n".join(lines) + "\n"


def own_answers(data: Data, rid: str) -> dict[str, str]:
    """The answers a table playing ``rid`` would give (where one fits)."""
    values = ruleset_entry(data, rid)["values"]
    out = {}
    for q in data["questions"]:
        a = matching_answer(q, values)
        if a is not None:
            out[q["id"]] = a["id"]
    return out


def inseparable(data: Data) -> list[list[str]]:
    """Groups of rulesets that give the same answer to every question, so no answers can
    lead to one of them alone."""
    groups: dict[str, list[str]] = {}
    for r in data["rulesets"]:
        key = json.dumps(own_answers(data, r["id"]), sort_keys=True)
        groups.setdefault(key, []).append(r["id"])
    return [g for g in groups.values() if len(g) > 1]
