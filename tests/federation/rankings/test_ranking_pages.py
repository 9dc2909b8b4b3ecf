"""Pages of rankings, the ranking status and the review: who sees what, forms with bad
input, the whole path through the pages."""

import pytest
from django.urls import reverse
from django_tasks_db.models import DBTaskResult

from federation.models import EventVersion, Ranking, RankingSnapshot, RankingStatus
from federation.rankings import compute
from tests.federation.status_helpers import make_ranking, played_event


@pytest.fixture
def ranking_a(region_a, affiliation_a):
    return make_ranking(region_a, "Hessen-Rangliste")


def form_data(**over):
    data = {
        "name": "Hessen 2026", "formula": "places", "window_months": 24, "best_n": 5,
        "min_events": 2, "min_hands": 48, "min_field": 0, "min_series": 0,
        "factor_ranking": "1", "factor_championship": "2", "as_of": "", "public": "on",
        "reason": "Saisonstart",
    }  # fmt: skip
    return data | over


def test_officer_creates_a_ranking_and_sees_its_settings(client, officer_a, region_a):
    client.force_login(officer_a)
    url = reverse("federation:ranking_create", args=[region_a.pk])
    answer = client.post(url, form_data(factor_championship="1,5"))
    ranking = Ranking.objects.get(name="Hessen 2026")
    assert answer.status_code == 302 and ranking.settings["class_factors"]["championship"] == "1.5"
    page = client.get(
        reverse("federation:ranking_detail", args=[ranking.pk]), HTTP_ACCEPT_LANGUAGE="de"
    )
    text = page.content.decode()
    assert page.status_code == 200 and "1,5" in text
    assert ranking.history.get().history_change_reason == "Saisonstart"


def test_bad_settings_are_refused_in_german(client, officer_a, region_a):
    client.force_login(officer_a)
    url = reverse("federation:ranking_create", args=[region_a.pk])
    answer = client.post(
        url, form_data(window_months=0, factor_ranking="abc"), HTTP_ACCEPT_LANGUAGE="de"
    )
    assert answer.status_code == 200 and not Ranking.objects.exists()
    form = answer.context["form"]
    assert "window_months" in form.errors


def test_who_sees_a_ranking(client, ranking_a, officer_b, viewer_region_a, organiser_a, officer_a):
    url = reverse("federation:ranking_detail", args=[ranking_a.pk])
    client.force_login(officer_b)
    assert client.get(url).status_code == 404
    assert (
        client.post(reverse("federation:ranking_recompute", args=[ranking_a.pk])).status_code == 404
    )
    client.force_login(organiser_a)
    assert client.get(url).status_code == 404
    client.force_login(viewer_region_a)
    assert client.get(url).status_code == 200
    assert client.get(reverse("federation:ranking_edit", args=[ranking_a.pk])).status_code == 403
    assert (
        client.post(reverse("federation:ranking_recompute", args=[ranking_a.pk])).status_code == 403
    )
    client.force_login(officer_a)
    assert client.get(reverse("federation:ranking_edit", args=[ranking_a.pk])).status_code == 200
    client.logout()
    assert client.get(url).status_code == 302  # to the login


def test_empty_ranking_says_so(client, ranking_a, officer_a):
    compute.recompute(ranking_a)
    client.force_login(officer_a)
    page = client.get(reverse("federation:ranking_detail", args=[ranking_a.pk]))
    assert b"the list is empty" in page.content


def test_whole_path_through_the_pages(
    client, club_a, ranking_a, organiser_a, officer_a, officer_b, django_capture_on_commit_callbacks
):
    event = played_event(club_a)
    client.force_login(organiser_a)
    detail = client.get(event.get_absolute_url())
    assert b"rs_ranking" in detail.content  # the request form in the event page's box
    answer = client.post(
        reverse("federation:status_request", args=[event.pk]),
        {"ranking": ranking_a.pk, "event_class": "ranking", "reason": ""},
    )
    assert answer.status_code == 302
    status = RankingStatus.objects.get(event=event)
    status_url = reverse("federation:status_detail", args=[status.pk])
    # another region's officer does not see it, the own one decides
    client.force_login(officer_b)
    assert client.get(status_url).status_code == 404
    client.force_login(officer_a)
    queue = client.get(reverse("federation:review_queue"))
    assert event.name.encode() in queue.content
    client.post(reverse("federation:status_decide", args=[status.pk]), {"decision": "grant"})
    status.refresh_from_db()
    assert status.state == "granted"
    assert client.post(reverse("federation:status_submit", args=[status.pk])).status_code == 403
    client.force_login(organiser_a)
    answer = client.post(reverse("federation:status_submit", args=[status.pk]))
    version = EventVersion.objects.get(status=status)
    assert answer.url == reverse("federation:version_detail", args=[version.pk])
    client.force_login(officer_b)
    assert client.post(reverse("federation:version_approve", args=[version.pk])).status_code == 404
    client.force_login(officer_a)
    page = client.get(reverse("federation:version_detail", args=[version.pk]))
    assert page.status_code == 200 and b"Approve" in page.content
    with django_capture_on_commit_callbacks(execute=True):
        client.post(reverse("federation:version_approve", args=[version.pk]), {"note": ""})
    version.refresh_from_db()
    assert version.state == "approved"
    # the worker computes it (database task backend here): nothing computed in the request
    assert not RankingSnapshot.objects.filter(ranking=ranking_a).exists()
    assert DBTaskResult.objects.filter(task_path=compute.recompute_ranking.module_path).exists()
    history = client.get(reverse("federation:ranking_history", args=[ranking_a.pk]))
    assert history.status_code == 200 and event.name.encode() in history.content


def test_refusal_without_reason_is_a_message(client, club_a, ranking_a, organiser_a, officer_a):
    event = played_event(club_a)
    status = RankingStatus.objects.create(event=event, ranking=ranking_a)
    client.force_login(officer_a)
    answer = client.post(
        reverse("federation:status_decide", args=[status.pk]), {"decision": "refuse"}, follow=True
    )
    assert b"Say why the request is refused." in answer.content
    status.refresh_from_db()
    assert status.state == "requested"


def test_organiser_of_another_club_cannot_request(client, club_a, club_b, ranking_a):
    from tests.factories import user_with_role

    event = played_event(club_a)
    stranger = user_with_role(club_b, "organiser", username="org_b")
    client.force_login(stranger)
    answer = client.post(
        reverse("federation:status_request", args=[event.pk]),
        {"ranking": ranking_a.pk, "event_class": "ranking"},
    )
    assert answer.status_code == 403 and not RankingStatus.objects.exists()


def test_the_settings_name_the_event_classes_in_german():
    from django.utils import translation

    from federation.rankings.selectors import setting_lines

    with translation.override("de"):
        text = " ".join(setting_lines({}))
    assert "„Ranglistenturnier“: 1" in text and "„Meisterschaft“: 2" in text
    assert "„ranking“" not in text and "„championship“" not in text
