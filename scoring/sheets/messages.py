"""Problems of the rules engine as German or English sentences.

`rules` reports a problem as data (a rule id from docs/rules.md, hand, seat,
params); this module is the only place that turns it into words. Every message names
the table, the hand and the seat (with the player's name) it concerns and ends with the
rule id, e.g. "Table 3, hand 7, seat 2 (Anna Müller): hand points 1 are below the
minimum of 2 [hand.loser-below-minimum]". Codes starting with ``input.`` are not rules
but malformed input found while reading the page (no rule id is shown for them).
"""

from __future__ import annotations

from collections.abc import Sequence

from django.utils.translation import gettext as _

from rules import RULES, Problem
from scoring.sheets.rule_texts import rule_text


def seat_label(index, seat_names: Sequence[str]) -> str:
    """'seat 2 (Anna Müller)' for a 0-based index."""
    if not isinstance(index, int) or isinstance(index, bool):
        return str(index)
    if 0 <= index < len(seat_names):
        return _("seat %(seat)d (%(name)s)") % {"seat": index + 1, "name": seat_names[index]}
    return _("seat %(seat)d") % {"seat": index + 1}


def _text(problem: Problem, seat_names: Sequence[str]) -> str:
    code = problem.code
    p = dict(problem.params or {})
    # Card notation
    if code == "card.unknown-token":
        return _("“%(token)s” (card %(position)s) is not a card") % {
            "token": p.get("token", ""),
            "position": p.get("position", "?"),
        }
    if code == "card.missing-suit":
        return _("“%(token)s” (card %(position)s) needs a suit here") % {
            "token": p.get("token", ""),
            "position": p.get("position", "?"),
        }
    # One hand
    if code == "hand.table-size":
        return _(
            "a table of %(table_size)s players is outside this rule set's range of "
            "%(min)s to %(max)s players"
        ) % {"table_size": p.get("table_size"), "min": p.get("min"), "max": p.get("max")}
    if code == "hand.seat-count":
        return _("the hand lists %(seats)s seats, but the table has %(table_size)s") % p
    if code == "hand.dealer-out-of-range":
        return _("the dealer (%(dealer)s) is not a seat at this table") % {
            "dealer": seat_label(p.get("dealer"), seat_names)
        }
    if code == "hand.winner-out-of-range":
        return _("the player who went out (%(winner)s) is not a seat at this table") % {
            "winner": seat_label(p.get("winner"), seat_names)
        }
    if code == "hand.no-winner":
        return _(
            "nobody went out, but this rule set needs one player to go out (type 0 for that player)"
        )
    if code == "hand.winner-not-marked":
        return _("this player holds nothing, but nobody is marked as the one who went out")
    if code == "hand.several-winners":
        return _(
            "a second player with 0 hand points; only one player can go out: %(winner)s did"
        ) % {"winner": seat_label(p.get("winner"), seat_names)}
    if code == "hand.winner-holds-cards":
        return _(
            "the player who went out holds no cards, but %(hand_points)s hand points are written"
        ) % {"hand_points": p.get("hand_points")}
    if code == "hand.hand-romme-not-winner":
        return _("hand Rommé is marked, but only the player who went out can have a hand Rommé")
    if code == "hand.loser-points-missing":
        return _("hand points or cards are missing")
    if code == "hand.loser-below-minimum":
        return _("hand points %(hand_points)s are below the minimum of %(minimum)s") % p
    if code == "hand.loser-above-maximum":
        return (
            _(
                "hand points %(hand_points)s are above the most a hand can hold "
                "under this rule set (%(maximum)s)"
            )
            % p
        )
    if code == "hand.total-above-maximum":
        return (
            _(
                "the losers' hand points add up to %(total)s, more than the deck can hold "
                "(%(maximum)s)"
            )
            % p
        )
    if code == "hand.too-many-cards":
        return _("%(cards)s cards are written, but a hand holds at most %(maximum)s") % p
    if code == "hand.points-cards-mismatch":
        return (
            _(
                "the hand points written (%(hand_points)s) do not match the cards written "
                "(%(cards_points)s)"
            )
            % p
        )
    if code == "hand.card-count-exceeds-deck":
        return _("%(card)s appears %(count)s times at the table, but the deck holds %(deck)s") % p
    if code == "hand.melded-value-missing":
        return _("the melded value is missing; this scoring profile needs it for every player")
    if code == "hand.melded-negative":
        return _("the melded value %(melded)s cannot be negative") % p
    if code == "hand.melded-above-maximum":
        return (
            _("the melded value %(melded)s exceeds the value of the whole deck (%(maximum)s)") % p
        )
    if code == "hand.melded-below-first-meld":
        return (
            _(
                "the melded value %(melded)s is below the first-meld minimum of %(minimum)s "
                "(write 0 if the player did not meld)"
            )
            % p
        )
    if code == "hand.winner-melded-nothing":
        return _("the player who went out must have melded something")
    # A whole sheet
    if code == "series.no-hands":
        return _("the sheet has no hands")
    if code == "series.dealer-rotation":
        return _(
            "%(dealer)s deals, but the deal passes clockwise, so %(expected)s deals this hand"
        ) % {
            "dealer": seat_label(p.get("dealer"), seat_names),
            "expected": seat_label(p.get("expected"), seat_names),
        }
    if code == "series.unequal-deals":
        deals = p.get("deals") or []
        per_seat = ", ".join(
            _("%(seat)s %(count)s times") % {"seat": seat_label(i, seat_names), "count": d}
            for i, d in enumerate(deals)
        )
        return _(
            "not everyone has dealt equally often (%(deals)s); the sheet needs complete rounds"
        ) % {"deals": per_seat}
    if code == "series.round-count":
        return (
            _(
                "the sheet has %(hands)s hands, but %(planned_rounds)s rounds are planned "
                "(%(expected_hands)s hands)"
            )
            % p
        )
    # Rule sets
    if code == "ruleset.unknown-preset":
        return _("there is no preset “%(slug)s”") % {"slug": p.get("slug")}
    if code == "ruleset.unknown-field":
        return _("a rule set has no setting “%(field)s”") % {"field": p.get("field")}
    if code == "ruleset.bad-type":
        return _("the setting “%(field)s” has a value of the wrong type") % {
            "field": p.get("field")
        }
    if code == "ruleset.negative-jokers":
        return _("the number of jokers cannot be negative")
    if code == "ruleset.negative-first-meld":
        return _("the first-meld minimum cannot be negative")
    if code == "ruleset.bad-value":
        return _("the setting “%(field)s” is out of its allowed range (%(value)s)") % {
            "field": p.get("field"),
            "value": p.get("value"),
        }
    # Malformed input (not rules)
    if code == "input.negative":
        return _("“%(text)s”: hand points cannot be negative") % {"text": p.get("text", "")}
    if code == "input.too-large":
        return _("“%(text)s” is too large for hand points") % {"text": p.get("text", "")}
    if code == "input.too-long":
        return _("the cards written are too long to store") % {}
    if code == "input.melded-not-a-number":
        return _("the melded value “%(text)s” is not a whole number") % {"text": p.get("text", "")}
    if code == "input.melded-too-large":
        return _("the melded value “%(text)s” is too large") % {"text": p.get("text", "")}
    if code == "input.bad-first-dealer":
        return _("the first dealer is not a seat at this table")
    text = rule_text(code, p)
    if text is not None:
        return text
    if code in RULES:
        return RULES[code].summary
    return code


