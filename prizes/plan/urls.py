from django.urls import path

from . import views

# Included by prizes/urls.py (namespace "prizes").
urlpatterns = [
    path("events/<int:pk>/prizes/plan/", views.plan_edit, name="plan"),
    path("events/<int:pk>/prizes/", views.prize_list_page, name="prize_list"),
    path("public/events/<int:pk>/prizes/", views.public_prizes, name="public_prizes"),
]
