"""Reading a page's form the way a browser sends it back, for tests that post it again."""

import re


def form_values(page) -> dict:
    """The fields of the page's form (``form.form``) as a browser would send them back."""
    html = page.content.decode()
    form = html[html.index('<form method="post" class="form">') :]
    form = form[: form.index("</form>")]
    data = {}
    for tag in re.findall(r"<input[^>]*>", form):
        name = re.search(r'name="([^"]+)"', tag)
        if not name or 'type="submit"' in tag:
            continue
        if 'type="checkbox"' in tag:
            if " checked" in tag:
                data[name.group(1)] = "on"
            continue
        value = re.search(r'value="([^"]*)"', tag)
        data[name.group(1)] = value.group(1).replace("&quot;", '"') if value else ""
    for name, body in re.findall(r'<select name="([^"]+)"[^>]*>(.*?)</select>', form, re.S):
        chosen = re.search(r'<option value="([^"]*)"[^>]*selected', body)
        data[name] = chosen.group(1) if chosen else ""
    for name, body in re.findall(r'<textarea name="([^"]+)"[^>]*>(.*?)</textarea>', form, re.S):
        data[name] = body.strip()
    return data
