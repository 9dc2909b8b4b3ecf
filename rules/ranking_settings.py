"""The settings of a federation's ranking list, their checks and messages (pure Python).

`rules.ranking` computes the list and re-exports the public names; docs/rules.md
"Ranglisten (Verband)" states the rules. Messages are data: RankingError carries `code`,
`params` and an English msgid marked with `gettext_noop`; the page says it in German with
`err.message(gettext)`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from types import MappingProxyType

PLACES = "places"
AVERAGE_PER_HAND = "average_per_hand"
FORMULAS = (PLACES, AVERAGE_PER_HAND)
RANKING_TOURNAMENT = "ranking"
CHAMPIONSHIP = "championship"
DEFAULT_FACTORS = {RANKING_TOURNAMENT: Decimal(1), CHAMPIONSHIP: Decimal(2)}
UNITS = 200  # event points are halves times factors in cents: points * 200 is whole
MAX_MONTHS, MAX_COUNT, MAX_FIELD, MAX_HANDS = 120, 1000, 100_000, 1_000_000
MAX_FACTOR = Decimal(100)
MAX_SCORE = 10**12
# why a result in the window does not count
FIELD_SMALL, SERIES_FEW, DISQUALIFIED = "field-small", "series-few", "disqualified"
# why a player is not listed ("nicht gelistet")
MIN_EVENTS, MIN_HANDS = "min-events", "min-hands"


def gettext_noop(text: str) -> str:
    """Mark a msgid for makemessages without importing Django (as in standings.metrics)."""
    return text


RANKING_ERRORS: dict[str, str] = {
    "ranking.window": gettext_noop(
        "The window must be a whole number of months from 1 to %(max)s."
    ),
    "ranking.factors": gettext_noop("Name at least one event class with its factor."),
    "ranking.factor": gettext_noop(
        "The factor of the event class “%(event_class)s” must be a number from 0 to %(max)s "
        "with at most two decimal places."
    ),
    "ranking.count": gettext_noop(
        "The setting “%(setting)s” must be a whole number from %(min)s to %(max)s."
    ),
    "ranking.formula": gettext_noop(
        "The formula must be “places” (points by place) or “average_per_hand” (average per hand)."
    ),
    "ranking.unknown-setting": gettext_noop("A ranking has no setting “%(setting)s”."),
    "ranking.as-of": gettext_noop("The ranking date is not a date."),
    "ranking.not-a-result": gettext_noop("Result %(position)s is not an event result."),
    "ranking.date": gettext_noop("Event %(event)s has no valid date."),
    "ranking.event-class": gettext_noop(
        "Event %(event)s has the event class “%(event_class)s”, which this ranking does not count."
    ),
    "ranking.field-size": gettext_noop(
        "Event %(event)s: the field size must be a whole number from 1 to %(max)s."
    ),
    "ranking.series": gettext_noop(
        "Event %(event)s: the number of series must be a whole number from 0 to %(max)s."
    ),
    "ranking.event-mismatch": gettext_noop(
        "Event %(event)s is given with different dates, classes, field sizes or series."
    ),
    "ranking.place": gettext_noop(
        "Event %(event)s: player %(player)s has place %(place)s, not one from 1 to %(field_size)s."
    ),
    "ranking.hands": gettext_noop(
        "Event %(event)s: player %(player)s has %(hands)s hands, not a whole number from 0 to "
        "%(max)s."
    ),
    "ranking.score": gettext_noop(
        "Event %(event)s: the score of player %(player)s is not a whole number."
    ),
    "ranking.score-without-hands": gettext_noop(
        "Event %(event)s: player %(player)s has a score but no hands played."
    ),
    "ranking.duplicate": gettext_noop("Player %(player)s has two results in event %(event)s."),
    "ranking.field-overfull": gettext_noop(
        "Event %(event)s has %(results)s results for a field of %(field_size)s players."
    ),
    "ranking.place-overlap": gettext_noop(
        "Event %(event)s: %(tied)s players share place %(place)s, so the next place is "
        "%(next)s or later, not %(given)s."
    ),
}


class RankingError(ValueError):
    """Bad settings or results: `code` (a key of RANKING_ERRORS, or of the qualification's
    errors), `params` for the message, `number` the 1-based result or None."""

    def __init__(self, code: str, template: str, number: int | None = None, **params):
        self.code, self.template, self.number, self.params = code, template, number, params
        super().__init__(self.message())

    def message(self, translate=lambda text: text) -> str:
        """The message, translated by `translate` (the page passes gettext)."""
        return translate(self.template) % self.params


def _error(code: str, number: int | None = None, **params) -> RankingError:
    return RankingError(code, RANKING_ERRORS[code], number, **params)


def _whole(value, low: int, high: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and low <= value <= high


def _factor(event_class, value) -> Decimal:
    """A class factor from a form or stored JSON: a number or text ("1,5" too), 0 to 100,
    cents at most (a JSON number arrives as a float: its shortest repr is what was meant)."""
    if isinstance(value, float):
        value = repr(value)
    if isinstance(value, str):
        value = value.strip()
        value = value.replace(",", ".") if value.count(",") == 1 and "." not in value else value
    try:
        number = None if isinstance(value, bool) else Decimal(value)
    except (InvalidOperation, TypeError, ValueError):
        number = None
    if (
        number is None
        or not number.is_finite()
        or not 0 <= number <= MAX_FACTOR
        or number != number.quantize(Decimal("0.01"))
    ):
        raise _error("ranking.factor", event_class=event_class, max=MAX_FACTOR)
    return number


@dataclass(frozen=True)
class RankingSettings:
    """A ranking's settings, checked when made (RankingError naming the setting)."""

    window_months: int = 24
    class_factors: Mapping[str, Decimal] = field(default_factory=lambda: dict(DEFAULT_FACTORS))
    best_n: int = 5
    min_events: int = 2
    formula: str = PLACES
    min_hands: int = 48
    min_field: int = 0  # 0: no minimum (DDV: 32 players)
    min_series: int = 0  # 0: no minimum (DDV: 3 rounds)

    def __post_init__(self):
        if not _whole(self.window_months, 1, MAX_MONTHS):
            raise _error("ranking.window", max=MAX_MONTHS)
        if not isinstance(self.class_factors, Mapping) or not self.class_factors:
            raise _error("ranking.factors")
        factors = {}
        for name, value in self.class_factors.items():
            if not isinstance(name, str) or not name.strip():
                raise _error("ranking.factors")
            factors[name] = _factor(name, value)
        object.__setattr__(self, "class_factors", MappingProxyType(factors))
        for name, low, high in (
            ("best_n", 1, MAX_COUNT),
            ("min_events", 1, MAX_COUNT),
            ("min_hands", 1, MAX_HANDS),
            ("min_field", 0, MAX_FIELD),
            ("min_series", 0, MAX_COUNT),
        ):
            if not _whole(getattr(self, name), low, high):
                raise _error("ranking.count", setting=name, min=low, max=high)
        if self.formula not in FORMULAS:
            raise _error("ranking.formula")

    def __hash__(self):
        plain = tuple(getattr(self, n) for n in SETTING_NAMES if n != "class_factors")
        return hash((plain, tuple(self.class_factors.items())))

    def as_json(self) -> dict:
        """The settings as stored (factors as strings)."""
        out = {name: getattr(self, name) for name in SETTING_NAMES}
        out["class_factors"] = {k: str(v) for k, v in self.class_factors.items()}
        return out

    @classmethod
    def from_json(cls, raw: Mapping) -> RankingSettings:
        """Settings from stored JSON; missing settings take their defaults."""
        if not isinstance(raw, Mapping):
            raise _error("ranking.unknown-setting", setting=type(raw).__name__)
        for name in raw:
            if name not in SETTING_NAMES:
                raise _error("ranking.unknown-setting", setting=name)
        return cls(**raw)

    @property
    def counts_best(self) -> bool:
        """Whether only the best `best_n` results count (formula "places")."""
        return self.formula == PLACES


