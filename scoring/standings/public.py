"""Public responses of the standings (page, hall display, JSON): conditional GETs, a shared
cache and compression, all keyed on the event's results version (issue 19).

An anonymous reader (no session cookie) gets the public representation: a strong ETag and
Last-Modified from (event, results version, language, view, normalised query),
``Cache-Control: public, max-age=5``, no cookie and no ``Vary: Cookie``, gzip when asked for.
A matching ``If-None-Match`` is answered 304 after one query (the version) and nothing is
computed. The rendered body is kept in Django's cache (local memory on the laptop, Redis
with ``REDIS_URL``) under the same key, so every app server computes a standing once per
version. The version is read before the standing: a writer's bump commits together with
its results, so an entry can be newer than its key but never older. A correction is
therefore never hidden, and a new version never meets an old entry.

Logged-in readers (their page names them and carries a CSRF token, the JSON may hold
unpublished series) and provisional views get a private, uncompressed, uncached response.
"""

from __future__ import annotations

import hashlib
import re
import time
from functools import wraps

from django.conf import settings
from django.contrib.auth.models import AnonymousUser
from django.contrib.messages.storage.cookie import CookieStorage
from django.core.cache import cache
from django.http import Http404, HttpResponse, QueryDict
from django.urls import Resolver404, resolve
from django.utils import translation
from django.utils.cache import get_conditional_response, patch_cache_control, patch_vary_headers
from django.utils.http import http_date
from django.utils.text import compress_string
from django.utils.translation.trans_real import parse_accept_lang_header

from tournaments.models import Event
from tournaments.results import results_state

PUBLIC_MAX_AGE = 5
# Entries of old versions are never read again; they only wait for eviction.
CACHE_SECONDS = 6 * 3600
LANGUAGE_PARAM = "lang"
# A standing takes well under a second to rank; waiting readers give up after this.
RENDER_LOCK_SECONDS = 30
RENDER_WAIT_SECONDS = 10
_ACCEPTS_GZIP = re.compile(r"\bgzip\b")


def is_anonymous(request) -> bool:
    """No session and no pending messages: the response cannot depend on who asks.

    Read from the cookies alone, so the session is never touched (touching it adds
    ``Vary: Cookie``)."""
    cookies = request.COOKIES
    return settings.SESSION_COOKIE_NAME not in cookies and CookieStorage.cookie_name not in cookies


def public_language(request, anonymous: bool) -> str:
    """``?lang=`` first; else, for anonymous readers, Accept-Language (never a cookie, which a
    shared cache does not see); else what the locale middleware chose for the user."""
    code = request.GET.get(LANGUAGE_PARAM)
    if code:
        try:
            return translation.get_supported_language_variant(code)
        except LookupError:
            pass
    if not anonymous:
        return translation.get_language()
    for accepted, _q in parse_accept_lang_header(request.META.get("HTTP_ACCEPT_LANGUAGE", "")):
        if accepted == "*":
            break
        try:
            return translation.get_supported_language_variant(accepted)
        except LookupError:
            continue
    return settings.LANGUAGE_CODE


def normalised_query(query: QueryDict, params: tuple[str, ...]) -> QueryDict:
    """Only the parameters the view reads, one value each, sorted: other parameters can
    neither split the cache nor reach the links of a cached page."""
    clean = QueryDict(mutable=True)
    for name in sorted(params):
        value = query.get(name)
        if value not in (None, ""):
            clean[name] = value[:40]
    clean._mutable = False
    return clean


def cache_key(kind: str, pk: int, state: tuple, language: str, query: QueryDict) -> str:
    version, _changed, created = state
    # The creation time guards against a database rebuilt under the same event ids.
    created_stamp = int(created.timestamp() * 1_000_000) if created else 0
    return f"public:{kind}:{pk}:{created_stamp}:{version}:{language}:{query.urlencode()}"


