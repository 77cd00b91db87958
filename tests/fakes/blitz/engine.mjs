#!/usr/bin/env node
// blitz: a small Scat/Blitz engine with fixed rules of its own, speaking the schwimmen
// conformance protocol (version 1) on stdin/stdout. Its rules and habits are in README.md.
import { createInterface } from "node:readline";

const RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"];
const SUITS = ["C", "S", "H", "D"];
const POINTS = { 2: 2, 3: 3, 4: 4, 5: 5, 6: 6, 7: 7, 8: 8, 9: 9, 10: 10, J: 10, Q: 10, K: 10, A: 11 };
const HAND_SIZE = 3;
const LIVES = 3;
const BLITZ = 31;

/** A request the engine cannot make sense of: answered `errored`, never a crash. */
class BadRequest extends Error {}

function cardOf(text) {
  const m = /^(10|[2-9JQKA])([CSHD])$/.exec(text);
  if (!m) throw new BadRequest(`not a card: ${text}`);
  return { rank: m[1], suit: m[2] };
}

/** The best sum of one suit; the suit is the first one in hand order that reaches it. */
export function value(hand) {
  let best = -1;
  let bestSuit = null;
  for (const card of hand) {
    const { suit } = cardOf(card);
    const sum = hand.map(cardOf).filter((c) => c.suit === suit).reduce((s, c) => s + POINTS[c.rank], 0);
    if (sum > best) [best, bestSuit] = [sum, suit];
  }
  return { points: best, hand: "suit", suit: bestSuit, maximum: best === BLITZ };
}

function fullPack(seed) {
  const pack = SUITS.flatMap((s) => RANKS.map((r) => r + s));
  let x = (seed * 2654435761 + 12345) >>> 0;
  for (let i = pack.length - 1; i > 0; i--) {
    x = (x * 1103515245 + 12345) >>> 0;
    const j = x % (i + 1);
    [pack[i], pack[j]] = [pack[j], pack[i]];
  }
  return pack;
}

class Table {
  constructor(c) {
    this.seats = Array.from({ length: c.seats }, (_, i) => `P${i + 1}`);
    this.lives = {};
    for (const s of this.seats) {
      this.lives[s] = typeof c.lives === "number" ? c.lives : (c.lives ?? {})[s] ?? LIVES;
    }
    this.out = new Set();
    for (const s of c.eliminated ?? []) this.removeSeat(s);
    this.dealer = c.dealer ?? this.seats[this.seats.length - 1];
    this.decks = [...(c.decks ?? [])];
    this.deals = [...(c.deals ?? [])];
    this.shuffles = 0;
    this.rounds = [];
    this.step = 0;
    this.over = false;
    this.winners = [];
    if (c.deck) this.dealPack(c.deck);
    else this.setPosition(c.hands ?? {}, c.stock ?? [], c.discard ?? []);
  }

  /** Takes a player off the table. */
  removeSeat(seat) {
    this.out.add(seat);
    this.lives[seat] = 0;
    // The seat ring is kept in a fixed-size array that was never taught to shrink.
    const ring = new Array(this.seats.length);
    ring.length = this.seats.length - this.out.size;
    ring[this.seats.indexOf(seat)].chair = null;
  }

  inPlay() {
    return this.seats.filter((s) => !this.out.has(s));
  }

  after(seat) {
    const ring = this.inPlay();
    const all = this.seats;
    for (let i = 1; i <= all.length; i++) {
      const s = all[(all.indexOf(seat) + i) % all.length];
      if (ring.includes(s)) return s;
    }
    throw new BadRequest("nobody at the table");
  }

  fromLeftOfDealer() {
    const order = [];
    let s = this.after(this.dealer);
    while (!order.includes(s)) {
      order.push(s);
      s = this.after(s);
    }
    return order;
  }

  dealPack(pack) {
    const order = this.fromLeftOfDealer();
    if (pack.length < order.length * HAND_SIZE + 1) throw new BadRequest("the pack is too short");
    const hands = Object.fromEntries(order.map((s) => [s, []]));
    let next = 0;
    for (let r = 0; r < HAND_SIZE; r++) for (const s of order) hands[s].push(pack[next++]);
    const upcard = pack[next++];
    this.setPosition(hands, pack.slice(next), [upcard]);
  }

