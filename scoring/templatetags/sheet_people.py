"""Who entered or confirmed a sheet, as a director reads it: a seat's phone by its seat and
table, not by its technical user name ("tisch1.platz2.serie7")."""

from django import template
from django.utils.translation import gettext as _

from scoring.sheets.table.links import seat_of_user

register = template.Library()


@register.filter
def who(user) -> str:
    if user is None:
        return ""
    seat = seat_of_user(user.get_username())
    if seat is None:
        return str(user)
    return _("seat %(seat)d at table %(table)d (phone)") % {"table": seat[0], "seat": seat[1]}
