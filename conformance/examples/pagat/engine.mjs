// A small engine for Schwimmen (31) as pagat.com plays it: the ruleset `pagat`.
//
// It hard-codes pagat's rules (each one names the parameter of `schwimmen show pagat` it
// implements); it does not read `ruleset.parameters`. The adapter checks that a case is
// for pagat before handing it here.
//
// A Match holds the table (seats, lives, who is out, the dealer, the packs still to deal)
// and the round in progress. It is driven from outside: deal a pack or set up a dealt
// position, then `play(seat, text)` one action at a time; `legal()` and `state()` say
// where it stands, and `rounds` records every round that ended.

import { evaluate, isFeuer, isMaximum, newPack, parseCard, showdownLosses, valuesOf } from "./cards.mjs";

export const PLAYERS = { min: 2, max: 8 }; // players.range
export const LIVES = 3; // lives.count
const HAND_SIZE = 3; // cards.hand_size (and cards.middle_size)

const accepted = { accepted: true };
const refused = (reason) => ({ accepted: false, reason });

/**
 * The canonical text of an action (FIXTURES.md's grammar) as { verb, give, take, knock,
 * malformed }. A bare "knock" is a pass followed by the close (knocking.form = after-move:
 * the close comes at the end of one's own move). A swap that gives and takes different
 * numbers of cards, or names a card twice, is grammatical but `malformed` (refused);
 * text outside the grammar is the request's fault and throws.
 */
export function parseAction(text) {
  const words = text.trim().split(/\s+/);
  const knock = words.length > 1 && words.at(-1) === "knock";
  if (knock) words.pop();
  const [verb, ...args] = words;
  const closable = ["pass", "swap", "swap-all"];
  const simple = ["keep", "take-extra", "turn-up", "show", "decline", "draw-stock", "draw-discard"];
  if (verb === "knock" && !knock && args.length === 0) return { verb: "pass", knock: true };
  if (knock && !closable.includes(verb)) throw new Error(`not an action: "${text}"`);
  if ((verb === "pass" || verb === "swap-all" || simple.includes(verb)) && args.length === 0) {
    return { verb, knock };
  }
  if (verb === "discard" && args.length === 1 && parseCard(args[0])) return { verb };
  if (verb === "swap" && args.length === 2) {
    const [give, take] = args.map((arg) => arg.split("+"));
    const cards = [...give, ...take];
    if (cards.every(parseCard)) {
      const malformed = give.length !== take.length || new Set(cards).size !== cards.length;
      return { verb, give, take, knock, malformed };
    }
  }
  throw new Error(`not an action: "${text}"`);
}

export class Match {
  /**
   * seats: how many (P1..Pn, clockwise); dealer: who deals first (default the last seat);
   * lives: one number or { seat: lives } (missing seats start with LIVES);
   * eliminated: seats already out (they have 0 lives); decks: stacked packs for the
   * rounds to come, or deals: those rounds as dealt (after them, packs are shuffled with
   * a fixed seed, so a run repeats).
   */
  constructor({ seats, dealer, lives = LIVES, eliminated = [], decks = [], deals = [], seed = 31 }) {
    this.seats = Array.from({ length: seats }, (_, i) => `P${i + 1}`);
    this.dealer = dealer ?? this.seats.at(-1);
    this.eliminated = new Set(eliminated);
    const start = (s) => (typeof lives === "number" ? lives : (lives[s] ?? LIVES));
    this.lives = Object.fromEntries(this.seats.map((s) => [s, this.eliminated.has(s) ? 0 : start(s)]));
    this.decks = decks.map((pack) => [...pack]);
    this.deals = [...deals];
    this.random = mulberry32(seed);
    this.rounds = []; // every round that ended, as the protocol reports it
    this.stepNo = 0; // the number of the step being played (0 = the deal)
    this.over = false;
    this.winners = [];
    this.round = null;
  }

  /** The seats still in the match, in seat order. */
  active() {
    return this.seats.filter((s) => !this.eliminated.has(s));
  }

