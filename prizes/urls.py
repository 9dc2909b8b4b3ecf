from django.urls import include, path

app_name = "prizes"

# Entry fees and payments (prizes.fees), the plan and the prize list (prizes.plan).
urlpatterns = [
    path("", include("prizes.fees.urls")),
    path("", include("prizes.plan.urls")),
]
