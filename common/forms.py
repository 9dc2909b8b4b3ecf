"""Form helpers every app uses: a service's ValidationError shown on a form, and lenient
parsing of numbers from a query string. Domain-free: no app and no model is imported here."""

from __future__ import annotations

from django import forms
from django.core.exceptions import ValidationError

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
