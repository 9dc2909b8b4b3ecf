from datetime import UTC, datetime
from pathlib import Path

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError
from django.db import DatabaseError
from django.utils import formats, timezone, translation
from django.utils.translation import gettext as _

from hall import backups
from hall.restore import RestoreRefused, restore_archive, restore_database
from scoring.archive.validate import ArchiveError


class Command(BaseCommand):
    help = (
        "The hall mode's backups: without arguments the list; with an event backup (.json) "
        "the event is imported (under a new name if it still exists); with a database copy "
        "(.sqlite3) the data folder's database is replaced, only while the hall is stopped."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "backup", nargs="?", help="A file name from the list, or the path of a backup file."
        )
        parser.add_argument("--folder", help="Another backup folder (e.g. a USB stick).")
        parser.add_argument("--name", default="", help="The restored event's name.")
        parser.add_argument(
            "--user", help="Who is recorded in the history (default: the director)."
        )
        parser.add_argument("--language", default=settings.LANGUAGE_CODE)

    def handle(self, *args, language=None, **options):
        with translation.override(language or settings.LANGUAGE_CODE):
            if not settings.HALL_MODE:
                raise CommandError(
                    _(
                        "Only in the hall mode: set HALL_MODE=1 (and ROMME_DATA=<data folder> "
                        "unless it is the usual one)."
                    )
                )
            where = self._folder(options["folder"])
            if not options["backup"]:
                return self._list(where)
            backup = self._backup(options["backup"], where)
            if backup.kind == "archive":
                return self._archive(backup, options["name"], options["user"])
            return self._database(backup, where)

    def _folder(self, chosen) -> Path:
        if chosen:
            return Path(chosen).expanduser()
        try:
            return backups.folder()
        except DatabaseError:  # no database yet (a new laptop): the usual place
            from common import datafolder

            return datafolder.backup_root(Path(settings.HALL_DATA_DIR))

    def _backup(self, given: str, where: Path) -> backups.Backup:
        path = Path(given).expanduser()
        if path.is_file():
            found = backups.parse(path, path.stat().st_size)
            if found is None:  # renamed by hand: its kind from the ending
                kind = "archive" if path.suffix == ".json" else "database"
                taken = datetime.fromtimestamp(path.stat().st_mtime, tz=UTC)
                found = backups.Backup(kind, path, taken, path.stat().st_size)
            return found
        found = backups.find(given, where)
        if found is None:
            raise CommandError(
                _("There is no backup %(name)s in %(folder)s.") % {"name": given, "folder": where}
            )
        return found

    def _list(self, where: Path) -> None:
        found = backups.list_backups(where)
        if not found:
            self.stdout.write(_("No backups in %(folder)s yet.") % {"folder": where})
            return
        self.stdout.write(_("Backups in %(folder)s, newest first:") % {"folder": where})
        for backup in found:
            when = formats.date_format(timezone.localtime(backup.taken), "SHORT_DATETIME_FORMAT")
            if backup.kind == "archive":
                what = _("event %(id)s (%(name)s), version %(results)s/%(sheets)s") % {
                    "id": backup.event_id,
                    "name": backup.label or "–",
                    "results": backup.marker[0],
                    "sheets": backup.marker[1],
                }
            else:
                what = _("database copy")
            self.stdout.write(f"  {when}  {what}  {backup.name}")
        self.stdout.write(_("Restore one with: python manage.py restore_backup <file name>"))

    def _actor(self, username):
        User = get_user_model()
        if username:
            try:
                return User.objects.get(**{User.USERNAME_FIELD: username})
            except User.DoesNotExist:
                raise CommandError(_("There is no user %(name)s.") % {"name": username}) from None
        directors = list(User.objects.filter(is_superuser=True, is_active=True)[:2])
        return directors[0] if len(directors) == 1 else None

    def _archive(self, backup, name, username) -> None:
        actor = self._actor(username)
        try:
            result = restore_archive(backup, actor=actor, name=name)
        except ArchiveError as error:
            raise CommandError(
                _("Refused, nothing imported – at %(path)s in the file: %(message)s")
                % {"path": error.path, "message": error.message}
            ) from error
        except (RestoreRefused, ValidationError, DatabaseError, ValueError) as error:
            text = "; ".join(error.messages) if isinstance(error, ValidationError) else error
            raise CommandError(
                _("Refused, nothing imported: %(error)s") % {"error": text}
            ) from error
        self.stdout.write(
            self.style.SUCCESS(
                _("Restored: the event “%(name)s” (id %(id)s) from %(file)s.")
                % {"name": result.event.name, "id": result.event.pk, "file": backup.name}
            )
        )

    def _database(self, backup, where) -> None:
        try:
            before = restore_database(backup.path, where)
        except RestoreRefused as error:
            raise CommandError(str(error)) from error
        if before is not None:
            self.stdout.write(
                _("The database as it was is saved as %(file)s.") % {"file": before.name}
            )
        self.stdout.write(
            self.style.SUCCESS(
                _("The database was restored from %(file)s. Start Rommé Ledger again.")
                % {"file": backup.name}
            )
        )
