"""What an rq job of asynchronous play is given of the settings: everything but the secrets.

The settings themselves are :class:`services.settings.AsyncSettings` (a section of the one
:class:`services.settings.Settings`).
"""

from __future__ import annotations

from typing import Any

from ..settings import SECRET_FIELDS, AsyncSettings


def job_settings(settings: AsyncSettings) -> dict[str, Any]:
    """The settings a job is given, without secrets."""
    return settings.model_dump(mode="json", include=set(AsyncSettings.model_fields) - SECRET_FIELDS)


def settings_in_job(given: dict[str, Any] | None) -> AsyncSettings:
    """Settings inside a job: those given, and the secrets from the worker's environment (constructing a
    settings object reads the environment for every field not passed)."""
    return AsyncSettings(**(given or {}))
