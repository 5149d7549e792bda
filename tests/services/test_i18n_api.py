"""Issue 38 over HTTP: an error's ``message`` follows the caller's language (the code stays English), and a
player's language setting is kept, checked, and used when the request names no language."""

from __future__ import annotations


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def player(api, name: str) -> str:
    response = api.post("/players", json={"name": name})
    assert response.status_code == 201, response.text
    return response.json()["token"]


def test_an_error_reads_in_german_for_a_german_browser_and_keeps_its_english_code(api) -> None:
    german = api.get("/games/no-such-game", headers={"Accept-Language": "de-DE,de;q=0.9,en;q=0.8"})
    assert german.status_code == 404
    assert german.json()["code"] == "game_not_found"
    assert german.json()["message"] == ("Diese Partie gibt es nicht. Vielleicht ist der Link falsch geschrieben, "
                                        "oder die Partie wurde entfernt.")
    assert german.headers["content-language"] == "de"

    english = api.get("/games/no-such-game", headers={"Accept-Language": "en-GB,en;q=0.9"})
    assert english.json()["code"] == "game_not_found"
    assert "Partie" not in english.json()["message"]
    # a language the server does not offer, and no header at all: English
    assert api.get("/games/no-such-game", headers={"Accept-Language": "fr"}).json()["message"] \
        == english.json()["message"]
    assert api.get("/games/no-such-game").json()["message"] == english.json()["message"]


def test_q_values_decide_between_offered_languages(api) -> None:
    body = api.get("/games/no-such-game", headers={"Accept-Language": "en;q=0.4, de;q=0.8"}).json()
    assert body["message"].startswith("Diese Partie gibt es nicht")
    body = api.get("/games/no-such-game", headers={"Accept-Language": "de;q=0, en"}).json()
    assert not body["message"].startswith("Diese Partie")


def test_validation_and_auth_errors_are_worded_too(api) -> None:
    headers = {"Accept-Language": "de"}
    unauthorized = api.get("/players/me/language", headers=headers)
    assert unauthorized.status_code == 401 and unauthorized.json()["code"] == "unauthorized"
    assert unauthorized.json()["message"].startswith("Wähle zuerst einen Namen")
    malformed = api.post("/players", content=b"{not json", headers={**headers, "Content-Type": "application/json"})
    assert malformed.json() == {"code": "malformed_json", "message": "Die Seite hat etwas gesendet, das der Server "
                                "nicht lesen konnte. Lade die Seite neu und versuche es noch einmal."}


def test_the_language_setting_is_kept_checked_and_used_without_a_header(api) -> None:
    token = player(api, "anke")
    assert api.get("/players/me/language", headers=bearer(token)).json() == {"language": None}
    refused = api.put("/players/me/language", json={"language": "xx"}, headers=bearer(token))
    assert refused.status_code == 422 and refused.json()["code"] == "invalid_request"
    saved = api.put("/players/me/language", json={"language": "de"}, headers=bearer(token))
    assert saved.status_code == 200 and saved.json() == {"language": "de"}
    assert api.get("/players/me/language", headers=bearer(token)).json() == {"language": "de"}
    settings = api.get("/players/me/notification-settings", headers=bearer(token)).json()
    assert settings["preferences"]["language"] == "de"

    # no Accept-Language: the player's own setting words the error
    again = api.put("/players/me/language", json={"language": "klingon"}, headers=bearer(token))
    assert again.json() == {"code": "invalid_request", "message": "Der Server konnte das nicht annehmen. Prüfe "
                            "deine Eingaben und versuche es noch einmal."}
    # the header, when sent, is the reader's language of the moment
    english = api.put("/players/me/language", json={"language": "klingon"},
                      headers={**bearer(token), "Accept-Language": "en"})
    assert english.json()["code"] == "invalid_request" and "klingon" in english.json()["message"]
