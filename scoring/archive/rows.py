"""Writing archive objects into rows, shared by the archive import (`scoring.archive.load`)
and the live apply (`live.server.apply`), which rebuilds one piece of an event at a time: the
checked field setter (`Loader`) and a sheet's versions (`create_versions`)."""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from collections.abc import Iterable
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext as _

from scoring.archive.fields import is_user_fk, model_fields
from scoring.archive.validate import ArchiveError, json_path, shorten
from scoring.models import SheetVersion


class Loader:
    """Sets model fields from archive objects, collecting the fields this installation
    does not know (one warning per model and field)."""

    def __init__(self, users: dict[str, Any], actor=None):
        self.users = users
        self.actor = actor
        self.unknown: dict[str, set[str]] = defaultdict(set)

    def fill(self, obj, data: dict, path: list, *, skip=(), extra=()) -> Any:
        model = type(obj)
        known = {f.name: f for f in model_fields(model, skip)}
        for key, value in data.items():
            if key in skip or key in extra:
                continue
            f = known.get(key)
            if f is None:
                self.unknown[model._meta.model_name].add(key)
                continue
            if is_user_fk(f):
                setattr(obj, f.attname, None if value is None else self.users[value].pk)
                continue
            try:
                python = f.to_python(value)
                if python is None and not f.null:
                    raise ValidationError(_("may not be null"))
                if not f.blank and python in f.empty_values and not isinstance(python, bool):
                    raise ValidationError(_("may not be empty"))
                if f.choices and python not in {c[0] for c in f.flatchoices} and python != "":
                    raise ValidationError(
                        _("%(value)s is not one of the choices") % {"value": repr(python)}
                    )
                if python not in f.empty_values:
                    for validator in f.validators:
                        validator(python)
            except (ValidationError, TypeError, ValueError) as err:
                text = "; ".join(err.messages) if isinstance(err, ValidationError) else str(err)
                raise ArchiveError(json_path([*path, key]), shorten(text)) from err
            if (
                settings.USE_TZ
                and isinstance(f, models.DateTimeField)
                and python
                and timezone.is_naive(python)
            ):
                python = timezone.make_aware(python, dt.UTC)
            setattr(obj, f.attname, python)
        return obj

    def warnings(self) -> list[str]:
        return [
            _("%(model)s: field %(field)s is not known here and was ignored")
            % {"model": model, "field": repr(name)}
            for model, names in sorted(self.unknown.items())
            for name in sorted(names)
        ]


def create_versions(loader: Loader, items: Iterable[tuple[Any, Iterable, list]]) -> list:
    """Store sheet versions as the archive holds them: ``items`` gives per sheet the saved
    ``Sheet``, its versions as ``(index in the archive's list, version object)`` and the
    sheet's JSON path. One bulk insert; the original creation times are kept."""
    version_objs, stamps = [], []
    for sheet, versions, path in items:
        for k, v in versions:
            version = loader.fill(
                SheetVersion(sheet=sheet), v, [*path, "versions", k], skip=("sheet",)
            )
            stamps.append(version.created_at)
            version_objs.append(version)
    version_objs = SheetVersion.objects.bulk_create(version_objs)
    # auto_now_add stamped "now" on insert; the audit trail keeps the original times.
    for version, stamp in zip(version_objs, stamps, strict=True):
        version.created_at = stamp
    SheetVersion.objects.bulk_update(version_objs, ["created_at"], batch_size=500)
    return version_objs
