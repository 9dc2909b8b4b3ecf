"""A GET of an address that only takes a form's POST (a button's action: saving, publishing,
drawing, pinning) is answered by Django's `require_POST` with 405 and an empty body, which a
browser shows as its own error page ("HTTP ERROR 405"). Such a GET comes from a page
reloaded after a form was sent, a bookmark, or a tab a phone opens again. The answer stays
405 (with its `Allow`), now with the app's German page, which says nothing was changed and
leads back to the page the form was on."""

from django.shortcuts import render

from common.safety import safe_referer


class ButtonAddressMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        if (
            response.status_code != 405
            or response.content
            or request.method != "GET"
            or "application/json" in request.headers.get("Accept", "")
        ):
            return response
        page = render(request, "405.html", {"back": safe_referer(request)}, status=405)
        page["Allow"] = response["Allow"]
        return page
