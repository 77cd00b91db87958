// The conformance adapter for the pagat example engine (engine.mjs): it speaks the
// protocol of conformance/PROTOCOL.md, one JSON object per line on stdin/stdout.
//
// The engine plays one ruleset, `pagat`, with its rules hard-coded: the adapter answers
// `rulesets: ["pagat"], any_ruleset: false`, so the harness sends it pagat's cases only,
// and it does not read `ruleset.parameters` (it errors a case for any other ruleset).
//
//   schwimmen conformance --impl "node conformance/examples/pagat/adapter.mjs" --ruleset pagat
import { createInterface } from "node:readline";
import { evaluate, Match, PLAYERS, showdown } from "./engine.mjs";
import { newPack } from "./cards.mjs";

const RULESET = "pagat";

/** Play one case and return its outcome (PROTOCOL.md, "The outcome"). */
function runCase(c) {
  if (c.ruleset.id !== RULESET) throw new Error(`this engine plays only ${RULESET}, not ${c.ruleset.id}`);
  switch (c.kind) {
    case "setup":
      return { accepted: c.seats >= PLAYERS.min && c.seats <= PLAYERS.max, pack: newPack().length };
    case "hand-evaluation":
      return { values: mapValues(c.hands, evaluate) };
    case "showdown":
      return showdown(c.hands); // pagat's showdown depends on neither `knocker` nor `reached`
    case "round":
    case "match":
      return playSteps(c);
    default:
      throw new Error(`unknown kind ${c.kind}`);
  }
}

/** Set the table up as the case says, replay its steps, report rounds and states. */
function playSteps(c) {
  const match = new Match({
    seats: c.seats,
    dealer: c.dealer,
    lives: c.lives,
    eliminated: c.eliminated,
    decks: c.decks,
    deals: c.deals,
  });
  // Either a stacked pack to deal by pagat's procedure, or the cards as dealt.
  if (c.deck) match.dealPack(c.deck);
  else match.setPosition({ hands: c.hands, middle: c.middle, extra: c.extra, stock: c.stock });

  const steps = [];
  const states = {};
  const checkpoints = new Set(c.checkpoints ?? []);
  (c.steps ?? []).forEach((step, i) => {
    const [[who, action]] = Object.entries(step);
    if (who === "table" && action !== "next-match") throw new Error(`unknown table step "${action}"`);
    const result = who === "table" ? match.nextMatch() : match.play(who, action);
    steps.push(result);
    if (checkpoints.has(i + 1)) states[i + 1] = match.state();
  });
  return { steps, rounds: match.rounds, ...match.state(), ...(c.checkpoints ? { states } : {}) };
}

function mapValues(object, f) {
  return Object.fromEntries(Object.entries(object).map(([key, value]) => [key, f(value)]));
}

function answer(message) {
  switch (message.cmd) {
    case "start":
      return {
        ok: true,
        version: 2,
        implementation: { name: "pagat-example", version: "1.0", language: "javascript" },
        rulesets: [RULESET],
        any_ruleset: false,
      };
    case "run":
      try {
        return { seq: message.seq, status: "ok", outcome: runCase(message.case) };
      } catch (error) {
        console.error(error); // stderr is shown beside the case
        return { seq: message.seq, status: "errored", message: String(error.message ?? error) };
      }
    default:
      return null;
  }
}

for await (const line of createInterface({ input: process.stdin })) {
  if (!line.trim()) continue;
  const message = JSON.parse(line);
  if (message.cmd === "stop") break;
  const reply = answer(message);
  if (reply) process.stdout.write(JSON.stringify(reply) + "\n");
}
