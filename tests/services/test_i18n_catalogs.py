"""The catalog check (issue 38): every sentence a player can read has a translation in every offered language.

* the web client: every literal first argument of ``t(``, ``tn(``, ``tx(`` and ``N_(`` in the client's modules
  (``services/web/static``) has a non-empty entry in that locale's catalogs (``static/i18n/<locale>/*.json``),
  with no placeholder the English does not have (a ``{name}`` the page cannot fill) and, for ``tn``, every
  plural form the locale's rules need (CLDR, via Babel);
* the server: every msgid Babel extracts from ``services/`` (gettext, ngettext, ``N_``) has a non-empty,
  non-fuzzy entry in ``services/locale/<locale>/LC_MESSAGES/messages.po`` with the same ``%(name)s`` fields;
* both sides offer the same languages; a msgid is one literal sentence, never a template with ``${…}``.

Runs in the suite (and alone: ``make i18n-check``); pure file reading, no server.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from babel import Locale
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po

ROOT = Path(__file__).resolve().parents[2]
STATIC = ROOT / "services" / "web" / "static"
I18N = STATIC / "i18n"
LOCALE_DIR = ROOT / "services" / "locale"

INDEX = json.loads((I18N / "index.json").read_text(encoding="utf-8"))
TARGETS = sorted(code for code in INDEX["locales"] if code != "en")

_LITERAL = r'"(?:[^"\\\n]|\\.)*"|\'(?:[^\'\\\n]|\\.)*\''
_ARG = rf"(?:{_LITERAL})(?:\s*\+\s*(?:{_LITERAL}))*"
CALL = re.compile(rf"(?<![\w.$])(?P<fn>tnx|tn|tx|t|N_)\(\s*(?P<first>{_ARG})(?:\s*,\s*(?P<second>{_ARG}))?")
TEMPLATE_ID = re.compile(r"(?<![\w.$])(?:tnx|tn|tx|t|N_)\(\s*`[^`]*\$\{")
PLACEHOLDER = re.compile(r"\{(\w+)\}")
PY_FIELD = re.compile(r"%\((\w+)\)[sd]")


def js_literal(literal: str) -> str:
    body = literal[1:-1]
    if literal[0] == "'":
        body = body.replace("\\'", "'").replace('"', '\\"')
    return json.loads(f'"{body}"')


def js_string(arg: str) -> str:
    """The text of a literal, or of literals joined by +, as JavaScript reads it."""
    return "".join(js_literal(p) for p in re.findall(_LITERAL, arg))


def client_sources() -> list[Path]:
    return sorted(p for p in STATIC.rglob("*.js") if "vendor" not in p.parts and p.name != "sw.js")


COMMENT = re.compile(r"^\s*//.*$|/\*[\s\S]*?\*/", re.MULTILINE)


def without_comments(text: str) -> str:
    """The source with its whole-line and block comments blanked (line numbers kept): an example in a comment
    is not a msgid."""
    return COMMENT.sub(lambda m: "\n" * m.group(0).count("\n"), text)


def client_msgids() -> dict[str, tuple[str, str | None, str]]:
    """msgid -> (function, plural or None, where first used)."""
    found: dict[str, tuple[str, str | None, str]] = {}
    for path in client_sources():
        text = without_comments(path.read_text(encoding="utf-8"))
        for m in CALL.finditer(text):
            msgid = js_string(m["first"])
            plural = js_string(m["second"]) if m["fn"] in ("tn", "tnx") and m["second"] else None
            where = f"{path.relative_to(STATIC)}:{text.count(chr(10), 0, m.start()) + 1}"
            found.setdefault(msgid, (m["fn"], plural, where))
    return found


def client_catalog(code: str) -> dict[str, object]:
    merged: dict[str, object] = {}
    for domain in INDEX["domains"]:
        path = I18N / code / f"{domain}.json"
        if path.is_file():
            merged.update(json.loads(path.read_text(encoding="utf-8")))
    return merged


def test_the_client_finds_msgids_and_the_two_sides_offer_the_same_languages() -> None:
    assert len(client_msgids()) > 100  # the extractor sees the frame's sentences
    assert INDEX["locales"]["en"] == "English"
    server = sorted(p.parent.parent.name for p in LOCALE_DIR.glob("*/LC_MESSAGES/messages.po"))
    assert server == TARGETS, "a language is offered by the client and the server alike"
    for code in TARGETS:
        for domain in INDEX["domains"]:
            path = I18N / code / f"{domain}.json"
            assert path.is_file(), f"{path} is missing (an empty object is fine while a domain has no sentences)"
            assert isinstance(json.loads(path.read_text(encoding="utf-8")), dict)


def test_no_msgid_is_a_template_with_holes() -> None:
    bad = [f"{p.relative_to(STATIC)}: {m.group(0)}" for p in client_sources()
           for m in TEMPLATE_ID.finditer(without_comments(p.read_text(encoding="utf-8")))]
    assert not bad, "a msgid is one literal sentence with {placeholders}, not a template literal:\n" + "\n".join(bad)


@pytest.mark.parametrize("code", TARGETS)
def test_every_client_sentence_is_translated(code: str) -> None:
    catalog = client_catalog(code)
    forms = Locale.parse(code).plural_form.tags | {"other"}
    problems = []
    for msgid, (fn, plural, where) in sorted(client_msgids().items()):
        entry = catalog.get(msgid)
        allowed = set(PLACEHOLDER.findall(msgid)) | set(PLACEHOLDER.findall(plural or ""))
        if fn in ("tn", "tnx"):
            allowed.add("n")
            if not isinstance(entry, dict) or any(not entry.get(f) for f in forms):
                problems.append(f"{where}: {msgid!r} needs the plural forms {sorted(forms)}")
                continue
            texts = [entry[f] for f in forms]
        else:
            if not isinstance(entry, str) or not entry.strip():
                problems.append(f"{where}: {msgid!r} has no {code} translation")
                continue
            texts = [entry]
        for text in texts:
            extra = set(PLACEHOLDER.findall(text)) - allowed
            if extra:
                problems.append(f"{where}: {msgid!r}: the translation has placeholders {sorted(extra)} the English lacks")
    assert not problems, f"{len(problems)} client sentences lack a {code} translation:\n" + "\n".join(problems)


def server_msgids() -> dict[str | tuple[str, str], str]:
    keywords = {"gettext": None, "ngettext": (1, 2), "N_": None}
    found: dict[str | tuple[str, str], str] = {}
    mapping = [("**.py", "python")]
    for filename, lineno, message, _comments, _context in extract_from_dir(
            ROOT / "services", mapping, keywords=keywords):
        if isinstance(message, tuple):
            message = (message[0], message[1])
        found.setdefault(message, f"services/{filename}:{lineno}")
    return found


@pytest.mark.parametrize("code", TARGETS)
def test_every_server_sentence_is_translated_and_none_is_fuzzy(code: str) -> None:
    with (LOCALE_DIR / code / "LC_MESSAGES" / "messages.po").open("rb") as po:
        catalog = read_po(po, locale=code)
    problems = []
    msgids = server_msgids()
    assert len(msgids) > 60
    for msgid, where in sorted(msgids.items(), key=lambda item: str(item[0])):
        key = msgid[0] if isinstance(msgid, tuple) else msgid
        entry = catalog.get(key)
        if entry is None:
            problems.append(f"{where}: {key!r} is not in the catalog (make i18n-update)")
            continue
        if entry.fuzzy:
            problems.append(f"{where}: {key!r} is fuzzy (a guess: check it and remove the flag)")
        strings = list(entry.string) if isinstance(entry.string, tuple) else [entry.string]
        if not strings or any(not s for s in strings):
            problems.append(f"{where}: {key!r} has no {code} translation")
            continue
        wanted = set(PY_FIELD.findall(key)) | (set(PY_FIELD.findall(msgid[1])) if isinstance(msgid, tuple) else set())
        for s in strings:
            if not set(PY_FIELD.findall(s)) <= wanted:
                problems.append(f"{where}: {key!r}: fields {sorted(set(PY_FIELD.findall(s)) - wanted)} unknown")
    assert not problems, f"{len(problems)} server sentences lack a {code} translation:\n" + "\n".join(problems)
