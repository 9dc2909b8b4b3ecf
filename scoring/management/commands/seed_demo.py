from django.core.management.base import BaseCommand

from clubs.demo import login_help
from clubs.models import Club
from scoring.demo.seed import seed_demo


class Command(BaseCommand):
    help = (
        "Create demo clubs, players, one user per role, a finished tournament and a club "
        "evening in progress. Running it twice changes nothing."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "--if-empty", action="store_true", help="Only seed when there are no clubs yet."
        )

    def handle(self, *args, if_empty=False, **options):
        if if_empty and Club.objects.exists():
            self.stdout.write("Database already has data; demo data not loaded.")
        else:
            seed_demo()
            self.stdout.write(self.style.SUCCESS("Demo data is in place."))
        self.stdout.write(login_help())
