"""Notification settings for people: which kinds and quiet hours (every channel), an e-mail address with
its verification link and one-click unsubscribe (RFC 8058), and Web Push subscriptions."""

from __future__ import annotations

import html
from typing import Any

from fastapi import APIRouter, Depends, Query, Request, Response
from fastapi.responses import HTMLResponse
from pydantic import BaseModel, ConfigDict, Field

from domain.core import InvalidCommand
from services.adapters.api.deps import Context, Principal, get_context, require_player
from services.adapters.api.errors import ApiError, error_responses
from services.adapters.api.routers.players_async import _settings
from services.application.notifications.mail import Addresses, Mailer, check_address
from services.application.notifications.prefs import NotificationPrefs, Preferences
from services.application.notifications.webpush import PushSubscriptions, Subscription
from services.infrastructure.urls import check_url

router = APIRouter(tags=["notifications"])


class NotificationSettings(BaseModel):
    preferences: NotificationPrefs
    email: dict[str, Any] = Field(description="``address`` (verified), ``pending``, ``enabled`` (SMTP configured)")
    push: dict[str, Any] = Field(description="``enabled``, ``public_key`` (VAPID), ``subscriptions`` (ids)")


class PreferencesSaved(BaseModel):
    preferences: NotificationPrefs


class EmailPending(BaseModel):
    pending: str


class PushKey(BaseModel):
    public_key: str


class PushSubscribed(BaseModel):
    id: str


class EmailRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")
    address: str = Field(min_length=3, max_length=254)


