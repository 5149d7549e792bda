"""What every command module of the CLI shares: the process's settings, with its logs configured."""

from __future__ import annotations

from services.infrastructure.settings import Settings, get_settings


def command_settings() -> Settings:
    """The process's settings, its logs configured (on stderr: stdout is the commands' own output)."""
    from services.infrastructure.logs import configure_logging

    settings = get_settings()
    configure_logging(settings.log_json, settings.log_level)
    return settings