  /** The next seat clockwise that is still in (turns.direction = clockwise). */
  next(seat) {
    const i = this.seats.indexOf(seat);
    for (let k = 1; k <= this.seats.length; k++) {
      const candidate = this.seats[(i + k) % this.seats.length];
      if (!this.eliminated.has(candidate)) return candidate;
    }
    return seat;
  }

  /** The players in the order they receive cards: from the dealer's left, dealer last. */
  fromLeftOfDealer() {
    const order = [];
    let seat = this.dealer;
    do {
      seat = this.next(seat);
      order.push(seat);
    } while (seat !== this.dealer && order.length < this.seats.length);
    return order.filter((s) => !this.eliminated.has(s));
  }

  // ---- dealing ----------------------------------------------------------------------

  /**
   * Deal a pack (top card first) by dealing.procedure = extra-hand-blind-choice: one card
   * at a time to each player from the dealer's left, the dealer last, then to the extra
   * hand, three times round (U32); the rest is the stock (dealing.rest_of_pack).
   */
  dealPack(pack) {
    const order = [...this.fromLeftOfDealer(), "extra"];
    if (pack.length < order.length * HAND_SIZE) throw new Error(`a pack of ${pack.length} cards is too short to deal`);
    const piles = Object.fromEntries(order.map((p) => [p, []]));
    let next = 0;
    for (let round = 0; round < HAND_SIZE; round++) {
      for (const p of order) piles[p].push(pack[next++]);
    }
    const hands = Object.fromEntries(this.active().map((s) => [s, piles[s]])); // in seat order
    this.setPosition({ hands, extra: piles.extra, stock: pack.slice(next) });
  }

  /**
   * Start a round from cards as dealt. With `extra` the dealer has still to choose
   * between his hand and the unseen extra hand; with `middle` he has chosen. A position
   * that cannot exist throws.
   */
  setPosition({ hands, middle, extra, stock = [] }) {
    const choosing = extra !== undefined;
    checkPosition(this.active(), hands, choosing ? extra : middle, stock);
    this.round = {
      phase: choosing ? "dealer-choice" : "turn",
      hands: Object.fromEntries(Object.entries(hands).map(([s, cards]) => [s, [...cards]])),
      middle: choosing ? [] : [...middle],
      extra: choosing ? [...extra] : null,
      stock: [...stock],
      toMove: choosing ? this.dealer : this.next(this.dealer), // turns.first_player
      knocker: null,
      passes: 0, // passes in a row since the last swap or replacement
    };
    // A 31 or Feuer must be shown straight after the deal, before the dealer's choice
    // (maximum.at_deal = must-show, U09); Feuer outranks a 31 (U08).
    const holders = (test) => this.fromLeftOfDealer().filter((s) => test(this.round.hands[s]));
    const [feuer] = holders(isFeuer);
    const [maximum] = holders(isMaximum);
    if (feuer) this.endRound("feuer", feuer, true);
    else if (maximum) this.endRound("maximum", maximum, true);
  }

  // ---- playing ----------------------------------------------------------------------

