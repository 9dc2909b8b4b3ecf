from django import template

from common.money import format_euro

register = template.Library()


@register.filter
def euro(value) -> str:
    """{{ amount|euro }}: "1.234,50 €" (common.money.format_euro)."""
    return format_euro(value)
