"""The guide "Test your implementation": the protocol in brief, running the harness,
reading a report, coverage, writing an adapter, the pytest plugin.

What the guide shows is produced while the site builds, from the things it describes:
the options come from the CLI's own parser (an option the CLI lacks is never
documented), the request and the answer are a real fixture's request and the reference
engine's answer, the report is the harness's own pretty report of a few real cases
(one answered wrongly on purpose), the coverage figures come from the coverage module,
and the adapter's code is the example file itself.
"""

from __future__ import annotations

import argparse
import io
import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from rich.console import Console

from schwimmen.conformance.fixtures import Case, Fixture
from schwimmen.conformance.harness import SuiteResult
from schwimmen.conformance.report import print_pretty
from schwimmen.conformance.runner import CaseResult, judge
from schwimmen.docsgen.context import Site
from schwimmen.docsgen.markup import (
    ADAPTER_EXAMPLE,
    CLI_REFERENCE,
    CONFORMANCE_DOCS,
    DISAGREEMENTS,
    FIXTURES_INDEX,
    GUIDE_TEST,
    SCHEMA_REFERENCE,
    admonition,
    code,
    conformance_doc,
    esc,
    fixture_page,
    link,
    rel,
    table,
)
from schwimmen.docsgen.reference import option_help, subcommand
from schwimmen.docsgen.suite import Suite
from schwimmen.spec.model import Ruleset

Implementation = Callable[[Mapping[str, Any]], Mapping[str, Any]]

# More words for the options than ``--help`` has room for; only options the parser
# really has are listed (see :func:`options_table`).
OPTION_NOTES: Sequence[tuple[str, str]] = (
    (
        "--impl",
        "The command line of your adapter, run through the shell, e.g. "
        '`--impl "node adapter.mjs"` or `--impl "./target/release/my-engine --conformance"`. '
        "Without it, the reference engine runs in-process.",
    ),
    (
        "--ruleset",
        "Run only under these rulesets; repeat it for several. A house rule is written on its "
        "ruleset: `--ruleset pagat+no-triples`. By default: the ten rulesets and every house "
        "rule on the ruleset it comes from.",
    ),
    ("-k", "Only fixtures whose id or title contains the text, e.g. `-k feuer`."),
    ("--kind", "Only fixtures of this kind; repeat it for several: `--kind hand-evaluation`."),
    (
        "--format",
        "`pretty` (the terminal report), `json` (everything, for tools), `junit` (JUnit XML "
        "for a CI system, one test suite per ruleset), `markdown` (a report to publish). "
        "`--output FILE` writes it to a file.",
    ),
    (
        "--track",
        "Compare with the statuses stored in FILE by the last run, report only what changed "
        "(newly failing, fixed, new, removed), and store this run there.",
    ),
    (
        "-j",
        "Start this many copies of your adapter and send them cases in parallel; the results "
        "and the report are the same as with one.",
    ),
    (
        "--max-fail",
        "Stop asking after N failed or errored cases; the rest are reported as skipped.",
    ),
    (
        "--timeout",
        "Seconds to wait for each answer; a case that takes longer is errored and the process "
        "is restarted.",
    ),
    (
        "--validate-protocol",
        "Check every message your adapter writes against the protocol's JSON Schema; a "
        "violation errors the case and names it. Use it while writing the adapter.",
    ),
    ("--show-passed", "List the passed cases too, not only the failures."),
)


ANY_RULESET = code('"any_ruleset": true')
OK_ANSWER = code('{"seq": 17, "status": "ok", "outcome": {…}}')
STEP = code('{"P1": "swap 9S 10H"}')
SHOW_JSON = code("schwimmen show ID --format json")


@dataclass(frozen=True)
class Examples:
    """Real messages and a real report, made while the site builds."""

    ruleset: str
    request: Mapping[str, Any]
    answer: Mapping[str, Any]
    request_fixture: Fixture
    report: str
    failing_fixture: Fixture


def options_table(parser: argparse.ArgumentParser | None, here: str) -> str:
    """The options of ``schwimmen conformance``, as the parser has them, with more words."""
    if parser is None:
        return ""
    return options_rows(parser, OPTION_NOTES)


