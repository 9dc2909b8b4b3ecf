"""Who entered or confirmed a sheet, as a director reads it: a seat's phone by its seat and
table, not by its technical user name ("tisch1.platz2.serie7")."""

from django import template

from scoring.sheets.seat_users import user_label

register = template.Library()


@register.filter
def who(user) -> str:
    return user_label(user)