  /**
   * Play one step as `seat`; returns { accepted: true } or { accepted: false, reason }.
   * Nothing changes until every check has passed; when an action breaks several rules
   * the first check in PROTOCOL.md's order of reason codes decides.
   */
  play(seat, text) {
    this.stepNo += 1;
    const action = parseAction(text);
    if (this.over) return refused("match-over");
    const round = this.round;
    if (seat !== round.toMove) return refused("not-your-turn");
    // turns.move = swap-with-middle: nobody draws from a stock or discards.
    if (["draw-stock", "draw-discard", "discard"].includes(action.verb)) return refused("no-draw");
    if (round.phase === "dealer-choice") return this.chooseHand(seat, action.verb);
    if (!["swap", "swap-all", "pass"].includes(action.verb)) return refused("wrong-phase");
    const hand = round.hands[seat];

    // Which exchange: one card (swap QC 10H) or the whole hand (swap-all, or the same
    // written card by card); turns.swaps = one, all (two cards are never a move).
    let exchange = null;
    if (action.verb === "swap-all") exchange = "all";
    if (action.verb === "swap") {
      const { give, take } = action;
      if (action.malformed) return refused("malformed");
      if (!give.every((c) => hand.includes(c))) return refused("not-in-hand");
      if (!take.every((c) => round.middle.includes(c))) return refused("not-in-middle");
      if (give.length !== 1 && give.length !== HAND_SIZE) return refused("two-card-swap");
      exchange = give.length === 1 ? [give[0], take[0]] : "all";
    }
    // knocking.per_round = one: nobody closes once somebody has.
    if (action.knock && round.knocker !== null) return refused("second-knock");

    if (exchange === "all") {
      [round.hands[seat], round.middle] = [round.middle, hand];
    } else if (exchange !== null) {
      const [give, take] = exchange; // the swapped card takes the place of the card it replaces
      hand[hand.indexOf(give)] = take;
      round.middle[round.middle.indexOf(take)] = give;
    }

    if (exchange !== null) {
      round.passes = 0;
      // maximum.in_play = must-show: a 31 (or Feuer) ends the round at once.
      if (isFeuer(round.hands[seat])) return this.endRound("feuer", seat, false), accepted;
      if (isMaximum(round.hands[seat])) return this.endRound("maximum", seat, false), accepted;
    } else if (round.knocker === null) {
      // A round of passes outside the last cycle (a pass and close counts as a pass):
      // three new cards from the stock replace the middle, which leaves play
      // (all_pass.replacement, all_pass.old_middle); if the stock is too short the
      // round ends with a showdown without knocker (all_pass.no_replacement).
      round.passes += 1;
      if (round.passes === this.active().length) {
        if (round.stock.length < HAND_SIZE) return this.endRound("all-passed", null, false), accepted;
        round.middle = round.stock.splice(0, HAND_SIZE);
        round.passes = 0;
      }
    }

    // The close at the end of the move starts the last cycle: every other player has
    // exactly one more turn (knocking.then = last-cycle, knocking.last_cycle).
    if (action.knock) round.knocker = seat;
    const next = this.next(seat);
    if (round.knocker !== null && next === round.knocker) this.endRound("knock", round.knocker, false);
    else round.toMove = next;
    return accepted;
  }

  /** The dealer keeps his hand or takes the unseen extra hand; the other goes face up to the middle. */
  chooseHand(seat, verb) {
    const round = this.round;
    if (verb === "keep") round.middle = round.extra;
    else if (verb === "take-extra") [round.middle, round.hands[seat]] = [round.hands[seat], round.extra];
    else return refused("wrong-phase");
    round.extra = null;
    round.phase = "turn";
    round.toMove = this.next(seat);
    // The chosen hand counts as dealt (U09): a 31 or Feuer in it ends the round at the deal.
    if (isFeuer(round.hands[seat])) this.endRound("feuer", seat, true);
    else if (isMaximum(round.hands[seat])) this.endRound("maximum", seat, true);
    return accepted;
  }

  /** The step { table: "next-match" }: pagat plays a single match (match.series). */
  nextMatch() {
    this.stepNo += 1;
    return refused(this.over ? "match-over" : "wrong-phase");
  }

  // ---- the end of a round -----------------------------------------------------------

  endRound(reason, by, atDeal) {
    const { knocker } = this.round;
    const players = this.active();
    const hands = Object.fromEntries(players.map((s) => [s, [...this.round.hands[s]]]));
    // Feuer costs every other player a life (three_aces.penalty and penalty_at_deal);
    // everything else is decided by the ordinary showdown.
    const losses =
      reason === "feuer"
        ? Object.fromEntries(players.filter((s) => s !== by).map((s) => [s, 1]))
        : showdownLosses(hands);
    const record = {
      reason,
      at_deal: atDeal,
      after_step: this.stepNo,
      by,
      knocker,
      losses,
      lives_lost: {},
      values: valuesOf(hands),
      hands,
    };
    this.rounds.push(record);
    this.settle(losses, record);
  }

