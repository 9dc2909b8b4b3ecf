"""German messages for the league rules' errors (rules.leagues speaks msgids)."""

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from rules.leagues import LeagueError


def validation_error(error: LeagueError, field: str | None = None) -> ValidationError:
    message = error.message(_)
    return ValidationError({field: message} if field else message)


def explanation_text(explanation) -> str:
    return explanation.text(_)
