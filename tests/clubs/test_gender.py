"""The registry's gender (issue 29, categories): the player form, the player page, the
import's optional column "Geschlecht" and the players export."""

import pytest
from django.urls import reverse
from django.utils import translation

from clubs import services
from clubs.models import Player
from scoring.exports.rendering import render_export
from tests.exports.conftest import read_xlsx
from tests.factories import MembershipFactory, PlayerFactory

pytestmark = pytest.mark.django_db


def _upload(user, club, text):
    return services.upload_player_file(user, club, "spieler.csv", text.encode("utf-8"))


def test_import_reads_the_gender_column_in_its_german_spellings(club_a, organiser_a):
    text = (
        "Spielernummer;Vorname;Nachname;Geschlecht\n"
        "200;Anna;Müller;w\n201;Berta;Kohl;weiblich\n202;Carl;Mai;männlich\n"
        "203;Dana;Ost;d\n204;Emil;Pohl;\n205;Fritz;Rau;M\n"
    )
    upload = _upload(organiser_a, club_a, text)
    services.apply_player_import(organiser_a, upload)
    genders = dict(Player.objects.values_list("player_number", "gender"))
    assert genders == {"200": "f", "201": "f", "202": "m", "203": "d", "204": "", "205": "m"}


def test_a_bad_gender_names_the_row_in_german_and_skips_it(club_a, organiser_a):
    text = "Spielernummer;Vorname;Nachname;Geschlecht\n300;Anna;Müller;w\n301;Bodo;Berg;x\n"
    upload = _upload(organiser_a, club_a, text)
    with translation.override("de"):
        parsed = services.preview_player_import(organiser_a, upload)
        messages = [str(p.message) for r in parsed.rows for p in r.problems]
    assert messages == ["Zeile 3: „x“ ist kein Geschlecht: w, m oder d."]
    assert [r.action for r in parsed.rows] == ["create", "skip"]


def test_a_file_without_the_column_keeps_the_gender(club_a, organiser_a):
    player = MembershipFactory(club=club_a, player=PlayerFactory(player_number="400")).player
    Player.objects.filter(pk=player.pk).update(gender="f")
    upload = _upload(
        organiser_a, club_a, f"Spielernummer;Vorname;Nachname\n400;{player.given_name};Neu\n"
    )
    services.apply_player_import(organiser_a, upload)
    player.refresh_from_db()
    assert (player.family_name, player.gender) == ("Neu", "f")
    upload = _upload(
        organiser_a,
        club_a,
        f"Spielernummer;Vorname;Nachname;Geschlecht\n400;{player.given_name};Neu;m\n",
    )
    services.apply_player_import(organiser_a, upload)
    player.refresh_from_db()
    assert player.gender == "m"


def test_the_form_edits_and_the_page_shows_the_gender(client, club_a, organiser_a):
    player = MembershipFactory(club=club_a).player
    client.force_login(organiser_a)
    url = reverse("clubs:player_edit", args=[player.pk])
    form = client.get(url, HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert 'name="gender"' in form and "weiblich" in form
    data = {
        "given_name": player.given_name, "family_name": player.family_name,
        "player_number": player.player_number, "birth_year": "1960", "gender": "f",
        "active": "on", "reason": "Geschlecht ergänzt",
    }  # fmt: skip
    client.post(url, data)
    player.refresh_from_db()
    assert player.gender == "f"
    page = client.get(player.get_absolute_url(), HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert "Geschlecht" in page and "weiblich" in page


def test_the_players_export_has_the_gender(club_a):
    player = MembershipFactory(club=club_a).player
    Player.objects.filter(pk=player.pk).update(gender="d")
    with translation.override("de"):
        content, _name, _type = render_export("players", club_a, "xlsx")
    rows = [[c.value for c in r] for r in read_xlsx(content).active.iter_rows()]
    header = next(r for r in rows if "Geschlecht" in r)
    column = header.index("Geschlecht")
    assert "divers" in [r[column] for r in rows[rows.index(header) + 1 :]]


@pytest.mark.parametrize("gender", ["f", ""])
def test_the_new_player_page_creates_the_player_with_the_gender(
    client, club_a, organiser_a, gender
):
    """The page's form carries the gender since issue 29; the service took it too late (a
    new player was a 500 whatever was entered)."""
    client.force_login(organiser_a)
    data = {
        "given_name": "Zora",
        "family_name": "Quastenberg",
        "player_number": "Q9",
        "birth_year": "1980",
        "gender": gender,
        "active": "on",
        "member_from": "2025-01-01",
    }
    response = client.post(reverse("clubs:player_create", args=[club_a.pk]), data)
    player = Player.objects.get(player_number="Q9")
    assert response.status_code == 302 and response["Location"] == player.get_absolute_url()
    assert (player.given_name, player.birth_year, player.gender) == ("Zora", 1980, gender)
    assert player.memberships.get().club == club_a
    assert player.history.count() == 1  # (who created it, and when)