  /**
   * Take the lives (noting in the round's record what the match took: lives_lost, as
   * against the losses the round imposed), see whether the match is over, otherwise deal
   * the next round.
   */
  settle(losses, record) {
    // lives.multi_loss = one-at-a-time; lives.after_last = swim: a player without lives
    // swims, and a life lost while swimming puts him out.
    const lives = { ...this.lives };
    const out = new Set(this.eliminated);
    for (const [seat, count] of Object.entries(losses)) {
      for (let i = 0; i < count && !out.has(seat); i++) {
        if (lives[seat] > 0) lives[seat] -= 1;
        else out.add(seat);
      }
    }
    // match.everyone_out = replay-round: if the losses would put out everybody left,
    // nobody loses and the round is played again (with the next dealer).
    if (out.size < this.seats.length) {
      for (const seat of this.seats) {
        if (this.lives[seat] > lives[seat]) record.lives_lost[seat] = this.lives[seat] - lives[seat];
      }
      this.lives = lives;
      this.eliminated = out;
    }
    if (this.active().length === 1) {
      this.over = true;
      this.winners = this.active();
      this.round.toMove = null;
      return;
    }
    this.dealer = this.next(this.dealer); // match.dealer_rotation = clockwise
    const dealt = this.deals.shift();
    if (dealt) this.setPosition(dealt);
    else this.dealPack(this.decks.shift() ?? shuffle(newPack(), this.random));
  }

  // ---- what the table looks like ----------------------------------------------------

  /** The legal actions of the seat to move, in canonical text. */
  legal() {
    if (this.over) return [];
    const round = this.round;
    if (round.phase === "dealer-choice") return ["keep", "take-extra"];
    const hand = round.hands[round.toMove];
    const moves = [...hand.flatMap((h) => round.middle.map((m) => `swap ${h} ${m}`)), "swap-all"];
    if (round.knocker !== null) return [...moves, "pass"];
    // A close follows the move; for a close without a swap the step may be written
    // "knock" or "pass knock", and the list gives it as "pass knock".
    return [...moves, "pass", ...[...moves, "pass"].map((m) => `${m} knock`)];
  }

  /** The state fields of the protocol's outcome. */
  state() {
    const round = this.round;
    return {
      to_move: this.over ? null : round.toMove,
      phase: this.over ? "match-over" : round.phase,
      dealer: this.dealer,
      middle: [...round.middle],
      hands: Object.fromEntries(Object.entries(round.hands).map(([s, cards]) => [s, [...cards]])),
      values: valuesOf(round.hands),
      knocker: round.knocker,
      legal: this.legal(),
      lives: { ...this.lives },
      swimming: this.active().filter((s) => this.lives[s] === 0),
      eliminated: this.seats.filter((s) => this.eliminated.has(s)),
      match_over: this.over,
      winners: [...this.winners],
      points: {}, // a single match: there are no match points
    };
  }
}

/** Throw unless every player has a hand, there is a middle (or extra hand), and each card is one of the pack, once. */
function checkPosition(players, hands, middle, stock) {
  const piles = [...players.map((s) => hands[s]), middle];
  if (!piles.every((pile) => pile?.length === HAND_SIZE)) {
    throw new Error(`every player and the middle (or extra hand) need ${HAND_SIZE} cards`);
  }
  const pack = new Set(newPack());
  const seen = new Set();
  for (const card of [...piles.flat(), ...stock]) {
    if (!pack.has(card) || seen.has(card)) throw new Error(`${card} is not in the pack or dealt twice`);
    seen.add(card);
  }
}

/** The value of each hand and who loses at a showdown of these hands (the `showdown` kind). */
export function showdown(hands) {
  return { values: valuesOf(hands), losses: showdownLosses(hands) };
}

export { evaluate };

// A small seeded generator, so that a shuffled pack is the same on every run.
function mulberry32(seed) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function shuffle(cards, random) {
  for (let i = cards.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [cards[i], cards[j]] = [cards[j], cards[i]];
  }
  return cards;
}
