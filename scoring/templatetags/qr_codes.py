"""{{ text|qr_image:for_pdf }}: the image source of a QR code of `text`. In a PDF the fetcher
draws it where the page is laid out (formats.pdf.qr_image_url); on a page in the browser it
is a data: URI."""

from django import template

register = template.Library()


@register.filter
def qr_image(text: str, for_pdf: bool) -> str:
    if not text:
        return ""
    if for_pdf:
        from scoring.exports.formats.pdf import qr_image_url

        return qr_image_url(text)
    from scoring.sheets.codes import qr_data_uri

    return qr_data_uri(text)
