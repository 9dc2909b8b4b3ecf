"""Form helpers every app uses: a service's ValidationError shown on a form, and lenient
parsing of numbers from a query string. Domain-free: no app and no model is imported here."""

from __future__ import annotations

from django.core.exceptions import ValidationError


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
