"""{% federation_nav_visible as show %}: whether the navigation links to the federation
(base.html; no query on an ordinary page, federation.associations.nav)."""

from django import template

from federation.associations.nav import shows_link

register = template.Library()


@register.simple_tag(takes_context=True)
def federation_nav_visible(context) -> bool:
    request = context.get("request")
    return request is not None and shows_link(request)
