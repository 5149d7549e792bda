"""The coach: a finished game's analysis (a thin adapter over :mod:`services.application.coach`)."""

from __future__ import annotations

from typing import Any, Literal

from fastapi import APIRouter, Depends, Query
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field

from projections.read_models import view
from services.adapters.api.bounds import MAX_INT
from services.adapters.api.deps import (
    Context,
    Principal,
    get_context,
    optional_principal,
    require_principal,
    resolve_seat,
    seats_of,
)
from services.adapters.api.errors import error_responses
from services.adapters.api.routers.games import GameId
from services.adapters.api.schemas import GameView
from services.application.coach import Coach, hint
from services.application.commands import actor_of

router = APIRouter(tags=["coach"])


class AnalysedDecision(BaseModel):
    version: int = Field(description="the game's version when the seat decided (replay it with GET /games/{id}/at/{version})")
    turn: int = Field(description="the game's turn number then (1 for the first)")
    played: dict[str, Any] = Field(description="the command the seat played")
    best: dict[str, Any] = Field(description="the search's best command from the seat's view then")
    value_played: float = Field(description="the played command's value: the search's estimate of the final score "
                                "margin over the best opponent, a mean over paired playouts on common chance")
    value_best: float = Field(description="the best command's value, on the same playouts")
    loss: float = Field(description="max(0, value_best - value_played): what the decision cost, in points")
    agreed: bool = Field(description="whether the played command is the search's best")
    played_events: list[dict[str, Any]] = Field(default_factory=list, description=(
        "the events the played command leads to, chance left out ({type, payload}, as in the history): a client "
        "words the move with them"))
    best_events: list[dict[str, Any]] = Field(default_factory=list, description="the same for the best command")


class AnalysedSeat(BaseModel):
    seat: int
    accuracy: float | None = Field(description="mean over the decisions of 100 * exp(-loss / scale), scale being the "
                                   "game's margin that counts as a clear lead: 100 when every decision is the search's")
    mean_loss: float = Field(description="mean loss per decision (points)")
    decisions: list[AnalysedDecision]


class AnalysisCost(BaseModel):
    decisions: int
    simulations: int
    cpu_seconds: float = Field(description="CPU time the analysis took (the budget is counted in simulations)")


class AnalysisOut(BaseModel):
    game_id: str
    status: Literal["pending", "running", "done", "failed"]
    poll: str = Field(description="where to ask for the result (GET)")
    seats: list[AnalysedSeat] = Field(description="each human seat's analysis (empty until done)")
    cost: AnalysisCost | None = None
    error: str | None = Field(None, description="why the analysis failed (asking again retries)")
    requested_at: float | None = None
    finished_at: float | None = None


def _out(game_id: str, doc: dict[str, Any]) -> AnalysisOut:
    return AnalysisOut(game_id=game_id, status=doc["status"], poll=f"/games/{game_id}/analysis",
                       seats=doc.get("seats") or [], cost=doc.get("cost"), error=doc.get("error"),
                       requested_at=doc.get("requested_at"), finished_at=doc.get("finished_at"))


@router.post("/games/{game_id}/analysis", status_code=202, response_model=AnalysisOut,
             responses={200: {"model": AnalysisOut, "description": "the analysis is done already"},
                        **error_responses(401, 403, 404, 409, 422)})
def request_analysis(game_id: str = GameId, principal: Principal = Depends(require_principal),
                     ctx: Context = Depends(get_context)) -> Any:
    """Ask the coach to analyse a finished game: every decision of every human seat, valued by the search bot
    from that seat's own view (a low-priority job: a two-player game takes a couple of minutes). Only a player of
    the game asks; asking again answers the same analysis (a failed one is tried again). A game still running
    cannot be analysed (`game_not_over`)."""
    meta = ctx.meta(game_id)
    coach = Coach(ctx.root, ctx.with_record, queues=ctx.queue_redis)
    doc = coach.request(game_id, seats_of(principal, game_id, meta))
    out = _out(game_id, doc)
    if out.status == "done":
        return JSONResponse(out.model_dump(mode="json"), status_code=200)
    return out


@router.get("/games/{game_id}/analysis", response_model=AnalysisOut, responses=error_responses(404, 409, 422))
def analysis(game_id: str = GameId, ctx: Context = Depends(get_context)) -> AnalysisOut:
    """The coach's analysis of a finished game: its status and, once done, each human seat's decisions (played
    and best command, their values and the loss) and accuracy. Readable by anyone once the game is over, also
    after the game was archived; `no_analysis` until a player asked for it."""
    return _out(game_id, Coach(ctx.root, ctx.with_record).result(game_id))


@router.get("/games/{game_id}/analysis/better", response_model=GameView, response_model_exclude_unset=True,
            responses=error_responses(401, 403, 404, 409, 422))
def better_move(game_id: str = GameId, version: int = Query(ge=0, le=MAX_INT), seat: int = Query(ge=0, le=MAX_INT),
                principal: Principal | None = Depends(optional_principal),
                ctx: Context = Depends(get_context)) -> Any:
    """A turning point's ghost: the view (as `GET /games/{id}/at/{version}` gives it) of the game as it would stand
    had `seat` played the coach's best command at `version`, decided on the game's own dice (the seed is public once
    the game is scored); seen from the caller's seat, or as the public sees it. `not_found` when the analysis has no decision of that seat at that version."""
    meta = ctx.meta(game_id)
    viewer = resolve_seat(principal, game_id, meta, None, required=False)  # as the page shows history: its own seat
    record, ts = Coach(ctx.root, ctx.with_record).better_position(game_id, version, seat)
    return view(record, viewer, ts)


class HintOut(BaseModel):
    version: int = Field(description="the version the hint is for (after the `taproom.HintAsked` event)")
    asked_at: int = Field(description="the version the hint's own event made")
    command: dict[str, Any] = Field(description="the search bot's move for your seat, as in your legal list (send it as it is)")
    events: list[dict[str, Any]] = Field(description="the events it would lead to, chance left out, to word it")


@router.post("/games/{game_id}/hint", response_model=HintOut, responses=error_responses(401, 403, 404, 409, 422))
def ask_hint(game_id: str = GameId, seat: int | None = Query(None, ge=0, le=MAX_INT),
             principal: Principal = Depends(require_principal), ctx: Context = Depends(get_context)) -> HintOut:
    """A hint in a casual game created with `hints`: the search bot's move for your seat now, from your seat's view
    alone. That you asked is in the game's log (`taproom.HintAsked`: the other seats see it); the move is in this
    answer only. `hints_off` in a game without hints, `not_your_turn` when your seat is not to act."""
    meta = ctx.meta(game_id)
    chosen = resolve_seat(principal, game_id, meta, seat, required=True)
    assert chosen is not None
    return HintOut(**hint(ctx.root, ctx.with_record, game_id, chosen, actor_of(principal.player_id, chosen)))
