"""The live app's URLs, one namespace "live": the server's endpoint and pages
(live.server.urls) and the laptop's pages (live.laptop.urls)."""

from live.laptop import urls as laptop_urls
from live.server import urls as server_urls

app_name = "live"

urlpatterns = [*server_urls.urlpatterns, *laptop_urls.urlpatterns]
