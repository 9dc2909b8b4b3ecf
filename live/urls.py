urlpatterns: list = []
app_name = "live"
