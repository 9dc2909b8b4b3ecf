from django.urls import path

from . import views

urlpatterns = [
    path("events/<int:pk>/entry-fees/", views.fees_page, name="fees"),
    path("participants/<int:pk>/entry-fee/", views.payment_set, name="payment_set"),
]
