"""The upload form of the import page: the file's size is checked before it is read."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from common import limits
from tournaments.models import Event

NAME_MAX = Event._meta.get_field("name").max_length


class ArchiveUploadForm(forms.Form):
    file = forms.FileField(
        label=_("event archive (JSON)"),
        help_text=_(
            "A file written by “Download the event archive (JSON)” on an event’s page of "
            "Rommé Ledger, on this or another installation."
        ),
    )
    rename = forms.CharField(
        label=_("new name"),
        required=False,
        max_length=NAME_MAX,
        help_text=_(
            "Only when the club already has an event of the file’s name on that day: the "
            "import is then refused unless it gets a new name."
        ),
    )
    check_only = forms.BooleanField(
        label=_("check only"),
        required=False,
        help_text=_("Run the whole import and report what it would create, but keep nothing."),
    )

    def __init__(self, *args, handoff=None, **kwargs):
        super().__init__(*args, **kwargs)
        if handoff is not None:  # e.g. "as a submission to the federation" (archive.handoff)
            self.fields["handoff"] = forms.BooleanField(
                label=handoff.label, help_text=handoff.help_text, required=False
            )

    def clean_file(self):
        upload = self.cleaned_data["file"]
        try:
            limits.check_size(upload.size, "archive_bytes")
        except limits.LimitExceeded as error:
            raise forms.ValidationError(str(error), code=error.name) from None
        return upload

    def clean_rename(self):
        text = self.cleaned_data["rename"].strip()
        try:
            return limits.check_text(text)
        except limits.LimitExceeded as error:
            raise forms.ValidationError(str(error), code=error.name) from None
