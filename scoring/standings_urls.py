app_name = "standings"

urlpatterns: list = []
