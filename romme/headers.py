"""Response headers that neither Django nor django-csp sets (see docs/security.md)."""

from django.conf import settings


class PermissionsPolicyMiddleware:
    """Adds ``Permissions-Policy``: the app needs no camera, microphone, location, payment
    or other powerful browser feature, so none is granted to it or to anything it embeds."""

    def __init__(self, get_response):
        self.get_response = get_response
        self.value = ", ".join(f"{feature}=()" for feature in settings.PERMISSIONS_POLICY)

    def __call__(self, request):
        response = self.get_response(request)
        response.headers.setdefault("Permissions-Policy", self.value)
        return response
