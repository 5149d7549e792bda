"""What a notification e-mail says, as plain text and as a short, accessible HTML part (multipart/alternative).

The HTML part is one column of text a screen reader reads in order: a heading (what is asked of you), who
moved, the deadline when there is one, and one button (a link styled as one) to the game's page in the web
client. Every value from a message (names, game ids) is escaped; links are the game page (``/#/game/{id}``)
or a settings page, never a JSON route.
"""

from __future__ import annotations

import html
from dataclasses import dataclass
from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

from domain.core.lifecycle import GameRecord
from domain.core.undo import actor_seat
from services.application.notifications import words
from services.infrastructure.bootstrap import Root
from services.infrastructure.i18n import normalize, translator
from services.infrastructure.settings import AsyncSettings


def game_link(settings: AsyncSettings, game_id: str) -> str:
    """The game's page for a person (the web client's route), not its JSON."""
    return f"{settings.public_url.rstrip('/')}/#/game/{game_id}"


def settings_link(settings: AsyncSettings) -> str:
    """The page where a person chooses which e-mails they get (the web client's settings)."""
    return f"{settings.public_url.rstrip('/')}/#/settings"


def mover_name(record: GameRecord, actor: str) -> str | None:
    """Who a command's actor is, by name: a seat's holder or a bot; None for the service (a timeout, the start)."""
    seat = actor_seat(record, actor)
    if seat is not None and 0 <= seat < len(record.seats):
        return record.seats[seat].name
    kind, _, level = actor.partition(":")
    if kind == "bot":
        names = [s.name for s in record.seats if s.bot == level and s.name]
        return names[0] if len(names) == 1 else f"The {level} bot"
    return None


def who_moved(root: Root, game_id: str, version: int) -> str | None:
    """The name of who made the move that began a wait at ``version`` (read when the e-mail is written, by its
    job: the reactor, which follows the feeds without reading logs, does not look it up for every turn)."""
    if version <= 0:
        return None
    found = root.store.read(game_id, after=version - 1, until=version)
    record = root.records(cache_size=1).current(game_id).record
    return mover_name(record, found[0].actor) if found and record is not None else None


@dataclass(frozen=True)
class Content:
    subject: str
    text: str
    html: str


def N_(message: str) -> str:  # gettext's marker: translated where it is shown
    return message


ASKS = {"your_turn": N_("Play your move"), "deadline_soon": N_("Play your move before the deadline"),
        "invited": N_("Accept or decline the seat"), "absence_warning": N_("Play a move to keep your seat"),
        "absent": N_("Play a move to stop the vote"), "game_over": N_("See the final scores")}
"""What is asked of the player, per kind (the button's words)."""


def when_text(ts: float, zone: ZoneInfo, locale: str | None = None) -> str:
    """A deadline as a person reads it, in their zone and language: "Wed 2 Dec, 14:05 (Europe/Berlin)" (the
    pattern's words and order from Babel's locale data: "Mi. 2 Dez., 14:05" in German)."""
    from babel.dates import format_datetime

    local = datetime.fromtimestamp(ts, zone)
    return f"{format_datetime(local, 'EEE d MMM, HH:mm', locale=normalize(locale))} ({zone.key})"


