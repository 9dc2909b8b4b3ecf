from django.shortcuts import render

from clubs.permissions import clubs_with_role


def home(request):
    clubs = []
    if request.user.is_authenticated:
        clubs = clubs_with_role(request.user).order_by("name")
    return render(request, "home.html", {"my_clubs": clubs})