def problem_message(
    problem: Problem, *, table_number: int | None, seat_names: Sequence[str]
) -> str:
    """One sentence for a problem, naming table, hand and seat, ending with the rule id."""
    try:
        text = _text(problem, seat_names)
    except (KeyError, TypeError, ValueError):
        # Parameters not as expected: the registry's summary is always right.
        text = RULES[problem.code].summary if problem.code in RULES else problem.code
    where = []
    if table_number is not None:
        where.append(_("Table %(table)s") % {"table": table_number})
    if problem.hand is not None:
        where.append(_("hand %(hand)s") % {"hand": problem.hand})
    if problem.seat is not None:
        where.append(seat_label(problem.seat, seat_names))
    prefix = ", ".join(where)
    message = _("%(where)s: %(text)s") % {"where": prefix, "text": text} if prefix else text
    if problem.code in RULES:
        message = f"{message} [{problem.code}]"
    return message


def problem_order(problem: Problem) -> tuple:
    """Reading order of the sheet: problems of the whole sheet first, then by hand, then a
    hand's own problems before its seats' in seat order (stable: equal keys keep the
    engine's order)."""

    def place(value):
        return (0, 0) if not isinstance(value, int) else (1, value)

    return (place(problem.hand), place(problem.seat))


def problem_field(problem: Problem) -> str | None:
    """The id of the input a problem names (as the entry page writes them), or None when it
    names no single input (a whole hand, the whole sheet)."""
    hand, seat = problem.hand, problem.seat
    if problem.code == "input.bad-first-dealer":
        return "first-dealer"
    if not isinstance(hand, int):
        return None
    if seat is None:
        return f"romme-{hand}" if problem.code == "hand.hand-romme-not-winner" else None
    if not isinstance(seat, int):
        return None
    prefix = "melded" if "melded" in problem.code else "cell"
    return f"{prefix}-{hand}-{seat + 1}"


def problem_dicts(problems, *, table_number, seat_names) -> list[dict]:
    """Problems as JSON-ready dicts for the page, in hand and seat order: code, hand, seat
    (0-based), message, ``id`` of the message, the input it names (``field``) and the anchor
    a link to it goes to (``target``: that input, else the hand's first cell, else the
    grid)."""
    out = []
    for number, p in enumerate(sorted(problems, key=problem_order), start=1):
        field = problem_field(p)
        target = field
        if target is None:
            target = f"cell-{p.hand}-1" if isinstance(p.hand, int) else "sheet-grid"
        out.append(
            {
                "code": p.code,
                "hand": p.hand,
                "seat": p.seat,
                "message": problem_message(p, table_number=table_number, seat_names=seat_names),
                "id": f"sheet-problem-{number}",
                "field": field,
                "target": target,
            }
        )
    return out


def change_message(change, *, seat_names: Sequence[str]) -> str:
    """One changed cell of a sheet, e.g. "Hand 7, seat 2 (Anna Müller): 17 → 19"."""
    old = change.old if change.old != "" else "–"
    new = change.new if change.new != "" else "–"
    if change.field == "first_dealer":

        def name(value):
            try:
                return seat_label(int(value), seat_names)
            except ValueError:
                return value

        return _("First dealer: %(old)s → %(new)s") % {"old": name(old), "new": name(new)}
    if change.field == "hand_romme":
        if change.new:
            return _("Hand %(hand)s: hand Rommé marked") % {"hand": change.hand}
        return _("Hand %(hand)s: hand Rommé no longer marked") % {"hand": change.hand}
    values = {
        "hand": change.hand,
        "seat": seat_label(change.seat, seat_names),
        "old": old,
        "new": new,
    }
    if change.field == "melded":
        return _("Hand %(hand)s, %(seat)s, melded value: %(old)s → %(new)s") % values
    return _("Hand %(hand)s, %(seat)s: %(old)s → %(new)s") % values
