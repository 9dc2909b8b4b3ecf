import pytest
from django.utils import translation


@pytest.fixture(autouse=True)
def english():
    """Messages built outside a request use the default language (German); tests read English."""
    with translation.override("en"):
        yield