def _etag(key: str, gzipped: bool) -> str:
    digest = hashlib.sha256(key.encode()).hexdigest()[:32]
    return f'"{digest}-gz"' if gzipped else f'"{digest}"'


def _last_modified(state: tuple) -> float:
    _version, changed, created = state
    return (changed or created).timestamp()


def _public_headers(response, etag: str, last_modified: float, max_age: int) -> None:
    response["ETag"] = etag
    response["Last-Modified"] = http_date(last_modified)
    patch_cache_control(response, public=True, max_age=max_age)
    patch_vary_headers(response, ("Accept-Encoding", "Accept-Language"))


def _render_once(key: str, render, gzipped: bool):
    """Render a missing entry once for all app servers: the first request takes a short
    lock and renders; the others wait for its entry instead of ranking the same field
    again (after each confirmation every reader misses at once). Returns
    (content type, body) in the form asked for, or the view's response if it is not a
    plain 200 (an error page, never cached)."""
    variant = f"{key}:gz" if gzipped else key
    lock = f"{key}:lock"
    owner = cache.add(lock, 1, RENDER_LOCK_SECONDS)
    if not owner:
        deadline = time.monotonic() + RENDER_WAIT_SECONDS
        while time.monotonic() < deadline:
            time.sleep(0.05)
            entry = cache.get(variant)
            if entry is not None:
                return entry
            if cache.get(lock) is None:  # the renderer gave up (an error page)
                break
    try:
        rendered = render()
        if rendered.status_code != 200 or rendered.streaming:
            return rendered
        content_type, body = rendered["Content-Type"], rendered.content
        gz_body = compress_string(body)
        # Two entries, so that a hit reads only the form it sends (most readers take
        # gzip: a tenth of the bytes to fetch and unpickle).
        cache.set_many(
            {key: (content_type, body), f"{key}:gz": (content_type, gz_body)}, CACHE_SECONDS
        )
        return content_type, gz_body if gzipped else body
    finally:
        if owner:
            cache.delete(lock)


def _answer(entry, key: str, state: tuple, gzipped: bool) -> HttpResponse:
    content_type, body = entry
    response = HttpResponse(body, content_type=content_type)
    if gzipped:
        response["Content-Encoding"] = "gzip"
    _public_headers(response, _etag(key, gzipped), _last_modified(state), PUBLIC_MAX_AGE)
    return response


def cached_answer(request, key: str, state: tuple, gzipped: bool) -> HttpResponse | None:
    """A 304 for a matching ``If-None-Match``, else the cached body; None when the entry
    is missing (the caller renders it)."""
    etag = _etag(key, gzipped)
    # Only the ETag decides a 304: two versions may share a second of Last-Modified.
    not_modified = get_conditional_response(request, etag=etag)
    if not_modified is not None:
        _public_headers(not_modified, etag, _last_modified(state), PUBLIC_MAX_AGE)
        return not_modified
    entry = cache.get(f"{key}:gz" if gzipped else key)
    return None if entry is None else _answer(entry, key, state, gzipped)


def public_view(kind: str, params: tuple[str, ...], *, private_params: tuple[str, ...] = ()):
    """Serve ``view(request, pk)`` as a public, conditional, cached response (see above).

    ``params`` are the query parameters the view reads; ``private_params`` (as
    ``provisional``) turn the request into a private one whatever its value.
    """

    def decorator(view):
        @wraps(view)
        def wrapped(request, pk, *args, **kwargs):
            private = any(p in request.GET for p in private_params)
            anonymous = is_anonymous(request) and not private
            if not anonymous:
                # Always rendered: the view's event is read here, no version query first.
                request.public_event = _event(pk)
            state = None if not anonymous else results_state(pk)  # the one query of a 304
            if state is None and anonymous:
                raise Http404("no such event")
            request.GET = normalised_query(request.GET, (*params, *private_params, "lang"))
            language = public_language(request, anonymous)
            translation.activate(language)
            request.LANGUAGE_CODE = language
            if not anonymous:
                response = view(request, pk, *args, **kwargs)
                patch_cache_control(response, private=True, no_cache=True)
                return response

            request.user = AnonymousUser()  # known from the cookies: no session read
            key = cache_key(kind, pk, state, language, request.GET)
            gzipped = bool(_ACCEPTS_GZIP.search(request.META.get("HTTP_ACCEPT_ENCODING", "")))
            response = cached_answer(request, key, state, gzipped)
            if response is not None:
                return response
            entry = _render_once(key, lambda: view(request, pk, *args, **kwargs), gzipped)
            if isinstance(entry, HttpResponse):  # an error page: never cached, private
                patch_cache_control(entry, private=True, no_cache=True)
                return entry
            return _answer(entry, key, state, gzipped)

        # what PublicCacheMiddleware needs to answer before the view's middleware runs
        wrapped.public_spec = (kind, params)
        return wrapped

    return decorator


