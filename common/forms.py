"""Form helpers every app uses: a service's ValidationError shown on a form, and lenient
parsing of numbers from a query string. Domain-free: no app and no model is imported here."""

from __future__ import annotations

import datetime as dt

from django import forms
from django.core import signing
from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from common.once import ONCE
from common.safety import MAX_ID


def add_validation_errors(form, error: ValidationError) -> None:
    """Show a service's ValidationError on the form: by field where the form has it."""
    if hasattr(error, "error_dict"):
        for field, errors in error.message_dict.items():
            form.add_error(field if field in form.fields else None, errors)
    else:
        form.add_error(None, error.messages)


def parse_int(value, default=None):
    """A query or form value as an int, or `default` when it is none (never raises)."""
    try:
        return int(value)
    except (TypeError, ValueError):
        return default


class ModelIdsField(forms.ModelMultipleChoiceField):
    """Django's ModelMultipleChoiceField, with an id beyond ``MAX_ID`` an invalid
    choice: the query would raise (SQLite's OverflowError, PostgreSQL's range error)
    before the field could say so, a 500."""

    def _check_values(self, value):
        for pk in value if isinstance(value, list | tuple) else ():
            number = parse_int(pk)
            if number is not None and not -MAX_ID <= number <= MAX_ID:
                raise ValidationError(
                    self.error_messages["invalid_pk_value"],
                    code="invalid_pk_value",
                    params={"pk": str(pk)[:30]},
                )
        return super()._check_values(value)


SEEN = "seen_state"
_SEEN_SALT = "common.forms.seen-state"


def _plain(value):
    """A field's value as JSON text, the same for its stored and its cleaned form."""
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    if hasattr(value, "pk"):
        return str(value.pk)
    if isinstance(value, dt.date):
        return value.isoformat()
    if isinstance(value, list | tuple | set) or hasattr(value, "model"):
        return sorted(_plain(v) for v in value)
    return str(value)


class RefusesStaleEdits:
    """For a form that edits stored values (a mixin before ``forms.Form``/``ModelForm``).

    The page carries, signed, the values it showed. Saved after somebody else changed one of
    them, the form is refused instead of writing the old values back over theirs (two
    organisers on one event). What this user typed stays in the form; a field only the other
    person changed takes the stored value, a field both changed keeps this user's, each marked;
    saving again writes it. A page without the values (opened before this check) saves as ever.
    """

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields[SEEN] = forms.CharField(widget=forms.HiddenInput, required=False)
        # Evaluated when the page is drawn: a subclass's __init__ may still set initials.
        self.initial[SEEN] = lambda: signing.dumps(self._stored_state(), salt=_SEEN_SALT)

    def _stored_state(self) -> dict:
        return {
            name: _plain(self.get_initial_for_field(field, name))
            for name, field in self.fields.items()
            if name not in (SEEN, ONCE)
        }

    def _seen_state(self) -> dict | None:
        try:
            seen = signing.loads(self.data.get(self.add_prefix(SEEN), ""), salt=_SEEN_SALT)
        except signing.BadSignature:
            return None
        return seen if isinstance(seen, dict) else None

    def _typed_changed(self, name: str, seen) -> bool:
        field = self.fields[name]
        try:
            return _plain(field.clean(self[name].data)) != seen
        except ValidationError:
            return True

    def _take_stored(self, data, name: str) -> None:
        field, key = self.fields[name], self.add_prefix(name)
        value = field.prepare_value(self.get_initial_for_field(field, name))
        if isinstance(field.widget, forms.CheckboxInput):
            if value:
                data[key] = "on"
            else:
                data.pop(key, None)
        elif isinstance(value, list | tuple | set):
            data.setlist(key, [str(v) for v in value])
        else:
            data[key] = "" if value is None else _plain(value)

    def clean(self):
        cleaned = super().clean()
        cleaned.pop(SEEN, None)
        seen = self._seen_state()
        if seen is None:
            return cleaned
        stored = self._stored_state()
        changed = [n for n in stored if n in seen and stored[n] != seen[n]]
        if not changed:
            return cleaned
        data = self.data.copy()
        for name in changed:
            shown = self._shown(name, stored[name])
            if self._typed_changed(name, seen[name]):
                text = _("Changed in the meantime to “%(value)s”; what you typed is kept here.")
            else:
                self._take_stored(data, name)
                text = _("Changed in the meantime to “%(value)s”; taken over.")
            self.add_error(name, text % {"value": shown})
        data[self.add_prefix(SEEN)] = signing.dumps(stored, salt=_SEEN_SALT)
        self.data = data
        raise ValidationError(
            _("Somebody else saved this in the meantime. Check the marked fields, then save again.")
        )

    def _shown(self, name: str, value) -> str:
        """The stored value as the field shows it: a choice's label, yes or no."""
        if value in ("", []):
            return "–"
        field = self.fields[name]
        if isinstance(field, forms.BooleanField):
            return _("yes") if value == "True" else _("no")
        values = value if isinstance(value, list) else [value]
        labels = {str(k): str(v) for k, v in getattr(field, "choices", ()) if k != ""}
        return ", ".join(labels.get(v, v) for v in values)
