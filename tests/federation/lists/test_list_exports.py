"""The ranking list, player card and qualification list through the one exporter registry:
PDF (A4, German, the print style), XLSX cells, print page, and who may download."""

import io

import pytest
from django.urls import reverse
from django.utils import translation
from openpyxl import load_workbook

from federation.championships import services
from federation.championships.exports import QualificationDoc
from federation.lists.exports import PlayerCardDoc, RankingListDoc
from scoring.exports.registry import EXPORTERS, scope_of
from scoring.exports.rendering import render_export
from tests.federation.list_helpers import computed_world
from tests.pdf_checks import page_texts, print_style_problems

DE = {"HTTP_ACCEPT_LANGUAGE": "de"}


@pytest.fixture
def world(national, region_a, region_b, affiliation_a, affiliation_b, club_a, club_b):
    return computed_world(national, club_a, club_b)


@pytest.fixture
def cup(world, national_officer):
    cup = services.create_championship(
        national_officer, world["ranking"], name="Deutsche Meisterschaft",
        places_per_region=2, reserves_per_region=1, reason="Ausschreibung",
    )  # fmt: skip
    services.add_wildcard(national_officer, cup, world["dora"], reason="Ausrichterin")
    return cup


def pdf(slug, doc) -> str:
    with translation.override("de"):
        content = render_export(slug, doc, "pdf")[0]
    assert print_style_problems(content, "de") == []
    return " ".join(page_texts(content)).replace("\n", " ")


def test_registered_in_the_one_registry(world):
    for slug in ("federation-ranking-list", "federation-player-card", "federation-qualification"):
        assert slug in EXPORTERS
    assert scope_of(RankingListDoc(world["ranking"])).name == "federation-ranking"


def test_ranking_list_pdf_and_xlsx(world, region_a):
    text = pdf("federation-ranking-list", RankingListDoc(world["ranking"]))
    for expected in ("Rangliste – Deutsche Rangliste", "Anna Albrecht", "11,00", "(4,00)",
                     "Nicht gelistet", "Dora Dietz", "Seite 1 von 1"):  # fmt: skip
        assert expected in text, expected
    regional = pdf("federation-ranking-list", RankingListDoc(world["ranking"], region_a))
    assert "Landesverband Hessen" in regional and "Bernd Becker" not in regional
    with translation.override("de"):
        content, filename, _ = render_export(
            "federation-ranking-list", RankingListDoc(world["ranking"]), "xlsx"
        )
    assert filename.endswith(".xlsx") and "rangliste" in filename
    sheet = load_workbook(io.BytesIO(content)).worksheets[0]
    rows = [[c.value for c in row] for row in sheet.iter_rows()]
    header = rows.index(next(r for r in rows if "Name" in r))
    assert rows[header][:5] == ["Rang", "Name", "Verein", "Gewertete Turniere", "Punkte"] or (
        rows[header][1] == "Name"
    )
    body = rows[header + 1 :]
    assert body[0][:3] == [1, "Anna Albrecht", club_short(world)]
    assert float(body[0][4]) == 11.0 and [r[0] for r in body[:5]] == [1, 2, 3, 4, 4]


def club_short(world):
    return world["anna"].memberships.get().club.short_name


def test_player_card_and_qualification(world, cup):
    text = pdf("federation-player-card", PlayerCardDoc(world["ranking"], world["anna"]))
    for expected in ("Spielerkarte – Anna Albrecht", "Pokal Fulda", "01.03.2025",
                     "Alle offiziellen Ergebnisse"):  # fmt: skip
        assert expected in text, expected
    text = pdf("federation-qualification", QualificationDoc(cup))
    for expected in ("Qualifikationsliste – Deutsche Meisterschaft", "Arno Adler",
                     "Schnittlinie nach Rang 3", "Ausrichterin", "Nachrücker"):  # fmt: skip
        assert expected in text, expected
    with translation.override("de"):
        content = render_export("federation-qualification", QualificationDoc(cup), "xlsx")[0]
    book = load_workbook(io.BytesIO(content))
    values = [[c.value for c in row] for row in book.worksheets[0].iter_rows()]
    flat = [v for row in values for v in row]
    assert "Anna Albrecht" in flat and "Dora Dietz" in flat and "Freiplatz" in flat


def test_downloads_check_the_roles(client, world, cup, national_officer, officer_a, region_a):
    ranking = world["ranking"]
    urls = [
        reverse("federation:ranking_lines_export", args=[ranking.pk, "pdf"]),
        reverse("federation:ranking_lines_export", args=[ranking.pk, "xlsx"])
        + f"?region={region_a.pk}",
        reverse("federation:player_card_export", args=[ranking.pk, world["anna"].pk, "html"]),
        reverse("federation:championship_export", args=[cup.pk, "xlsx"]),
    ]
    for url in urls:
        assert client.get(url).status_code == 302, url  # anonymous: to the login
    client.force_login(officer_a)  # a regional officer sees no national ranking
    for url in urls:
        assert client.get(url).status_code == 404, url
    client.force_login(national_officer)
    answers = [client.get(url, **DE) for url in urls]
    assert [a.status_code for a in answers] == [200] * 4
    assert answers[0]["Content-Type"] == "application/pdf"
    assert "attachment" in answers[1]["Content-Disposition"]
    assert "Anna Albrecht" in answers[2].content.decode()
    bad = reverse("federation:ranking_lines_export", args=[ranking.pk, "pdf"]) + "?region=x"
    assert client.get(bad).status_code == 404
