"""Signed-in sessions keep working across the change of the authentication backend
(ModelBackend to clubs.auth.ClubRoleBackend): Django logs a session out whose stored
backend is no longer in AUTHENTICATION_BACKENDS, so the stored path is rewritten. Without
it every scorer's phone in a hall would have to sign in again after an upgrade."""

from django.contrib.sessions.backends.db import SessionStore
from django.db import migrations
from django.utils import timezone

BACKEND_KEY = "_auth_user_backend"
OLD = "django.contrib.auth.backends.ModelBackend"
NEW = "clubs.auth.ClubRoleBackend"


def _rewrite(apps, before: str, after: str) -> None:
    Session = apps.get_model("sessions", "Session")
    store = SessionStore()
    for session in Session.objects.filter(expire_date__gt=timezone.now()).iterator():
        data = store.decode(session.session_data)  # {} for data it cannot read
        if data.get(BACKEND_KEY) == before:
            data[BACKEND_KEY] = after
            session.session_data = store.encode(data)
            session.save(update_fields=["session_data"])


def forwards(apps, schema_editor):
    _rewrite(apps, OLD, NEW)


def backwards(apps, schema_editor):
    _rewrite(apps, NEW, OLD)


class Migration(migrations.Migration):
    dependencies = [
        ("clubs", "0004_player_gender"),
        ("sessions", "0001_initial"),
    ]

    operations = [migrations.RunPython(forwards, backwards)]