SETTING_NAMES = (
    "window_months",
    "class_factors",
    "best_n",
    "min_events",
    "formula",
    "min_hands",
    "min_field",
    "min_series",
)


@dataclass(frozen=True)
class Explanation:
    """One line a page prints: `template` is an English msgid (gettext_noop), `params` its
    values (keys, numbers, dates: the page decides how each is shown)."""

    code: str
    template: str
    params: Mapping = field(default_factory=dict)

    def text(self, translate=lambda text: text, show=lambda name, value: str(value)) -> str:
        """The line, translated by `translate`; `show(name, value)` writes each parameter
        (a player's or region's name for its key, a German date, "1,5" for 1.5)."""
        return translate(self.template) % {k: show(k, v) for k, v in self.params.items()}


SETTING_TEXTS: dict[str, str] = {
    "window": gettext_noop(
        "Window: the %(months)s months up to the ranking date; an event on the first day of "
        "the window no longer counts."
    ),
    "places": gettext_noop(
        "Points per event: field size − place + 1; players tied on a place share the average "
        "of the points of the places they occupy; times the factor of the event class."
    ),
    "factor": gettext_noop("Factor of the event class “%(event_class)s”: %(factor)s."),
    "best_n": gettext_noop(
        "The best %(best_n)s results count; further results are dropped (shown in brackets)."
    ),
    "average": gettext_noop(
        "Ranking value: points per hand over every result in the window (factor × score "
        "divided by factor × hands); listed with at least %(min_hands)s hands."
    ),
    "min_events": gettext_noop("Listed with at least %(min_events)s events."),
    "min_field": gettext_noop("An event counts only with at least %(min_field)s players."),
    "min_series": gettext_noop("An event counts only with at least %(min_series)s series."),
    "ties": gettext_noop(
        "Equal values: more events counted rank higher, then the better best result; "
        "otherwise the rank is shared."
    ),
}


def describe(settings: RankingSettings) -> tuple[Explanation, ...]:
    """Every setting as a line for the ranking's page (the issue: shown with the list)."""

    def line(code, **params):
        return Explanation(f"ranking.setting.{code}", SETTING_TEXTS[code], params)

    out = [line("window", months=settings.window_months)]
    if settings.formula == PLACES:
        out.append(line("places"))
    else:
        out.append(line("average", min_hands=settings.min_hands))
    out += [line("factor", event_class=k, factor=v) for k, v in settings.class_factors.items()]
    if settings.formula == PLACES:
        out.append(line("best_n", best_n=settings.best_n))
    out.append(line("min_events", min_events=settings.min_events))
    if settings.min_field:
        out.append(line("min_field", min_field=settings.min_field))
    if settings.min_series:
        out.append(line("min_series", min_series=settings.min_series))
    out.append(line("ties"))
    return tuple(out)