def options_rows(parser: argparse.ArgumentParser, notes: Sequence[tuple[str, str]]) -> str:
    """A table of the options the parser has, each with its note (markdown); an option
    the parser lacks is left out, so the guide never documents what the CLI cannot do."""
    helps = option_help(parser)
    rows = []
    for option, note in notes:
        if option in helps:
            shown, help_text = helps[option]
            text = note or esc(help_text[:1].upper() + help_text[1:]) + "."
            rows.append([f'<span class="opt">{code(shown)}</span>', text])
    return table(["option", "what it does"], rows)


# ----------------------------------------------------------------------------- examples


def _pick(
    suite: Suite, ruleset: str, kind: str, want: Callable[[Fixture, Case], bool] = lambda f, c: True
) -> tuple[Fixture, Case] | None:
    """The fixture of ``kind`` under ``ruleset`` that ``want`` accepts and that quotes the
    fewest sources (so that the example stays short); ties go to the first id."""
    found = [
        (len(case.because), fixture.id, fixture, case)
        for fixture, case in suite.applying_to(ruleset)
        if fixture.kind == kind and want(fixture, case)
    ]
    if not found:
        return None
    _, _, fixture, case = min(found, key=lambda x: (x[0], x[1]))
    return fixture, case


def make_examples(
    site: Site, suite: Suite, implementation: Implementation, ruleset_id: str
) -> Examples | None:
    """A request and its answer, and the pretty report of five real cases under ``ruleset_id``:
    three answered by ``implementation`` (the reference engine), one answered wrongly on
    purpose (the lives lost moved to another seat), one skipped and one errored."""
    if ruleset_id not in site.rulesets:
        return None
    rid = ruleset_id
    ruleset: Ruleset = site.rulesets[rid]
    small = _pick(
        suite,
        rid,
        "round",
        lambda f, c: 0 < len(f.setup.get("steps", ())) <= 2 and "end" in c.expect,
    )
    wrong = _pick(
        suite,
        rid,
        "showdown",
        lambda f, c: bool(c.because) and isinstance(c.expect.get("losses"), Mapping),
    )
    if small is None or wrong is None:
        return None
    request = small[0].request(ruleset)
    answer = implementation(request)

    results: list[CaseResult] = []
    passing = [p for p in suite.applying_to(rid) if p[0].kind == "hand-evaluation"][:2]
    for fixture, case in [small, *passing]:
        results.append(judge(fixture, case, ruleset, implementation(fixture.request(ruleset))))
    fixture, case = wrong
    real = dict(implementation(fixture.request(ruleset)))
    outcome = dict(real.get("outcome", {}))
    seats = [f"P{i}" for i in range(1, int(fixture.setup.get("seats", 2)) + 1)]
    expected: Mapping[str, Any] = case.expect["losses"]
    losers = [s for s in seats if expected.get(s)]
    others = [s for s in seats if s not in losers]
    if losers and others:
        outcome["losses"] = {others[0]: expected[losers[0]]}
    else:
        outcome["losses"] = {}
    results.append(judge(fixture, case, ruleset, {"status": "ok", "outcome": outcome}))
    skip = _pick(suite, rid, "match")
    if skip is not None:
        fixture_, case_ = skip
        results.append(
            judge(fixture_, case_, ruleset, {"status": "skipped", "reason": "no matches yet"})
        )
    err = _pick(suite, rid, "setup")
    if err is not None:
        fixture_, case_ = err
        results.append(
            judge(
                fixture_,
                case_,
                ruleset,
                {"status": "errored", "message": "cannot set up a table without a deal"},
            )
        )
    suite_result = SuiteResult(
        implementation={"name": "my-engine", "version": "0.1"},
        rulesets=[rid],
        results=results,
        seconds=0.05,
    )
    buffer = io.StringIO()
    console = Console(file=buffer, width=76, color_system=None, force_terminal=False)
    print_pretty(console, suite_result)
    return Examples(rid, request, answer, small[0], buffer.getvalue().rstrip(), wrong[0])


def _json_block(data: Any, title: str) -> str:
    text = json.dumps(data, indent=2, ensure_ascii=False)
    return f'??? example "{title}"\n\n    ```json\n' + _indent(text) + "\n    ```\n"


