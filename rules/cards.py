"""Cards, their notation, and the composition of a deck.

Notation (case does not matter), as in the rule texts and plain ASCII:

* a suit symbol ``♠ ♥ ♦ ♣`` with a rank ``A 2..10 J Q K`` or the German ``B`` (Bube)
  and ``D`` (Dame), in either order: ``♣B``, ``♠10``, ``10♠``;
* a suit letter ``S H D C`` with a rank ``A 2..10 J Q K``, in either order: ``S10``,
  ``10S``, ``HQ``, ``QH`` (``B``/``D`` are not ranks here: ``D`` is diamonds);
* a joker: ``Jo``, ``Joker``, ``*`` or a bare ``J`` without a suit (``♣B–♣D–J–♣A``);
* with ``allow_suitless=True`` (a hand-points cell) also a rank alone: ``A K 7``,
  ``B`` (Bube), ``D`` (Dame), ``Q``; a bare ``J`` is still a joker.

Separators are spaces, commas, hyphens and en/em dashes.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from enum import Enum, IntEnum

from .problems import Problem


class Suit(Enum):
    """The four French suits; the value is the ASCII letter."""

    SPADES = "S"
    HEARTS = "H"
    DIAMONDS = "D"
    CLUBS = "C"

    @property
    def symbol(self) -> str:
        return _SUIT_SYMBOL[self]


_SUIT_SYMBOL = {Suit.SPADES: "♠", Suit.HEARTS: "♥", Suit.DIAMONDS: "♦", Suit.CLUBS: "♣"}
_SUIT_NUMBER = {None: 0, Suit.SPADES: 1, Suit.HEARTS: 2, Suit.DIAMONDS: 3, Suit.CLUBS: 4}
SUIT_BY_NUMBER = {v: k for k, v in _SUIT_NUMBER.items()}


class Rank(IntEnum):
    """Ranks; the ace is 14 (a run decides whether it stands low), the joker 0."""

    JOKER = 0
    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13
    ACE = 14


NATURAL_RANKS: tuple[Rank, ...] = tuple(r for r in Rank if r is not Rank.JOKER)

_RANK_LABEL = {r: str(int(r)) for r in NATURAL_RANKS if r <= 10}
# German letters for jack and queen, as in the rule texts; a bare J would read as a joker.
_RANK_LABEL.update({Rank.JACK: "B", Rank.QUEEN: "D", Rank.KING: "K", Rank.ACE: "A"})
_RANK_ASCII = dict(_RANK_LABEL)
_RANK_ASCII.update({Rank.JACK: "J", Rank.QUEEN: "Q"})


@dataclass(frozen=True, slots=True)
class Card:
    """A card: a rank and a suit. A joker has rank JOKER and no suit; a card written
    without a suit (hand-points cells) has ``suit=None``."""

    rank: Rank
    suit: Suit | None = None
    #: rank * 5 + suit number (0 without a suit): a cheap key for counting cards
    key: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "key", int(self.rank) * 5 + _SUIT_NUMBER[self.suit])

    @property
    def is_joker(self) -> bool:
        return self.rank == 0

    def __str__(self) -> str:
        if self.rank == 0:
            return "Jo"
        label = _RANK_LABEL[self.rank]
        return label if self.suit is None else self.suit.symbol + label

    def __repr__(self) -> str:
        return f"Card({str(self)!r})"

    @property
    def ascii(self) -> str:
        """Plain-ASCII notation, e.g. ``S10``, ``HQ``, ``Jo``, ``Q``."""
        if self.rank == 0:
            return "Jo"
        label = _RANK_ASCII[self.rank]
        if self.suit is None:
            return "B" if self.rank == Rank.JACK else label
        return self.suit.value + label


JOKER = Card(Rank.JOKER)


class CardParseError(ValueError):
    """A token that is not a card. ``position`` is the 1-based token number,
    ``offset`` the 0-based character offset in the text."""

    def __init__(self, token: str, position: int, offset: int, code: str = "card.unknown-token"):
        self.token = token
        self.position = position
        self.offset = offset
        self.code = code
        self.problem = Problem(code, params={"token": token, "position": position})
        what = "needs a suit" if code == "card.missing-suit" else "is not a card"
        super().__init__(f"{token!r} (token {position}, character {offset + 1}) {what}")


_TOKEN_RE = re.compile(r"[^\s,\-–—]+")
_SYMBOLS = {
    "♠": Suit.SPADES,
    "♤": Suit.SPADES,
    "♥": Suit.HEARTS,
    "♡": Suit.HEARTS,
    "♦": Suit.DIAMONDS,
    "♢": Suit.DIAMONDS,
    "♣": Suit.CLUBS,
    "♧": Suit.CLUBS,
}
_LETTERS = {s.value: s for s in Suit}
_PIPS = {str(n): Rank(n) for n in range(2, 11)}
_RANKS_WITH_LETTER = {**_PIPS, "A": Rank.ACE, "J": Rank.JACK, "Q": Rank.QUEEN, "K": Rank.KING}
_RANKS_WITH_SYMBOL = {**_RANKS_WITH_LETTER, "B": Rank.JACK, "D": Rank.QUEEN}
_RANKS_ALONE = {**_RANKS_WITH_SYMBOL}
del _RANKS_ALONE["J"]  # a bare J is a joker
_JOKER_TOKENS = frozenset({"J", "JO", "JOKER", "*"})

# token (upper-cased) -> Card, or None for a suitless rank (needs allow_suitless).
# Only tokens that read as cards are kept, so it holds at most the few hundred
# spellings of a card, whatever is typed into the cells.
_token_cache: dict[str, Card | None] = {}


def _read_token(tok: str) -> Card | None:
    """Read one upper-cased token; None means a rank without a suit. Raises KeyError."""
    if tok in _JOKER_TOKENS:
        return JOKER
    if tok in _RANKS_ALONE:
        return None
    first, last = tok[0], tok[-1]
    if first in _SYMBOLS:
        return Card(_RANKS_WITH_SYMBOL[tok[1:]], _SYMBOLS[first])
    if last in _SYMBOLS:
        return Card(_RANKS_WITH_SYMBOL[tok[:-1]], _SYMBOLS[last])
    if first in _LETTERS and tok[1:] in _RANKS_WITH_LETTER:
        return Card(_RANKS_WITH_LETTER[tok[1:]], _LETTERS[first])
    if last in _LETTERS and tok[:-1] in _RANKS_WITH_LETTER:
        return Card(_RANKS_WITH_LETTER[tok[:-1]], _LETTERS[last])
    raise KeyError(tok)


def parse_card(token: str, *, allow_suitless: bool = False) -> Card:
    """Parse a single card token (see the module docstring for the notation)."""
    cards = parse_cards(token, allow_suitless=allow_suitless)
    if len(cards) != 1:
        raise CardParseError(token, 1, 0)
    return cards[0]


def parse_cards(text: str, *, allow_suitless: bool = False) -> list[Card]:
    """Parse card notation into cards, in the order written.

    ``allow_suitless=True`` also accepts ranks without a suit (``Jo A K 7``,
    ``J A B 7``), giving cards with ``suit=None``; use it for hand-points cells.
    A bad token raises :class:`CardParseError` naming the token and its position.
    """
    cards: list[Card] = []
    for position, m in enumerate(_TOKEN_RE.finditer(text), start=1):
        raw = m.group()
        tok = raw.upper().replace("\ufe0f", "")
        try:
            card = _token_cache[tok]
        except KeyError:
            try:
                card = _read_token(tok)
            except (KeyError, IndexError):
                raise CardParseError(raw, position, m.start()) from None
            _token_cache[tok] = card
        if card is None:
            if not allow_suitless:
                raise CardParseError(raw, position, m.start(), "card.missing-suit")
            card = Card(_RANKS_ALONE[tok])
        cards.append(card)
    return cards


def parse_hand_cards(text: str) -> list[Card]:
    """Parse a hand-points cell: like :func:`parse_cards` with suitless ranks allowed."""
    return parse_cards(text, allow_suitless=True)


def format_cards(cards, sep: str = "–") -> str:
    """Write cards in the rule texts' notation (``♣B–♣D–Jo–♣A``)."""
    return sep.join(str(c) for c in cards)


def deck(packs: int, jokers: int) -> list[Card]:
    """All cards of a deck: ``packs`` French packs of 52 and ``jokers`` jokers."""
    one_pack = [Card(r, s) for s in Suit for r in NATURAL_RANKS]
    return one_pack * packs + [JOKER] * jokers
