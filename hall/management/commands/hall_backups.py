from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.utils import translation
from django.utils.translation import gettext as _

from hall.backup_writer import BackupLoop


class Command(BaseCommand):
    help = (
        "The hall mode's backup loop: event archives after changes (at most one a minute per "
        "event) and a copy of the database every 10 minutes. Started by python -m romme.hall."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "--ticks", type=int, help="Stop after this many rounds (tests); default: never."
        )

    def handle(self, *args, ticks=None, **options):
        if not settings.HALL_MODE:
            with translation.override(settings.LANGUAGE_CODE):
                raise CommandError(
                    _(
                        "Only in the hall mode: set HALL_MODE=1 (and ROMME_DATA=<data folder> "
                        "unless it is the usual one)."
                    )
                )
        BackupLoop().run(ticks)