def _indent(block: str) -> str:
    return "\n".join("    " + line if line.strip() else "" for line in block.splitlines())


# ----------------------------------------------------------------------------- the page


def testing_guide_markdown(
    site: Site,
    suite: Suite | None,
    parser: argparse.ArgumentParser,
    adapter_code: str | None,
    examples: Examples | None,
) -> str:
    here = GUIDE_TEST
    conformance = subcommand(parser, "conformance")
    docs = {name: link(here, conformance_doc(name), code(name)) for name in CONFORMANCE_DOCS}
    fixtures = len(suite.fixtures) if suite else 0
    cases = suite.cases if suite else 0
    out = [
        "# Test your implementation",
        "",
        "You wrote a Schwimmen engine (or a bot, a game server, an app). The conformance "
        f"suite tells you whether it plays the rules exactly: {fixtures} "
        f"{link(here, FIXTURES_INDEX, 'fixtures')}, each a position, the moves played from it "
        "and the expected outcome under every ruleset it applies to, make "
        f"{cases} cases across the rulesets and house rules. Every case quotes the German "
        "source that decides it, or names the stated default it rests on, so a failure tells "
        "you not only that you differ but what the rule says.",
        "",
        "```sh",
        "pip install -e .                 # in a checkout of this repository",
        "schwimmen conformance            # the reference engine, in-process: all pass",
        'schwimmen conformance --impl "node my-adapter.mjs"',
        "```",
        "",
        "## 1. The protocol in brief {#protocol}",
        "",
        "The harness starts your program (the *adapter*) and talks to it over standard input "
        "and output: **one JSON object per line**, each request answered by exactly one line, "
        "in order. Write logs to standard error; the harness shows them beside the case.",
        "",
        table(
            ["the harness sends", "you answer"],
            [
                [
                    code('{"cmd": "start", "version": 1}'),
                    "your name and version, and the rulesets you implement "
                    f"({code('rulesets')}), or {ANY_RULESET} if your engine "
                    "reads its rules from the parameters",
                ],
                [
                    code('{"cmd": "run", "seq": 17, "case": {…}}'),
                    f"{OK_ANSWER}, or "
                    f"{code('skipped')} with a reason (your engine does not have this rule), "
                    f"or {code('errored')} with a message (it tried and could not)",
                ],
                [code('{"cmd": "stop"}'), "nothing: exit"],
            ],
        ),
        "",
        "A case carries its kind (hand-evaluation, showdown, round, match, setup), the "
        f"ruleset's id and **every rule parameter's value** (as {SHOW_JSON} "
        f"lists them; the {link(here, SCHEMA_REFERENCE, 'file format')} defines each), the "
        "seats and the dealer, the cards as dealt (or a stacked pack to deal), and the steps, "
        f"such as {STEP}. The outcome reports what the kind asks "
        "for: hand values, lives lost, each step accepted or refused with a stable reason "
        "code, the rounds that ended and the state after the last step.",
        "",
    ]
    if examples is not None:
        f = examples.request_fixture
        out += [
            f"For example, the fixture {link(here, fixture_page(f.id), code(f.id))} under "
            f"{code(str(examples.request['ruleset']['id']))}, and the reference engine's answer "
            "(both made while this page was built):",
            "",
            _json_block(
                {"cmd": "run", "seq": 1, "case": examples.request},
                f"The request: {f.title}",
            ),
            _json_block(
                {"seq": 1, **examples.answer},
                "The reference engine's answer",
            ),
        ]
    out += [
        f"The whole protocol, with every message and reason code: {docs['PROTOCOL.md']}; what "
        f"each field obliges your engine to do: {docs['INTERPRETING.md']}; the fixture "
        f"format: {docs['FIXTURES.md']}.",
        "",
        "## 2. Run the suite {#run}",
        "",
        "```sh",
        'schwimmen conformance --impl "COMMAND"',
        "```",
        "",
        "runs every fixture under every ruleset it applies to. Narrow it down while you work:",
        "",
        "```sh",
        'schwimmen conformance --impl "node adapter.mjs" --kind hand-evaluation',
        'schwimmen conformance --impl "node adapter.mjs" --ruleset pagat -k feuer',
        'schwimmen conformance --impl "node adapter.mjs" -j 4 --max-fail 20 --timeout 5',
        'schwimmen conformance --impl "node adapter.mjs" --format junit --output conformance.xml',
        "```",
        "",
        options_table(conformance, here),
        "",
        f"All options: {link(here, CLI_REFERENCE + '#conformance', code('schwimmen conformance'))}"
        " in the command-line reference.",
        "",
        "## 3. Read the report {#report}",
        "",
        "Every case ends in exactly one of four ways:",
        "",
        table(
            ["status", "means", "counts against you"],
            [
                [
                    '<span class="st st-passed">passed</span>',
                    "you answered, and every field the case states matches",
                    "no",
                ],
                [
                    '<span class="st st-failed">failed</span>',
                    "you answered, and something differs: the report shows the expected value "
                    "next to yours for each field, and the sources' words",
                    "yes",
                ],
                [
                    '<span class="st st-skipped">skipped</span>',
                    f"you answered {code('skipped')} (your engine does not have this rule), "
                    "the ruleset is not among those you implement, or "
                    f"{code('--max-fail')} stopped the run",
                    "no",
                ],
                [
                    '<span class="st st-errored">errored</span>',
                    f"you answered {code('errored')}, crashed, timed out, wrote something that "
                    "is not one JSON line, answered out of sequence or broke the schema",
                    "yes",
                ],
            ],
        ),
        "",
        "Matching is partial: only what a case states is checked (a case about who loses "
        "does not look at your hand values), but within it, exact. The exit status is 1 when "
        f"any case failed or errored, so {code('schwimmen conformance')} can gate a CI job.",
        "",
    ]
    if examples is not None:
        f = examples.failing_fixture
        out += [
            "This is the pretty report of a made-up engine on a few real cases under "
            f"{code(examples.ruleset)}: the answer for "
            f"{link(here, fixture_page(f.id), code(f.id))} "
            "was changed on purpose so that the wrong seat loses (the harness and the cases "
            "are real; the report was made while this page was built):",
            "",
            "```text",
            examples.report,
            "```",
            "",
            "Under *expected* and *actual* stands each field that differs, as a path into the "
            "outcome; below them the quotes that decide the case, with their source and line "
            f"(or the stated default, {code('U…')}, of the rules matrix); last, the fixture file. "
            "Open the fixture's page to see the position with its cards.",
            "",
        ]
    out += [
        f"With {code('--track results.json')} a run reports only what changed since the last "
        "one (newly failing, fixed, new and removed cases) and stores itself for the next: a "
        "fixed bug stays fixed, and a fixture id never changes meaning.",
        "",
        "## 4. What the suite covers {#coverage}",
        "",
        "```sh",
        "schwimmen conformance coverage",
        "```",
        "",
        "lists every value of every rule parameter and how many cases pin it, and which of "
        "the rules matrix's disagreements (F01–F62) have a fixture. A value counts as pinned "
        "when a case states it in its conditions and runs under a ruleset that has it.",
        "",
    ]
    if suite is not None:
        out += _coverage_md(suite, here)
    out += [
        "## 5. Write an adapter {#adapter}",
        "",
        "An adapter is a small program between the harness and your engine, in your engine's "
        f"language. {docs['ADAPTERS.md']} walks through one; in short:",
        "",
        "1. **Read lines, answer lines.** Parse each line of standard input as JSON; write "
        "one line of JSON per request (none for stop) and flush it. Logs go to standard error.",
        f"2. **Shake hands.** Answer {code('start')} with your name and version and either "
        f"the rulesets you implement or {ANY_RULESET}.",
        f"3. **Map the parameters.** Each case has {code('ruleset.parameters')}; map the ones "
        f"your engine has to its options, and answer {code('skipped')} for a rule it lacks.",
        "4. **Set up the position.** Deal exactly the given cards (or the stacked pack by the "
        "ruleset's procedure): most engines need one hook, *start a round from these cards*.",
        "5. **Play the steps and report.** Apply each step as its seat, record it accepted or "
        "refused with the reason code, and report the rounds and the state (also after the "
        f"steps named in {code('checkpoints')}, and start the next match on "
        f"{code('{table: next-match}')}).",
        f"6. **Check it.** Run with {code('--validate-protocol')} while writing it; then run "
        f"everything and keep a baseline with {code('--track')}.",
        "",
    ]
    if adapter_code is not None:
        out += [
            "A complete adapter in JavaScript that evaluates hands from the parameters and "
            "skips every other kind of case "
            f"([{code('minimal-adapter.mjs')}]({rel(here, ADAPTER_EXAMPLE)})): run it with",
            "",
            "```sh",
            'schwimmen conformance --impl "node conformance/examples/minimal-adapter.mjs" '
            "--kind hand-evaluation",
            "```",
            "",
            '```js title="conformance/examples/minimal-adapter.mjs"',
            adapter_code.rstrip(),
            "```",
            "",
        ]
    out += [
        "## 6. Python engines: the pytest plugin {#pytest}",
        "",
        "A Python engine needs no process. The plugin is installed with this package; point "
        "it at a function that takes the case and returns the answer (the same object as over "
        "the protocol), and the suite runs inside your own test run:",
        "",
        "```python",
        "# my_engine/conformance.py",
        "def run_case(case: dict) -> dict:",
        '    """{"status": "ok", "outcome": {...}} or skipped / errored, as in PROTOCOL.md."""',
        "```",
        "",
        "```sh",
        "pytest --schwimmen-adapter=my_engine.conformance:run_case",
        "pytest --schwimmen-adapter=my_engine.conformance:run_case "
        "--schwimmen-ruleset pagat --schwimmen-k feuer",
        "```",
        "",
        f"Each case is a test item named {code('schwimmen::<fixture>[<ruleset>]')}: failed "
        "cases fail with the same report as above, skipped cases are skipped, errored cases "
        f"error (with your engine's traceback when it raised). {code('--schwimmen-ruleset')} "
        f"(repeatable) and {code('--schwimmen-k')} narrow the selection; so do pytest's own "
        f"{code('-k')} and node ids such as {code('schwimmen::round/thirty-one-by-a-swap')}. "
        "A project claims the rulesets its engine implements once, with the ini option "
        f"{code('schwimmen_rulesets')} or the conftest hook "
        f"{code('pytest_schwimmen_rulesets(config)')}; the command line wins over both.",
        "",
        "## The suite's documents {#documents}",
        "",
        "Rendered from the repository's `conformance/` folder when this site was built:",
        "",
        f"- {link(here, conformance_doc('FIXTURES.md'), 'Fixture format')}: positions, cards, "
        "actions, cases and their predicates, what each expectation means.",
        f"- {link(here, conformance_doc('PROTOCOL.md'), 'Protocol')}: every message, the "
        "outcome of each kind, the reason codes, what the harness does with misbehaviour.",
        f"- {link(here, conformance_doc('INTERPRETING.md'), 'Interpreting the suite')}: what "
        "each field obliges an implementation to do.",
        f"- {link(here, conformance_doc('ADAPTERS.md'), 'Writing an adapter')}: the "
        "walkthrough above, in full.",
        "",
        f"Where the rulesets disagree, the fixtures pin each answer: see "
        f"{link(here, DISAGREEMENTS, 'the disagreements')}.",
        "",
    ]
    return "\n".join(out)


def _coverage_md(suite: Suite, here: str) -> list[str]:
    cov = suite.coverage
    pinned = [n for n, ids in cov.disagreements.items() if ids]
    values = len(cov.values)
    gaps = cov.gaps
    out = [
        f"At the time of this build: {cov.cases} cases from {cov.fixtures} fixtures; "
        f"{values - len(gaps)} of {values} parameter values pinned; {len(pinned)} of "
        f"{len(cov.disagreements)} {link(here, DISAGREEMENTS, 'disagreements')} pinned.",
        "",
    ]
    if gaps:
        rows = [
            [code(g.param), code(json.dumps(g.value, ensure_ascii=False)), esc(g.reason())]
            for g in gaps
        ]
        body = table(["parameter", "value", "why it is not pinned"], rows)
        out += [admonition("info", f"{len(gaps)} values not pinned", body, collapsible=True)]
    if cov.unpinned:
        out += [f"Disagreements without a fixture: {', '.join(cov.unpinned)}.", ""]
    return out
