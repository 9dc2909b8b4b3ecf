app_name = "tournaments"

urlpatterns: list = [
    # Event, participant, pair/team, series and seating-list pages: see tournaments/views.py.
]
