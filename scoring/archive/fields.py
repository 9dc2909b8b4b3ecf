"""Model fields as the archive sees them, shared by `dump` and `load`: which fields are
written, which point at users, and how ids in stored JSON are renumbered on import."""

from __future__ import annotations

from functools import cache

from django.contrib.auth import get_user_model


def user_model():
    return get_user_model()


def is_user_fk(f) -> bool:
    return f.is_relation and f.many_to_one and f.related_model is user_model()


def model_fields(model, skip=()) -> tuple:
    """The concrete fields that travel: no primary key, no relation other than to a user,
    nothing the model computes itself (``editable=False``, e.g. ``Player.name_key``)
    except automatic timestamps, which are kept for the audit trail."""
    return _model_fields(model, tuple(skip))


# Models do not change while the program runs; asking again cost a live push a tenth of its
# dump (get_user_model for every field of every row: bench in docs/performance-log.md).
@cache
def _model_fields(model, skip: tuple) -> tuple:
    out = []
    for f in model._meta.concrete_fields:
        if f.primary_key or f.name in skip:
            continue
        if f.is_relation and not is_user_fk(f):
            continue
        auto_time = getattr(f, "auto_now_add", False) or getattr(f, "auto_now", False)
        if not f.editable and not auto_time:
            continue
        out.append(f)
    return tuple(out)


@cache
def field_plan(model, skip: tuple = ()) -> tuple[tuple[str, str, bool], ...]:
    """(name, attname, points at a user) of each field that travels: what a dump reads
    for every row."""
    return tuple((f.name, f.attname, is_user_fk(f)) for f in model_fields(model, skip))


def remap(value, mapping: dict[int, int]):
    """Participant ids inside series JSON (draw violations, playoffs) as refs, or back."""
    if isinstance(value, list):
        return [mapping.get(v) if isinstance(v, int) else v for v in value]
    return value


def remap_series_json(data: dict, mapping: dict[int, int]) -> None:
    violations = data.get("draw_violations")
    if isinstance(violations, list):
        data["draw_violations"] = [
            {**v, "players": remap(v.get("players"), mapping)}
            if isinstance(v, dict) and "players" in v
            else v
            for v in violations
        ]
    playoff = data.get("playoff_of")
    if isinstance(playoff, dict) and "participants" in playoff:
        data["playoff_of"] = {**playoff, "participants": remap(playoff["participants"], mapping)}