def _json_errors(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """:func:`error_responses` for a route that answers HTML: its errors are still JSON ``{code, message}``."""
    return {status: {"description": answer["description"],
                     "content": {"application/json": {"schema": {"$ref": "#/components/schemas/ErrorBody"}}}}
            for status, answer in error_responses(*statuses, 500, 503).items()}


def _html_errors(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """A page a person opens from an e-mail: its refusals are pages too (``text/html``), never JSON."""
    out = _json_errors(422)  # documented as FastAPI would (a query it cannot parse); a string query always parses
    for status in statuses:
        out[status] = {"description": "a page saying what happened, with a link to the settings",
                       "content": {"text/html": {"schema": {"type": "string"}}}}
    return out


BODY_STYLE = "font:16px/1.5 system-ui,sans-serif;margin:0;padding:24px;color:#111827;background:#fff"
BUTTON_STYLE = ("font:inherit;padding:.6rem 1.1rem;min-height:44px;border-radius:6px;border:0;background:#1d4ed8;"
                "color:#fff;cursor:pointer")
"""Style attributes only: the site's policy (``style-src 'self'``) refuses a page's own style element."""


def _page(title: str, body: str, status: int = 200) -> HTMLResponse:
    """A small page of its own (no script): what happened, and the way to the settings and the site."""
    return HTMLResponse(
        f'<!doctype html><html lang="en"><head><meta charset=utf-8>'
        f'<meta name="viewport" content="width=device-width, initial-scale=1"><title>{html.escape(title)} · Taproom'
        f'</title></head><body style="{BODY_STYLE}"><main style="max-width:34rem;margin:0 auto">'
        f"<h1>{html.escape(title)}</h1>{body}"
        '<p><a href="/#/settings" style="color:#1d4ed8">Your notification settings</a> · '
        '<a href="/" style="color:#1d4ed8">Taproom</a></p></main></body></html>', status_code=status)


def _bad_link(what: str) -> HTMLResponse:
    return _page("This link does not work", f"<p>{html.escape(what)}</p>", 404)


def _token_ok(token: str) -> bool:
    return 0 < len(token) <= 100


def _mailer(ctx: Context, request: Request) -> Mailer:
    return Mailer(ctx.redis, ctx.keys, ctx.root.queue(), _settings(request), ctx.root.clock)


@router.get("/players/me/notification-settings", response_model=NotificationSettings,
            responses=error_responses(401, 403))
def show_settings(request: Request, player: Principal = Depends(require_player),
                  ctx: Context = Depends(get_context)) -> dict[str, Any]:
    """The caller's kinds, quiet hours and e-mail choices, their address and their push subscriptions."""
    pid = player.player_id or ""
    settings = _settings(request)
    subs = PushSubscriptions(ctx.redis, ctx.keys).all(pid)
    return {"preferences": Preferences(ctx.redis, ctx.keys).get(pid).model_dump(mode="json"),
            "email": {**Addresses(ctx.redis, ctx.keys, settings).status(pid), "enabled": bool(settings.smtp_host)},
            "push": {"enabled": bool(settings.vapid_public_key), "public_key": settings.vapid_public_key or None,
                     "subscriptions": sorted(subs)}}


@router.put("/players/me/notification-settings", response_model=PreferencesSaved,
            responses=error_responses(400, 401, 403, 413, 422))
def put_settings(body: NotificationPrefs, player: Principal = Depends(require_player),
                 ctx: Context = Depends(get_context)) -> dict[str, Any]:
    """Replace the caller's choices; they apply to the webhook, e-mail and Web Push alike."""
    prefs = Preferences(ctx.redis, ctx.keys).put(player.player_id or "", body)
    return {"preferences": prefs.model_dump(mode="json")}


@router.put("/players/me/email", status_code=202, response_model=EmailPending,
            responses=error_responses(400, 401, 403, 409, 413, 422))
def set_email(body: EmailRequest, request: Request, player: Principal = Depends(require_player),
              ctx: Context = Depends(get_context)) -> dict[str, Any]:
    """Ask for e-mail at ``address``: a verification link is mailed there; e-mail starts once it is followed."""
    mailer = _mailer(ctx, request)
    if not mailer.enabled:
        raise ApiError("email_disabled", "this server sends no e-mail (no SMTP server configured)", 409)
    try:
        address = check_address(body.address)
    except InvalidCommand as exc:
        raise ApiError("invalid_email", exc.message, 422) from None
    mailer.send_verification(player.player_id or "", address)
    return {"pending": address}


@router.delete("/players/me/email", status_code=204, response_class=Response,
               responses=error_responses(401, 403))
def remove_email(request: Request, player: Principal = Depends(require_player),
                 ctx: Context = Depends(get_context)) -> Response:
    Addresses(ctx.redis, ctx.keys, _settings(request)).remove(player.player_id or "")
    return Response(status_code=204)


# The three routes below are opened by people from an e-mail: each answers a page (text/html), refusals
# included; the token is checked here rather than by the query's validation, whose refusal is JSON.
TokenQuery = Query("", description="the token of the e-mail's link (at most 100 characters)")


@router.get("/email/verify", response_class=HTMLResponse, responses=_html_errors(404))
def verify_email(request: Request, token: str = TokenQuery, ctx: Context = Depends(get_context)) -> HTMLResponse:
    """The link of a verification e-mail (a page; ``404`` a page saying the link is used or expired)."""
    done = Addresses(ctx.redis, ctx.keys, _settings(request)).verify(token) if _token_ok(token) else None
    if done is None:
        return _bad_link("This confirmation link is unknown, used or expired. Ask for a new one in your "
                         "notification settings.")
    return _page("E-mail confirmed", f"<p>Taproom will write to {html.escape(done[1])}.</p>")


@router.get("/email/unsubscribe", response_class=HTMLResponse, responses=_html_errors(404))
def unsubscribe_page(token: str = TokenQuery) -> HTMLResponse:
    """The unsubscribe link opened in a browser: one button (a GET changes nothing, since mail scanners
    follow links)."""
    if not _token_ok(token):
        return _bad_link("This unsubscribe link is incomplete. Choose your e-mails in your notification settings.")
    action = html.escape(f"/email/unsubscribe?token={token}", quote=True)
    return _page("Unsubscribe", f'<form method="post" action="{action}">'
                                f'<button type="submit" style="{BUTTON_STYLE}">Stop these e-mails</button></form>')


@router.post("/email/unsubscribe", response_class=HTMLResponse, responses=_html_errors(404))
def unsubscribe(request: Request, token: str = TokenQuery, ctx: Context = Depends(get_context)) -> HTMLResponse:
    """One-click unsubscribe (RFC 8058: the mail client POSTs ``List-Unsubscribe=One-Click`` here, without any
    login: the token in the URL is the authority); a person's button on the GET page posts here too."""
    done = Addresses(ctx.redis, ctx.keys, _settings(request)).unsubscribe(token) if _token_ok(token) else None
    if done is None:
        return _bad_link("This unsubscribe link is unknown or expired. Choose your e-mails in your notification "
                         "settings.")
    what = done[1].replace("_", " ") if done[1] else "all"
    return _page("Unsubscribed", f"<p>No more {html.escape(what)} e-mails. You can turn them on again in your "
                                 "notification settings.</p>")


@router.get("/push/key", response_model=PushKey, responses=error_responses(404))
def push_key(request: Request) -> dict[str, Any]:
    """The VAPID public key the page subscribes with (``applicationServerKey``)."""
    key = _settings(request).vapid_public_key
    if not key:
        raise ApiError("push_disabled", "this server sends no Web Push (no VAPID key configured)", 404)
    return {"public_key": key}


@router.post("/players/me/push-subscriptions", status_code=201, response_model=PushSubscribed,
             responses=error_responses(400, 401, 403, 404, 409, 413, 422))
def add_push_subscription(body: Subscription, request: Request, player: Principal = Depends(require_player),
                          ctx: Context = Depends(get_context)) -> dict[str, Any]:
    """Store the browser's push subscription (``PushSubscription.toJSON()``)."""
    settings = _settings(request)
    if not settings.vapid_public_key:
        raise ApiError("push_disabled", "this server sends no Web Push (no VAPID key configured)", 404)
    try:  # the endpoint is where the server will POST: the webhook's rules against SSRF hold here too
        check_url(body.endpoint, settings.webhook_allow_private, settings.webhook_allow_loopback, what="push endpoint")
    except InvalidCommand as exc:
        raise ApiError("invalid_push_endpoint", exc.message, 422) from None
    return {"id": PushSubscriptions(ctx.redis, ctx.keys).add(player.player_id or "", body,
                                                             settings.max_push_subscriptions_per_player)}


@router.delete("/players/me/push-subscriptions/{sub_id}", status_code=204, response_class=Response,
               responses=error_responses(401, 403, 404, 422))
def remove_push_subscription(sub_id: str, player: Principal = Depends(require_player),
                             ctx: Context = Depends(get_context)) -> Response:
    if not PushSubscriptions(ctx.redis, ctx.keys).remove(player.player_id or "", sub_id):
        raise ApiError("not_found", f"no push subscription {sub_id!r}")
    return Response(status_code=204)
