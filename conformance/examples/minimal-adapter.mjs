// A minimal adapter in JavaScript (Node.js): it speaks the conformance protocol and
// evaluates hands from the ruleset's parameters; every other kind of case is skipped.
// Run it against the suite with:
//   schwimmen conformance --impl "node conformance/examples/minimal-adapter.mjs" --kind hand-evaluation
import { createInterface } from "node:readline";

function card(text) {
  return { rank: text.slice(0, -1), suit: text.slice(-1) };
}

// The rank of which a hand holds three cards (in a four-card hand: three or four), or null.
function groupRank(cards) {
  const held = cards.find((c) => cards.filter((d) => d.rank === c.rank).length >= 3);
  return held ? held.rank : null;
}

// What one hand is worth under the parameters (only the rules this adapter knows).
function evaluate(cards, p) {
  const values = p["cards.values"];
  const group = groupRank(cards);
  const aces = p["three_aces.kind"];
  if (group === "A" && aces !== "ordinary") {
    return null; // Feuer and friends: not implemented here
  }
  if (group === "7" && p["three_sevens.kind"] !== "ordinary") return null;
  if ((p["protection.hands"] || []).length) return null;
  const triples = p["triples.points"];
  const triRanks = p["triples.ranks"];
  if (group && triples !== "none" && (triRanks === "all" || triRanks.includes(group))) {
    return { points: triples, hand: "triple", suit: null, maximum: false };
  }
  let best = null;
  for (const suit of p["cards.suits"]) {
    const inSuit = cards.filter((c) => c.suit === suit);
    if (!inSuit.length) continue;
    const total = inSuit.reduce((sum, c) => sum + values[c.rank], 0);
    const order = p["comparison.suit_order"];
    const rank = order === "none" ? 0 : order.length - order.indexOf(suit);
    if (!best || total > best.total || (total === best.total && rank > best.rank)) {
      best = { total, rank, suit, inSuit };
    }
  }
  // Where only an ace with a king or a queen is a 31, ace, jack and ten count 31 but are none.
  const named = p["maximum.hands"] !== "ace-with-king-or-queen"
    || best.inSuit.some((c) => c.rank === "K" || c.rank === "Q");
  return {
    points: best.total,
    hand: "suit",
    suit: best.suit,
    maximum: best.total === p["maximum.points"] && named,
  };
}

function run(c) {
  if (c.kind !== "hand-evaluation") {
    return { status: "skipped", reason: `this adapter does not play ${c.kind} cases` };
  }
  const p = c.ruleset.parameters;
  const values = {};
  for (const [seat, texts] of Object.entries(c.hands)) {
    const value = evaluate(texts.map(card), p);
    if (value === null) return { status: "skipped", reason: "special hands not implemented" };
    values[seat] = value;
  }
  return { status: "ok", outcome: { values } };
}

const lines = createInterface({ input: process.stdin });
for await (const line of lines) {
  if (!line.trim()) continue;
  const message = JSON.parse(line);
  let answer;
  if (message.cmd === "start") {
    answer = {
      ok: true, version: 2,
      implementation: { name: "minimal-js-adapter", version: "1.0", language: "javascript" },
      rulesets: [], any_ruleset: true,
    };
  } else if (message.cmd === "run") {
    try {
      answer = { seq: message.seq, ...run(message.case) };
    } catch (error) {
      answer = { seq: message.seq, status: "errored", message: String(error) };
    }
  } else if (message.cmd === "stop") {
    break;
  }
  process.stdout.write(JSON.stringify(answer) + "\n");
}
