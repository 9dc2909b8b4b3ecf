app_name = "exports"

urlpatterns: list = []