  setPosition(hands, stock, discard) {
    for (const s of this.inPlay()) {
      if (!hands[s] || hands[s].length !== HAND_SIZE) throw new BadRequest(`no hand of three for ${s}`);
      hands[s].forEach(cardOf);
    }
    this.hands = Object.fromEntries(this.inPlay().map((s) => [s, [...hands[s]]]));
    this.stock = [...stock];
    this.discard = [...discard];
    this.knocker = null;
    this.lastTurns = null;
    this.taken = null;
    this.phase = "turn";
    this.toMove = this.after(this.dealer);
    const holders = this.fromLeftOfDealer().filter((s) => value(this.hands[s]).points === BLITZ);
    if (holders.length) this.endRound("maximum", true, holders[0], this.othersLose(holders));
  }

  nextRound() {
    this.dealer = this.after(this.dealer);
    if (this.decks.length) return this.dealPack(this.decks.shift());
    if (this.deals.length) {
      const d = this.deals.shift();
      return this.setPosition(d.hands, d.stock ?? [], d.discard ?? []);
    }
    this.dealPack(fullPack(++this.shuffles));
  }

  othersLose(holders) {
    return Object.fromEntries(this.inPlay().filter((s) => !holders.includes(s)).map((s) => [s, 1]));
  }

  showdownLosses() {
    const pts = Object.fromEntries(this.inPlay().map((s) => [s, value(this.hands[s]).points]));
    const low = Math.min(...Object.values(pts));
    const losses = {};
    for (const s of this.inPlay()) if (pts[s] === low) losses[s] = s === this.knocker ? 2 : 1;
    return losses;
  }

  endRound(reason, atDeal, by, losses) {
    const record = {
      reason, at_deal: atDeal, after_step: this.step, by, knocker: this.knocker, losses,
      lives_lost: {},
      values: Object.fromEntries(this.inPlay().map((s) => [s, value(this.hands[s])])),
      hands: Object.fromEntries(this.inPlay().map((s) => [s, [...this.hands[s]]])),
    };
    this.rounds.push(record);
    const after = { ...this.lives };
    const goingOut = [];
    for (const s of this.inPlay()) {
      for (let n = 0; n < (losses[s] ?? 0); n++) {
        if (after[s] > 0) after[s] -= 1;
        else if (!goingOut.includes(s)) goingOut.push(s);
      }
    }
    for (const s of this.inPlay()) if (after[s] < this.lives[s]) record.lives_lost[s] = this.lives[s] - after[s];
    this.lives = after;
    if (goingOut.length === this.inPlay().length) {
      // Everybody left is out at once: the table is over and nobody has won.
      for (const s of goingOut) this.out.add(s);
      this.over = true;
      this.winners = [];
      this.toMove = null;
      this.phase = "match-over";
      return;
    }
    for (const s of goingOut) this.removeSeat(s);
    this.nextRound();
  }

  endTurn(seat) {
    if (value(this.hands[seat]).points === BLITZ) {
      const holders = this.inPlay().filter((s) => value(this.hands[s]).points === BLITZ);
      return this.endRound("maximum", false, seat, this.othersLose(holders));
    }
    if (this.lastTurns) {
      if (!this.lastTurns.length) return this.endRound("knock", false, this.knocker, this.showdownLosses());
      this.toMove = this.lastTurns.shift();
    } else this.toMove = this.after(seat);
  }

