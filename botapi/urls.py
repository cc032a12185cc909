from django.urls import path, re_path

from . import views

urlpatterns = [
    # a person's pages
    path("bot/", views.account, name="bot_account"),
    path("bot/become/", views.become_bot, name="bot_become"),
    path("bot/tokens/", views.create_token, name="bot_token_create"),
    path("bot/tokens/<int:token_id>/revoke/", views.revoke_token, name="bot_token_revoke"),
    path("bot/challenge/<str:username>/", views.challenge, name="bot_challenge_create"),
    path("bot/challenges/<int:challenge_id>/", views.challenge_page, name="bot_challenge"),
    path("bot/challenges/<int:challenge_id>/status/", views.challenge_status, name="bot_challenge_status"),
    path("bot/challenges/<int:challenge_id>/cancel/", views.challenge_cancel, name="bot_challenge_cancel"),
    # the bot API (Authorization: Bearer <token>)
    path("api/bot/account/", views.api_account, name="api_bot_account"),
    path("api/bot/tables/", views.api_tables, name="api_bot_tables"),
    path("api/bot/challenges/", views.api_challenges, name="api_bot_challenges"),
    path("api/bot/challenges/<int:challenge_id>/accept/", views.api_accept, name="api_bot_accept"),
    path("api/bot/challenges/<int:challenge_id>/decline/", views.api_decline, name="api_bot_decline"),
    path("api/bot/playing/", views.api_playing, name="api_bot_playing"),
    path("api/bot/tournaments/", views.api_tournaments, name="api_bot_tournaments"),
    path("api/bot/tournaments/<int:tournament_id>/register/", views.api_tournament_register,
         name="api_bot_tournament_register"),
    re_path(r"^api/bot/(?P<rest>.*)$", views.api_not_found),
]