def _event(pk):
    event = Event.objects.select_related("club").filter(pk=pk).first()
    if event is None:
        raise Http404("no such event")
    return event


def public_event(request, pk):
    """The event of a public view: the one :func:`public_view` read for a private response,
    else read here (an anonymous reader's render, once per version and language)."""
    event = getattr(request, "public_event", None)
    return event if event is not None and event.pk == int(pk) else _event(pk)


def version_response(request, pk):
    """``{"version": n}``: the cheap poll of the hall display and the public page."""
    state = results_state(pk)
    if state is None:
        raise Http404("no such event")
    etag = f'"v{state[0]}-{int(state[2].timestamp())}"'
    response = get_conditional_response(request, etag=etag)
    if response is None:
        response = HttpResponse(f'{{"version": {state[0]}}}', content_type="application/json")
    response["ETag"] = etag
    # Every poll asks (no-cache), a shared cache may still answer it by revalidation.
    patch_cache_control(response, public=True, no_cache=True)
    return response


_PLAIN_VALUE = re.compile(r"^[\w-]{0,40}$")


class PublicCacheMiddleware:
    """Answers an anonymous reader's 304 or cache hit of a public view (page, hall display,
    JSON) before the session, locale, CSRF, authentication, message and history middleware
    run: they add nothing to a public answer but time (a fifth of a cache hit's server
    CPU). Placed after the security, CSP and permissions-policy middleware, which still set
    their headers; it sets those the skipped ones would (X-Frame-Options, Content-Language,
    Content-Length). A miss, a query parameter the view does not read or an unusual value,
    and any error take the normal path, so the normal path renders, caches and reports
    faults."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = None
        if request.method == "GET" and is_anonymous(request):
            try:
                response = self._answer(request)
            except Exception:
                response = None
        return response if response is not None else self.get_response(request)

    def _answer(self, request):
        try:
            match = resolve(request.path_info)
        except Resolver404:
            return None
        spec = getattr(match.func, "public_spec", None)
        if spec is None:
            return None
        kind, params = spec
        allowed = {*params, LANGUAGE_PARAM}
        query = request.GET
        if any(name not in allowed for name in query) or any(
            len(values) != 1 or not _PLAIN_VALUE.match(values[0]) for _n, values in query.lists()
        ):
            return None  # "provisional" among them: private, never answered here
        pk = match.kwargs["pk"]
        state = results_state(pk)
        if state is None:
            return None
        request.GET = normalised_query(query, (*params, LANGUAGE_PARAM))
        language = public_language(request, True)
        key = cache_key(kind, pk, state, language, request.GET)
        gzipped = bool(_ACCEPTS_GZIP.search(request.META.get("HTTP_ACCEPT_ENCODING", "")))
        response = cached_answer(request, key, state, gzipped)
        if response is not None:
            # What XFrameOptions, Locale and Common middleware would add.
            response.headers.setdefault("X-Frame-Options", settings.X_FRAME_OPTIONS)
            response.headers.setdefault("Content-Language", language)
            response.headers.setdefault("Content-Length", str(len(response.content)))
        return response