  /** Plays one action; returns false when it is refused (the engine keeps no reasons). */
  play(seat, action) {
    const parts = action.split(" ");
    const known = ["swap", "swap-all", "pass", "knock", "keep", "take-extra", "show", "decline",
      "turn-up", "draw-stock", "draw-discard", "discard"];
    if (!known.includes(parts[0])) throw new BadRequest(`not an action: ${action}`);
    if (parts[0] === "discard") {
      if (parts.length !== 2) throw new BadRequest(`not an action: ${action}`);
      cardOf(parts[1]);
    }
    if (this.over || seat !== this.toMove) return false;
    const hand = this.hands[seat];
    if (this.phase === "turn") {
      if (action === "draw-stock") {
        if (!this.stock.length) {
          if (this.discard.length < 2) {
            this.endRound("stock-exhausted", false, null, this.showdownLosses());
            return true;
          }
          this.stock = this.discard.slice(0, -1);
          this.discard = this.discard.slice(-1);
        }
        hand.push(this.stock.shift());
        this.phase = "discard";
        return true;
      }
      if (action === "draw-discard") {
        if (!this.discard.length) return false;
        this.taken = this.discard.pop();
        hand.push(this.taken);
        this.phase = "discard";
        return true;
      }
      if (action === "knock") {
        if (this.knocker) return false;
        this.knocker = seat;
        this.lastTurns = [];
        for (let s = this.after(seat); s !== seat; s = this.after(s)) this.lastTurns.push(s);
        this.toMove = this.lastTurns.shift();
        return true;
      }
      return false;
    }
    if (parts[0] !== "discard") return false;
    const card = parts[1];
    if (!hand.includes(card) || card === this.taken) return false;
    hand.splice(hand.indexOf(card), 1);
    this.discard.push(card);
    this.taken = null;
    this.phase = "turn";
    this.endTurn(seat);
    return true;
  }

  legal() {
    if (this.over) return [];
    if (this.phase === "discard") return this.hands[this.toMove].filter((c) => c !== this.taken).map((c) => `discard ${c}`);
    const moves = ["draw-stock"];
    if (this.discard.length) moves.push("draw-discard");
    if (!this.knocker) moves.push("knock");
    return moves;
  }

  state() {
    const inPlay = this.inPlay();
    return {
      to_move: this.toMove, phase: this.phase, dealer: this.dealer, middle: [],
      hands: Object.fromEntries(Object.entries(this.hands).map(([s, h]) => [s, [...h]])),
      values: Object.fromEntries(Object.entries(this.hands).map(([s, h]) => [s, h.length === HAND_SIZE ? value(h) : null])),
      knocker: this.knocker, legal: this.legal(), lives: { ...this.lives },
      swimming: inPlay.filter((s) => this.lives[s] === 0),
      eliminated: this.seats.filter((s) => this.out.has(s)),
      match_over: this.over, winners: this.winners, points: {},
      stock: this.stock.length, discard_top: this.discard.at(-1) ?? null,
    };
  }
}

function play(c) {
  const table = new Table(c);
  const steps = [];
  const states = {};
  const checkpoints = new Set(c.checkpoints ?? []);
  for (const step of c.steps ?? []) {
    const [[who, action]] = Object.entries(step);
    table.step += 1;
    const ok = who === "table" ? false : table.play(who, action);
    steps.push({ accepted: ok });
    if (checkpoints.has(table.step)) states[table.step] = table.state();
  }
  return { steps, rounds: table.rounds, ...table.state(), states };
}

function runCase(c) {
  if (c.kind === "showdown" || c.kind === "setup") return { status: "skipped", reason: `blitz does not do ${c.kind} cases` };
  if (c.kind === "hand-evaluation") {
    const values = Object.fromEntries(Object.entries(c.hands ?? {}).map(([s, h]) => [s, value(h)]));
    return { status: "ok", outcome: { values } };
  }
  return { status: "ok", outcome: play(c) };
}

/** The start answer; WILD_START (a JSON object) is merged into it, for tests. */
export function startAnswer() {
  const answer = {
    ok: true, version: 1,
    implementation: { name: "blitz", version: "0.3", language: "javascript" },
    rulesets: [], any_ruleset: true,
  };
  if (process.env.WILD_START) Object.assign(answer, JSON.parse(process.env.WILD_START));
  return answer;
}

function say(obj) {
  process.stdout.write(JSON.stringify(obj) + "\n");
}

for await (const line of createInterface({ input: process.stdin })) {
  if (!line.trim()) continue;
  const msg = JSON.parse(line);
  if (msg.cmd === "stop") break;
  if (msg.cmd === "start") {
    say(startAnswer());
    continue;
  }
  let reply;
  try {
    reply = runCase(msg.case);
  } catch (err) {
    if (!(err instanceof BadRequest)) throw err;
    reply = { status: "errored", message: err.message };
  }
  say({ seq: msg.seq, ...reply });
}
