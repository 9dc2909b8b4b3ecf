"""Form widgets shared by the apps."""

from django import forms


class IsoDateInput(forms.DateInput):
    """A date picker. Browsers read only ISO values in ``<input type=date>``, whatever the
    page language, so the value is never localised (German display is elsewhere)."""

    input_type = "date"

    def __init__(self, attrs=None):
        super().__init__(attrs, format="%Y-%m-%d")
