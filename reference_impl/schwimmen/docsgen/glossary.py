"""The German words of the game, each with the source sentence that uses it.

The sources are German and the spec quotes them verbatim, so an English reader meets
words like *schieben* or *Feuer* in every quote. Each entry quotes a source the way
the spec does (source, section, line) and the build checks every quote against the
source texts like the loader checks the spec's own quotes; a wrong quote fails the
build instead of misleading a reader.
"""

from __future__ import annotations

from dataclasses import dataclass

from schwimmen.spec.model import Citation


@dataclass(frozen=True)
class Term:
    german: str
    english: str
    meaning: str
    quotes: tuple[Citation, ...] = ()
    params: tuple[str, ...] = ()

    @property
    def anchor(self) -> str:
        return (
            self.german.split(" /")[0]
            .lower()
            .replace(" ", "-")
            .replace("ß", "ss")
            .replace("ä", "ae")
            .replace("ö", "oe")
            .replace("ü", "ue")
        )


def _c(source: str, line: int, section: str, quote: str) -> Citation:
    return Citation(source=source, section=section, quote=quote, line=line)


TERMS: tuple[Term, ...] = (
    Term(
        "Schwimmen",
        "swimming (the game; the state on the last life)",
        "The game's name, and in most sources the state of a player who has lost his last "
        "life: he plays on and is out at his next loss. The beginner's guide s002 uses the "
        "word for keeping one's cards instead (a terminology conflict only).",
        (
            _c(
                "s000",
                45,
                "Schwimmen und Untergehen",
                "Wer seine letzte Marke abgeben musste, schwimmt.",
            ),
            _c(
                "s002",
                11,
                "Kurz erklärt",
                "Schwimmen: Du behältst deine drei Karten und tauschst gar nichts.",
            ),
        ),
        ("lives.after_last",),
    ),
    Term(
        "Einunddreißig / 31",
        "thirty-one; the maximum",
        "Another name of the game, and its target: an ace and two ten-point cards of one suit. "
        "Where a ruleset says so, a 31 ends the round at once.",
        (
            _c(
                "s003",
                54,
                "Häufige Fragen zu Schwimmen",
                "Das traditionelle Kartenspiel ist "
                "regional auch als 31, Einunddreißig, Knack, Schnauz oder Schnauzer bekannt.",
            ),
            _c(
                "s000",
                13,
                "31 und Feuer",
                "Die Höchstzahl in einer Farbe ist 31: ein Ass und zwei Karten mit 10 Punkten.",
            ),
        ),
        ("maximum.points", "maximum.at_deal", "maximum.in_play"),
    ),
    Term(
        "tauschen",
        "to swap",
        "The ordinary move: one hand card for one middle card, or the whole hand for the whole "
        "middle.",
        (
            _c(
                "s000",
                25,
                "Ein Zug: tauschen oder schieben",
                "eine deiner Karten gegen eine Karte aus der Mitte tauschen,",
            ),
        ),
        ("turns.move", "turns.swaps"),
    ),
    Term(
        "schieben / passen",
        "to pass",
        "To do nothing on one's turn. Some rulesets limit it (once a deal, or a duty to swap "
        "next time); when everybody passes in a row the middle may be replaced.",
        (
            _c(
                "s000",
                27,
                "Ein Zug: tauschen oder schieben",
                'passen, auch "schieben" genannt, also nichts tun.',
            ),
            _c("s001", 17, "Schieben", "Wer nicht tauschen will, schiebt."),
        ),
        ("turns.passing", "all_pass.replacement"),
    ),
    Term(
        "klopfen",
        "to knock",
        "To announce that one is content: every other player has one more turn, then all "
        "hands are shown. In most sources it replaces a move.",
        (
            _c(
                "s002",
                12,
                "Kurz erklärt",
                "Klopfen: Du schlägst mit der Hand auf den Tisch, statt zu tauschen.",
            ),
            _c(
                "s001",
                19,
                "Klopfen",
                "Wer mit seinem Blatt zufrieden ist, klopft auf den Tisch statt zu tauschen.",
            ),
        ),
        ("knocking.form", "knocking.then"),
    ),
    Term(
        "schließen",
        "to close",
        "pagat.com's word for knocking, done at the end of one's own move; in the Dutch game "
        "every player may close for himself.",
        (
            _c(
                "s000",
                35,
                "Schließen und Rundenende",
                'pagat.com als "Schließen" am Ende des eigenen Zuges',
            ),
            _c(
                "s000",
                55,
                "Bekannte Varianten",
                "In den Niederlanden muss man laut pagat.com "
                "in jedem Zug tauschen oder für sich schließen.",
            ),
        ),
        ("knocking.form", "knocking.per_round"),
    ),
    Term(
        "letzte Runde",
        "last round",
        "In Tri Palki, what a player with 31 may announce instead of showing it: everybody "
        "else has one more turn.",
        (
            _c(
                "s000",
                59,
                "Tri Palki aus Russland",
                'Wer 31 hat, darf "letzte Runde" ansagen, muss es aber nicht',
            ),
        ),
        ("knocking.requires",),
    ),
    Term(
        "Feuer",
        "fire: three aces",
        "Three aces. Where a ruleset has Feuer it ends the round at once and every other player "
        "loses; pagat.com counts it 32, above a 31.",
        (
            _c("s000", 13, "31 und Feuer", 'Bei pagat.com heißen drei Asse "Feuer" und zählen 32.'),
            _c("s002", 15, "Kurz erklärt", "Feuer: Drei Asse auf deiner Hand."),
        ),
        ("three_aces.kind", "three_aces.penalty"),
    ),
    Term(
        "Feuer light",
        "light fire: three sevens",
        "A house rule in which three sevens act like a lesser Feuer.",
        (
            _c(
                "s001",
                25,
                "Varianten",
                'Manche Runden lassen drei Siebener („Feuer light") '
                "oder 32 Punkte durch drei Asse gelten.",
            ),
        ),
        ("three_sevens.kind",),
    ),
    Term(
        "Drilling",
        "triple, three of a kind",
        "Three cards of one rank. Most rulesets count a triple 30½ whatever its suits; some "
        "count only some triples, 30, or nothing.",
        (
            _c(
                "s000",
                9,
                "Karten, Marken und Ziel",
                "Pagat.com gibt jedem Drilling 30,5 Punkte, außer drei Assen",
            ),
            _c(
                "s003",
                22,
                "Wertung und Zugübersicht",
                "Drei Karten desselben Rangs zählen unabhängig von ihren Farben 30½ Punkte.",
            ),
        ),
        ("triples.points", "triples.ranks", "triples.order"),
    ),
    Term(
        "Farbe",
        "suit",
        "Kreuz (clubs ♣), Pik (spades ♠), Herz (hearts ♥), Karo (diamonds ♦). Only cards "
        "of one suit count together; pagat.com breaks ties in this order.",
        (
            _c("s000", 9, "Karten, Marken und Ziel", "Gezählt werden nur Karten derselben Farbe"),
            _c("s000", 41, "Wer ein Leben verliert", "Kreuz, Pik, Herz, Karo"),
        ),
        ("cards.suits", "comparison.suit_order"),
    ),
    Term(
        "Skatblatt",
        "Skat pack",
        "The 32-card pack from seven to ace used by most rulesets.",
        (
            _c(
                "s000",
                7,
                "Karten, Marken und Ziel",
                "Gespielt wird mit einem Skatblatt aus 32 Karten, Sieben bis Ass in vier Farben.",
            ),
        ),
        ("cards.ranks",),
    ),
    Term(
        "Geber",
        "dealer",
        "The player who deals; the player to his left starts, and the deal moves on after "
        "every round.",
        (
            _c(
                "s002",
                23,
                "Aufbau und Austeilen",
                "Ein Spieler gibt die Karten aus, das ist der Geber.",
            ),
        ),
        ("dealing.procedure", "match.dealer_rotation"),
    ),
    Term(
        "Extrahand",
        "extra hand",
        "In pagat.com's deal, the spare hand the dealer may take unseen instead of his own.",
        (
            _c(
                "s000",
                19,
                "Geben",
                "Er schaut sich seine eigenen Karten an und entscheidet, ob "
                "er sie behält oder die Extrahand nimmt, bevor er diese gesehen hat.",
            ),
        ),
        ("dealing.procedure",),
    ),
    Term(
        "Mitte / Tischkarten",
        "the middle, the table cards",
        "The open cards in the middle of the table that players swap with.",
        (
            _c("s002", 14, "Kurz erklärt", "Tischkarten: Die drei offenen Karten in der Mitte."),
            _c(
                "s001",
                13,
                "Geben",
                "Die drei nicht gewählten Karten liegen offen als Tauschkarten in der Mitte.",
            ),
        ),
        ("cards.middle_size", "dealing.middle_visibility"),
    ),
    Term(
        "Stapel",
        "stock",
        "The face-down rest of the pack from which a middle is replaced (or, in Scat, drawn).",
        (
            _c(
                "s000",
                29,
                "Ein Zug: tauschen oder schieben",
                "Passen bei pagat.com alle "
                "Spieler hintereinander, werden die drei Karten in der Mitte durch drei neue vom "
                "Stapel ersetzt",
            ),
        ),
        ("dealing.rest_of_pack", "all_pass.replacement"),
    ),
    Term(
        "Ablage / Ablagestapel",
        "discard pile",
        "In the draw-and-discard game Scat, the open pile a player may draw from instead of "
        "the stock.",
        (_c("s004", 19, "Die Gabe", "Eine Karte wird aufgedeckt und beginnt den Ablagestapel."),),
        ("draw.rediscard",),
    ),
    Term(
        "ausgewaschen",
        "washed out",
        "In Tri Palki, a middle of three cards of one suit leaves play and three new cards "
        "are turned up.",
        (
            _c(
                "s000",
                59,
                "Tri Palki aus Russland",
                "Liegen in der Mitte drei Karten derselben "
                'Farbe, werden sie "ausgewaschen": Sie kommen aus dem Spiel, und drei neue '
                "werden aufgedeckt.",
            ),
        ),
        ("washout.rule",),
    ),
    Term(
        "aufdecken",
        "to show the hands",
        "The showdown at the end of a round: everybody lays his cards open and the lowest "
        "hand loses.",
        (
            _c(
                "s002",
                30,
                "So läuft eine Runde",
                "Danach decken alle Spieler gleichzeitig ihre drei Handkarten auf.",
            ),
        ),
        ("penalties.lowest",),
    ),
    Term(
        "Leben",
        "life",
        "What a player loses at a showdown; most rulesets start with three.",
        (_c("s002", 13, "Kurz erklärt", "Leben: Jeder Spieler startet mit drei Leben."),),
        ("lives.count",),
    ),
    Term(
        "Marke / Spielmarke",
        "token",
        "A counter (a match, a chip, a coin) that stands for a life; a loser gives one up.",
        (
            _c("s000", 7, "Karten, Marken und Ziel", "Die Marken sind die Leben."),
            _c(
                "s000",
                41,
                "Wer ein Leben verliert",
                "Wer am Ende die wenigsten Punkte hat, gibt eine Marke ab",
            ),
        ),
        ("lives.counting",),
    ),
    Term(
        "Stock",
        "stick",
        "In Tri Palki a loser receives a stick instead of giving up a token; counting goes up.",
        (
            _c(
                "s000",
                59,
                "Tri Palki aus Russland",
                "Der Verlierer bekommt einen Stock, wer "
                "mit drei Stöcken noch einmal verliert, scheidet aus.",
            ),
        ),
        ("lives.counting",),
    ),
    Term(
        "untergehen / ertrinken",
        "to go under, to drown",
        "What happens to a swimming player who loses again: he is out of the match.",
        (
            _c(
                "s000",
                45,
                "Schwimmen und Untergehen",
                "verliert er aber noch einmal, geht er unter und scheidet aus",
            ),
            _c(
                "s001",
                23,
                "Leben, Schwimmen und Spielende",
                'scheidet aber beim nächsten verlorenen Vergleich aus („ertrinkt")',
            ),
        ),
        ("lives.after_last", "lives.multi_loss"),
    ),
    Term(
        "Runde",
        "round (a deal, or one round of turns)",
        "The sources use the word both for a whole deal and for one round of turns; the spec "
        "reads each use in context (rules-matrix U35).",
        (
            _c("s000", 37, "Schließen und Rundenende", "Die Runde ist damit vorbei"),
            _c(
                "s000",
                29,
                "Ein Zug: tauschen oder schieben",
                "Wer in einer Runde passt, muss in der nächsten eine oder drei Karten tauschen",
            ),
        ),
        ("turns.passing",),
    ),
    Term(
        "Partie",
        "match",
        "A whole game until one player is left; the online site scores a point per match won.",
        (
            _c(
                "s000",
                45,
                "Schwimmen und Untergehen",
                "Das Spiel läuft, bis nur noch ein Spieler übrig ist, der gewinnt die Partie",
            ),
        ),
        ("match.series",),
    ),
    Term(
        "Schnauz, Knack, Hosen runter",
        "other names of the game",
        "Regional names of Schwimmen.",
        (_c("s000", 3, "Einleitung", 'Andere Namen sind 31, Schnauz, Knack und "Hosen runter"'),),
    ),
)
