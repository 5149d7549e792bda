"""What an HTTP command leaves in Redis besides the log (issue 35, defect 4): its command-id claim, 16 bytes in
one string per game (``claims.lua``), no key of its own (``body:``) and no hash entry (the ``bodies`` hash of
before, 100-200 bytes a command), while the promise holds: one id, one outcome, forever (an id sent again with
its body answers its outcome; with another body it is refused, also once every key with a time to live lapsed).
"""

from __future__ import annotations

import pytest

from services.infrastructure.eventstore import Keys

from .test_api import bearer, new_game, wait_for
from .test_command_ids import _over_time

pytestmark = pytest.mark.cluster

COMMANDS = 40


def test_an_http_command_leaves_a_16_byte_claim_and_its_promise(api, clients, settings):
    client = clients()
    keys = Keys(settings.key_prefix, settings.shards)
    game = new_game(api, target=1000)
    gid = game["game_id"]
    tokens = [s["token"] for s in game["seats"]]
    view = wait_for(api, f"/games/{gid}/view", bearer(tokens[0]), lambda b: b.get("version", 0) >= 3)
    to_act = view["to_act"]
    sent = []
    for n in range(COMMANDS):
        body = {"command_id": f"c{n}", "type": "Add", "amount": 1 + n % 3}
        answer = api.post(f"/games/{gid}/commands", headers=bearer(tokens[to_act[0]]), json=body)
        assert answer.status_code == 200, answer.text
        sent.append((to_act[0], body, answer.json()["version"]))
        to_act = answer.json()["to_act"]

    claims = client.get(keys.command_claims(gid))
    assert claims is not None and len(claims) == 16 * COMMANDS  # one claim a command, 16 bytes each
    own = [k.decode() for k in client.scan_iter(match=f"{settings.key_prefix}*{gid}*")]
    assert not [k for k in own if ":body" in k], own  # no per-command key, no fingerprint hash
    try:
        used = client.memory_usage(keys.command_claims(gid), samples=0)
    except Exception:  # fakeredis has no MEMORY USAGE
        used = None
    if used is not None:
        print(f"claims of {COMMANDS} commands: {used} bytes in Redis ({used / COMMANDS:.1f} a command)")
        assert used < 2 * 16 * COMMANDS + 128  # APPEND keeps room ahead (up to the length again)

    _over_time(api, client)  # whatever has a time to live lapses: the promise does not
    for seat, body, version in sent[:5]:
        again = api.post(f"/games/{gid}/commands", headers=bearer(tokens[seat]), json=body)
        assert (again.status_code, again.json()["version"]) == (200, version), again.text
        other = api.post(f"/games/{gid}/commands", headers=bearer(tokens[seat]), json={**body, "amount": 3 if body["amount"] != 3 else 1})
        assert (other.status_code, other.json().get("code")) == (409, "command_id_reused"), (body, other.text)
