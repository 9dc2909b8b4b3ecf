"""The authentication backend: Django's ModelBackend, but the session's user comes with
their club roles in the same query.

Nearly every page asks a role (``clubs.permissions.role_in``); reading the roles with the
user saves that page one round trip to the database (issue 38: on PostgreSQL a round trip
over TCP, where SQLite answers with a function call)."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.contrib.auth.backends import ModelBackend
from django.db.models import F

from clubs.permissions import remember_roles

PATH = "clubs.auth.ClubRoleBackend"


class ClubRoleBackend(ModelBackend):
    def get_user(self, user_id):
        # A LEFT JOIN on the roles: one row per role, one row with NULLs for none.
        rows = list(
            get_user_model()
            ._default_manager.filter(pk=user_id)
            .annotate(role_club_id=F("club_roles__club_id"), role_name=F("club_roles__role"))
        )
        if not rows:
            return None
        user = rows[0]
        if not self.user_can_authenticate(user):
            return None
        # What `role_in` would otherwise read with a query of its own.
        remember_roles(
            user, {row.role_club_id: row.role_name for row in rows if row.role_club_id is not None}
        )
        return user
