"""A create form sent twice creates one object.

A second click while the first is on its way, a retry after an answer lost to the network, a
page the browser kept and shows again on Back: the same form with the same values arrives
again. Each create form carries a random token (``SubmitsOnce``); the first request that
sends it with a set of values claims the token in the cache, the object it creates is
remembered there, and a request with the same token and the same values is sent to that
object instead of making a second one (``Once``). Changed values are a new submission (Back,
a new name, Save makes a second object, as the user meant), and so is a form the browser
loads afresh: its token is new.

The cache is the one the app servers share (Redis on a server, the hall's own process memory
on the laptop), so two servers see each other's claim. Domain-free: no app is imported here.
"""

from __future__ import annotations

import hashlib
import re
import secrets
import time

from django import forms
from django.contrib import messages
from django.core.cache import cache
from django.shortcuts import redirect
from django.utils.translation import gettext as _

ONCE = "once"
_TOKEN = re.compile(r"[A-Za-z0-9_-]{16,64}")
_PENDING = "pending"
# A claim outlives any request (a request that dies leaves it for this long); a done
# submission is found again for a day (a form left open overnight and sent again).
_PENDING_SECONDS = 120
_DONE_SECONDS = 24 * 3600
# Fields that change with every sending of the same form and say nothing about its values.
_NOT_VALUES = {"csrfmiddlewaretoken"}


class SubmitsOnce:
    """Mixin before ``forms.Form``/``ModelForm`` of a form that creates something: a hidden
    random token the page sends back with the values (``form_fields.html`` renders it). A
    model form that edits a stored object (one form for both) carries none."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        if getattr(getattr(self, "instance", None), "pk", None) is None:
            self.fields[ONCE] = forms.CharField(
                widget=forms.HiddenInput,
                required=False,
                initial=secrets.token_urlsafe(18),
            )

    def clean(self):
        cleaned = super().clean()
        cleaned.pop(ONCE, None)  # not a value of the object: the services never see it
        return cleaned


class Once:
    """Around a create view's write::

        with Once(request, form) as once:
            if once.response:
                return once.response  # sent before: its object, or "still saving"
            if request.method == "POST" and form.is_valid():
                obj = services.create_…(…)
                return once.done(redirect(obj))

    Before the form's own checks: sent again, a value the first sending stored may be taken
    now (a player's number), and the answer is still what it created. A GET is no sending.
    Leaving the block without ``done`` (refused by the service, a fault) frees the claim, so
    the corrected form can be sent with the same token."""

    wait_seconds = 10.0

    def __init__(self, request, form):
        self.request = request
        self.response = None
        self._key = _key(request, form)
        self._claimed = False

    def __enter__(self) -> Once:
        if self._key is None:  # a page from before the token: saves as ever
            return self
        deadline = time.monotonic() + self.wait_seconds
        while True:
            if cache.add(self._key, _PENDING, _PENDING_SECONDS):
                self._claimed = True
                return self
            url = cache.get(self._key)
            if url not in (None, _PENDING):
                messages.info(
                    self.request, _("This form had already been saved: here is what it created.")
                )
                self.response = redirect(url)
                return self
            if time.monotonic() >= deadline:
                messages.warning(
                    self.request,
                    _(
                        "This form is being saved by an earlier click. Please look whether it "
                        "was created before sending it again."
                    ),
                )
                self.response = redirect(self.request.get_full_path())
                return self
            # The first click's request is still writing: its object is the answer.
            time.sleep(0.1)

    def done(self, response):
        """The created object's redirect, remembered for the same form sent again."""
        if self._claimed:
            cache.set(self._key, response.url, _DONE_SECONDS)
            self._claimed = False
        return response

    def __exit__(self, *exc) -> None:
        if self._claimed:
            cache.delete(self._key)
            self._claimed = False


def _key(request, form) -> str | None:
    token = form.data.get(ONCE, "") if form.is_bound else ""
    if not isinstance(token, str) or not _TOKEN.fullmatch(token):
        return None
    digest = hashlib.sha256()
    digest.update(f"{getattr(request.user, 'pk', None)}\0{request.path}\0".encode())
    getlist = getattr(form.data, "getlist", lambda name: [form.data[name]])  # QueryDict or dict
    for name in sorted(form.data.keys()):
        if name not in _NOT_VALUES:
            for value in getlist(name):
                digest.update(f"{name}\0{value}\0".encode())
    return f"once:{digest.hexdigest()}"
