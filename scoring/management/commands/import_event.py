from pathlib import Path

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError
from django.db import DatabaseError
from django.utils import translation

from common import limits
from scoring.archive.load import import_event, loads
from scoring.archive.validate import ArchiveError


class Command(BaseCommand):
    help = (
        "Rebuild an event from an event archive (docs/event-format.md), all or nothing. "
        "Points are recomputed here from the raw facts."
    )

    def add_arguments(self, parser):
        parser.add_argument("file", help="The archive (JSON) to read.")
        parser.add_argument(
            "--rename",
            metavar="NEW_NAME",
            help="Import under this name (the club already has an event of the file's name "
            "on that day).",
        )
        parser.add_argument(
            "--user", help="The username recorded in the history as the one who imported."
        )
        parser.add_argument(
            "--check",
            action="store_true",
            help="Run the whole import, report, and roll it back (nothing is kept).",
        )
        parser.add_argument(
            "--language",
            default=settings.LANGUAGE_CODE,
            help="The language of refusals, warnings and the history (default: %(default)s).",
        )

    def handle(self, *args, language=None, **options):
        with translation.override(language or settings.LANGUAGE_CODE):
            self._import(**options)

    def _import(self, *, file, rename=None, user=None, check=False, **options):
        try:
            path = Path(file)
            limits.check_size(path.stat().st_size, "archive_bytes")
            text = path.read_text(encoding="utf-8")
        except limits.LimitExceeded as err:
            raise CommandError(f"Refused, nothing imported: {err}") from None
        except (OSError, UnicodeDecodeError) as err:
            raise CommandError(f"Cannot read {file}: {err}") from err
        actor = None
        if user:
            User = get_user_model()
            try:
                actor = User.objects.get(**{User.USERNAME_FIELD: user})
            except User.DoesNotExist as err:
                raise CommandError(f"There is no user {user!r}.") from err
        try:
            result = import_event(loads(text), rename=rename, actor=actor, check_only=check)
        except ArchiveError as err:
            hint = " (--rename NEW_NAME)" if err.code == "duplicate" else ""
            raise CommandError(f"Refused, nothing imported: {err}{hint}") from err
        except (ValidationError, DatabaseError, ValueError, OverflowError) as err:
            # What the checks above missed still ends as a message, never a traceback.
            text = "; ".join(err.messages) if isinstance(err, ValidationError) else str(err)
            raise CommandError(f"Refused, nothing imported: {text[:500]}") from err
        self._report(result, check)
        if check:
            self.stdout.write("Check only: nothing was kept.")

    def _report(self, result, check):
        for warning in result.warnings:
            self.stderr.write(self.style.WARNING(f"warning: {warning}"))
        counts = ", ".join(f"{n} {what}" for what, n in result.created.items())
        verb = "Would import" if check else "Imported"
        self.stdout.write(
            self.style.SUCCESS(f"{verb} {result.event.name!r} as event {result.event.pk}: {counts}")
        )
