// Cards and hand values for Schwimmen as pagat.com plays it (ruleset `pagat`).
//
// Cards are written rank then suit: "7C", "10H", "QS", "AD" (C Kreuz, S Pik, H Herz,
// D Karo). pagat's rules are hard-coded here; the parameter each constant stands for is
// named beside it (see `schwimmen show pagat`).

export const RANKS = ["7", "8", "9", "10", "J", "Q", "K", "A"]; // cards.ranks, low to high
export const SUITS = ["C", "S", "H", "D"]; // cards.suits, also comparison.suit_order (high to low)
export const CARD_POINTS = { 7: 7, 8: 8, 9: 9, 10: 10, J: 10, Q: 10, K: 10, A: 11 }; // cards.values
export const MAXIMUM = 31; // maximum.points
export const TRIPLE_POINTS = 30.5; // triples.points (every rank: triples.ranks = all)
export const FEUER_POINTS = 32; // three_aces.kind = feuer, three_aces.points = 32

const CARD = /^(10|[2-9JQKA])([CSHD])$/;

/** "10H" -> { rank: "10", suit: "H" }, or null for text that is no card. */
export function parseCard(text) {
  const match = CARD.exec(text);
  return match ? { rank: match[1], suit: match[2] } : null;
}

export const rankOf = (card) => parseCard(card).rank;
export const suitOf = (card) => parseCard(card).suit;

/** The 32-card pack, 7 to ace in four suits. */
export function newPack() {
  return SUITS.flatMap((suit) => RANKS.map((rank) => rank + suit));
}

/**
 * What a three-card hand is worth: { points, hand, suit, maximum } as the protocol
 * reports it. Three aces are Feuer (32), any other triple 30½; otherwise the best suit
 * counts, and a value reached in two suits counts in the higher one.
 */
export function evaluate(cards) {
  const ranks = cards.map(rankOf);
  if (ranks.every((rank) => rank === ranks[0])) {
    return ranks[0] === "A"
      ? { points: FEUER_POINTS, hand: "feuer", suit: null, maximum: false }
      : { points: TRIPLE_POINTS, hand: "triple", suit: null, maximum: false };
  }
  let best = null;
  for (const suit of SUITS) {
    const inSuit = cards.filter((card) => suitOf(card) === suit);
    if (inSuit.length === 0) continue;
    const points = inSuit.reduce((sum, card) => sum + CARD_POINTS[rankOf(card)], 0);
    if (best === null || points > best.points) best = { points, suit }; // ties keep the higher suit
  }
  return { points: best.points, hand: "suit", suit: best.suit, maximum: best.points === MAXIMUM };
}

export const isFeuer = (cards) => evaluate(cards).hand === "feuer";
export const isMaximum = (cards) => evaluate(cards).maximum;

/**
 * A hand's strength for the showdown, compared as [points, tie-break]: equal points are
 * decided by the suit (Kreuz > Pik > Herz > Karo) or, between triples, by rank
 * (triples.order = by-rank). Hands equal in both lose together.
 */
function strength(cards) {
  const value = evaluate(cards);
  if (value.hand === "triple") return [value.points, RANKS.indexOf(rankOf(cards[0]))];
  if (value.hand === "feuer") return [value.points, 0];
  return [value.points, SUITS.length - SUITS.indexOf(value.suit)];
}

function compare(a, b) {
  return a[0] - b[0] || a[1] - b[1];
}

/**
 * The ordinary showdown: the lowest hand loses one life (penalties.lowest = 1), hands
 * tied for lowest all lose (penalties.tied_lowest = all-lose), and a knocker who ends
 * lowest loses no more than anybody else (penalties.knocker_lowest = 1).
 * `hands` is { seat: cards }; returns { seat: lives lost } for the losers only.
 */
export function showdownLosses(hands) {
  const strengths = Object.entries(hands).map(([seat, cards]) => [seat, strength(cards)]);
  const lowest = strengths.reduce((low, [, s]) => (compare(s, low) < 0 ? s : low), strengths[0][1]);
  const losses = {};
  for (const [seat, s] of strengths) if (compare(s, lowest) === 0) losses[seat] = 1;
  return losses;
}

/** Every hand's value, { seat: value }. */
export function valuesOf(hands) {
  return Object.fromEntries(Object.entries(hands).map(([seat, cards]) => [seat, evaluate(cards)]));
}
