app_name = "scoring"

urlpatterns: list = [
    # Series board, draw, sheet entry and confirmation pages: see scoring/views.py.
]
