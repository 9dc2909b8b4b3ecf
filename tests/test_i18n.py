"""German is what our users read; the browser's language picks; the footer switches."""

import pytest
from django.urls import reverse

from tests.factories import PlayerFactory

pytestmark = pytest.mark.django_db


def test_german_browser_gets_german_pages(client, organiser_a):
    client.force_login(organiser_a)
    page = client.get(reverse("clubs:player_list"), HTTP_ACCEPT_LANGUAGE="de-DE,de;q=0.9")
    text = page.content.decode()
    assert '<html lang="de">' in text
    assert "Spieler" in text and "Abmelden" in text and "Vereine" in text


def test_english_browser_gets_english_pages(client, organiser_a):
    client.force_login(organiser_a)
    page = client.get(reverse("clubs:player_list"), HTTP_ACCEPT_LANGUAGE="en-GB,en;q=0.9")
    text = page.content.decode()
    assert '<html lang="en">' in text
    assert "Players" in text and "Log out" in text and "Clubs" in text


def test_default_language_is_german():
    from django.test import Client

    assert '<html lang="de">' in Client().get(reverse("login")).content.decode()


def test_footer_switcher_sets_the_language(client, organiser_a):
    client.force_login(organiser_a)
    response = client.post(
        reverse("set_language"),
        {"language": "en", "next": reverse("home")},
        HTTP_ACCEPT_LANGUAGE="de",
    )
    assert response.status_code == 302
    page = client.get(reverse("home"), HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert '<html lang="en">' in page


def test_validation_messages_are_translated(client, club_a, organiser_a):
    PlayerFactory(player_number="42")
    client.force_login(organiser_a)
    data = {
        "given_name": "A",
        "family_name": "B",
        "player_number": "42",
        "member_from": "2024-01-01",
    }
    url = reverse("clubs:player_create", args=[club_a.pk])
    german = client.post(url, data, HTTP_ACCEPT_LANGUAGE="de").content.decode()
    english = client.post(url, data, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Spielernummer existiert bereits" in german
    assert "player with this player number already exists" in english.lower()


def _catalogue(path):
    """(msgid, msgstr, msgctxt, msgid_plural, msgstr[1]) of a .po file; msgstr is the first form."""
    import ast
    import re

    entries, key, current = [], None, {}
    for line in [*path.read_text(encoding="utf-8").splitlines(), ""]:
        if line.startswith("#") or not line.strip():
            if current.get("msgid"):
                entries.append(
                    (
                        current["msgid"],
                        current.get("msgstr", ""),
                        current.get("msgctxt"),
                        current.get("msgid_plural"),
                        current.get("msgstr[1]", ""),
                    )
                )
            current, key = {}, None
            continue
        match = re.match(
            r'^(msgctxt|msgid|msgid_plural|msgstr|msgstr\[0\]|msgstr\[\d+\]) (".*")$', line
        )
        if match:
            key = {"msgstr[0]": "msgstr"}.get(match.group(1), match.group(1))
            current[key] = current.get(key, "") + ast.literal_eval(match.group(2))
        elif line.startswith('"') and key:
            current[key] += ast.literal_eval(line)
    return entries


def test_german_catalogue_is_complete_and_compiled():
    from pathlib import Path

    from django.utils import translation

    po = Path(__file__).resolve().parent.parent / "locale/de/LC_MESSAGES/django.po"
    entries = _catalogue(po)
    assert len(entries) > 100
    untranslated = [entry[0] for entry in entries if not entry[1] or (entry[3] and not entry[4])]
    assert untranslated == []

    def compiled(msgid, context, plural, n):
        # A plural entry is looked up as one: gettext() of its msgid alone finds it on some
        # Python 3.11 releases and not on others.
        if plural:
            if context:
                return translation.npgettext(context, msgid, plural, n)
            return translation.ngettext(msgid, plural, n)
        return translation.pgettext(context, msgid) if context else translation.gettext(msgid)

    with translation.override("de"):
        stale = [
            msgid
            for msgid, msgstr, context, plural, msgstr_other in entries
            if "%(counter)" not in msgid
            and (
                compiled(msgid, context, plural, 1) != msgstr
                or (plural and compiled(msgid, context, plural, 2) != msgstr_other)
            )
        ]
    assert stale == [], "run `make messages` to compile the catalogue"