def compose(kind: str, data: dict[str, Any], title: str, line: str, settings: AsyncSettings, zone: ZoneInfo,
            unsubscribe_url: str | None, locale: str | None = None) -> Content:
    """The subject, text and HTML of one message (``title`` and ``line`` from :func:`.words.describe`), in the
    player's language."""
    tr = translator(locale)
    game_id = str(data.get("game_id") or "")
    link = game_link(settings, game_id) if game_id else settings.public_url.rstrip("/") + "/"
    mover = data.get("mover")
    deadline = data.get("deadline")
    facts: list[str] = []
    if mover:
        facts.append((tr.gettext("%(name)s moved.") if kind == "your_turn" else tr.gettext("From %(name)s."))
                     % {"name": mover})
    facts.append(line)
    if isinstance(deadline, int | float):
        facts.append(tr.gettext("Deadline: %(when)s.") % {"when": when_text(float(deadline), zone, locale)})
    ask = tr.gettext(ASKS.get(kind, N_("Open the game")))
    text = "\n".join(facts) + (f"\n\n{ask}: {link}" if game_id else "")
    text += "\n\n" + tr.gettext("Choose which e-mails you get: %(link)s") % {"link": settings_link(settings)}
    if unsubscribe_url:
        text += "\n" + words.stop_these(unsubscribe_url, locale)
    html_part = page(title, facts, ask, link if game_id else None, settings, unsubscribe_url, locale=locale)
    return Content(words.subject(title, locale, bool(game_id)), text + "\n", html_part)


def page(title: str, facts: list[str], ask: str, link: str | None, settings: AsyncSettings,
         unsubscribe_url: str | None, extra: str = "", locale: str | None = None) -> str:
    """The HTML part: inline styles only (mail clients drop style sheets), high contrast, a 44 px button."""
    e = html.escape
    tr = translator(locale)
    paragraphs = "".join(f'<p style="margin:0 0 12px">{e(f)}</p>' for f in facts)
    button = (f'<p style="margin:20px 0"><a href="{e(link, quote=True)}" style="display:inline-block;'
              'background:#1d4ed8;color:#ffffff;padding:12px 20px;border-radius:6px;font-weight:bold;'
              f'text-decoration:none;min-height:20px">{e(ask)}</a></p>') if link else ""
    footer = (f'<a href="{e(settings_link(settings), quote=True)}" style="color:#1d4ed8">'
              f'{e(tr.gettext("Choose which e-mails you get"))}</a>')
    if unsubscribe_url:
        footer += (f' · <a href="{e(unsubscribe_url, quote=True)}" style="color:#1d4ed8">'
                   f'{e(tr.gettext("Stop these e-mails"))}</a>')
    return (f'<!doctype html><html lang="{e(normalize(locale))}"><head><meta charset="utf-8">'
            '<meta name="viewport" content="width=device-width, initial-scale=1">'
            f"<title>{e(title)}</title></head>"
            '<body style="margin:0;padding:16px;background:#ffffff;color:#111827;'
            'font:16px/1.5 -apple-system,Segoe UI,Roboto,Helvetica,Arial,sans-serif">'
            '<main style="max-width:560px;margin:0 auto">'
            f'<h1 style="font-size:22px;margin:0 0 12px">{e(title)}</h1>{paragraphs}{extra}{button}'
            f'<p style="margin:24px 0 0;font-size:14px;color:#374151">{footer}</p>'
            "</main></body></html>")


def digest_content(items: list[tuple[str, str]], settings: AsyncSettings, unsubscribe_url: str | None,
                   locale: str | None, day: datetime) -> Content:
    """The daily digest: ``items`` are (line, game link) pairs, one per message; ``day`` names it."""
    e = html.escape
    tr = translator(locale)
    intro = words.digest_intro(locale)
    text = intro + "\n\n" + "\n".join(f"- {line} {link}" for line, link in items)
    text += "\n\n" + tr.gettext("Choose which e-mails you get: %(link)s") % {"link": settings_link(settings)}
    if unsubscribe_url:
        text += "\n" + words.stop_these(unsubscribe_url, locale)
    rows = "".join(f'<li style="margin:0 0 10px">{e(line)} <a href="{e(link, quote=True)}" style="color:#1d4ed8">'
                   f'{e(tr.gettext("Open the game"))}</a></li>' for line, link in items)
    title = tr.gettext("Your daily digest (%(n)s)") % {"n": len(items)}
    body = page(title, [intro], "", None, settings, unsubscribe_url,
                extra=f'<ul style="padding-left:20px">{rows}</ul>', locale=locale)
    subject = words.digest_subject(len(items), day, locale)
    return Content(subject, text + "\n", body)
