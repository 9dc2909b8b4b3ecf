import pytest
from django.utils import translation


@pytest.fixture(autouse=True)
def english():
    """Messages outside a request follow the active language (German by default); the
    tests of the archive itself read English. The web tests ask for German explicitly."""
    with translation.override("en"):
        yield
