"""Standings in the reader's language: competition and scope names, metric labels and
descriptions (from `rules.standings.metrics`), why a row stands above the next, and which
tie policy ranked the players."""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from rules.standings import core, metrics

INDIVIDUAL, PAIR, TEAM = "individual", "pair", "team"
COMPETITIONS = (INDIVIDUAL, PAIR, TEAM)
OVERALL, SERIES, DAY = "overall", "series", "day"
SCOPES = (OVERALL, SERIES, DAY)
COMPETITION_LABELS = {
    INDIVIDUAL: gettext_lazy("Individual"),
    PAIR: gettext_lazy("Pairs"),
    TEAM: gettext_lazy("Teams"),
}


SCOPE_LABELS = {
    OVERALL: gettext_lazy("Overall"),
    SERIES: gettext_lazy("Per series"),
    DAY: gettext_lazy("Per day"),
}


# Labels of reasons that are not metrics (a playoff, a season's average).
OTHER_LABELS = {
    metrics.PLAYOFF: gettext_lazy("Playoff"),
    "average": gettext_lazy("Average"),
}


def metric_label(key: str) -> str:
    """The reader's-language label of a metric key (or of a non-metric reason)."""
    metric = metrics.METRICS.get(key)
    if metric is not None:
        return _(metric.label)
    return str(OTHER_LABELS.get(key, key))


def metric_description(key: str) -> str:
    metric = metrics.METRICS.get(key)
    return _(metric.description) if metric is not None else ""


def reason_text(reason: core.Reason | None) -> str:
    """Why a row stands above the next one, in the reader's language."""
    if reason is None:
        return ""
    if reason.metric == metrics.SHARED:
        return _("Equal with the next row on the whole tie-break chain: they share the rank.")
    if reason.metric == metrics.MINIMUM_SERIES:
        return _(
            "Played the minimum number of series (%(this)s), the next row has not (%(next)s)."
        ) % {"this": reason.this, "next": reason.next}
    if reason.metric == metrics.PLAYOFF:
        return _("Decided by the playoff: place %(this)s against %(next)s.") % {
            "this": "–" if reason.this is None else reason.this,
            "next": "–" if reason.next is None else reason.next,
        }
    return _("Ahead of the next row on “%(metric)s”: %(this)s against %(next)s.") % {
        "metric": metric_label(reason.metric),
        "this": _number(reason.this),
        "next": _number(reason.next),
    }


def _number(value) -> str:
    if isinstance(value, float):
        return f"{value:.2f}"
    return str(value)


def tie_policy_text(policy: str) -> str:
    """Which policy ranked the players (standings pages and exports)."""
    if policy == "playoff":
        return _(
            "Ties: players level on total share the rank and play a playoff where it "
            "matters (the rule set's tie policy)."
        )
    return _("Ties: the tie-break chain separates players level on total.")


def tie_policy_label(policy: str) -> str:
    """A short form for titles: "ties: playoff" or "ties: tie-break chain"."""
    if policy == "playoff":
        return _("ties: playoff")
    return _("ties: tie-break chain")


def incomplete_text(series: dict, *, provisional: bool) -> str:
    """One series of `EventStanding.incomplete_series` as a sentence for the pages."""
    params = {"number": series["number"], "open": series["open_tables"], "tables": series["tables"]}
    if provisional:
        return (
            _(
                "Series %(number)s: at %(open)s of %(tables)s tables no sheet is entered yet; "
                "whoever plays there has no points for this series yet."
            )
            % params
        )
    return (
        ngettext(
            "Series %(number)s: at %(open)s of %(tables)s tables the sheet is not confirmed "
            "yet; whoever plays there has no points for this series yet.",
            "Series %(number)s: at %(open)s of %(tables)s tables the sheets are not confirmed "
            "yet; whoever plays there has no points for this series yet.",
            params["open"],
        )
        % params
    )


def incomplete_short(series: dict) -> str:
    """The same for the hall display: a few words beside a panel's title."""
    return _("S%(number)s: %(open)s of %(tables)s tables open") % {
        "number": series["number"],
        "open": series["open_tables"],
        "tables": series["tables"],
    }
