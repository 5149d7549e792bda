"""The top floor: the ways in and the long-running parts.

``api`` (HTTP), ``cli`` (the ``taproom`` command), ``workers`` (rq jobs), ``processor`` (the write side),
``projector`` (read models), ``reactor`` (events to jobs), ``feed`` (the loop projector and reactor share),
``runtime`` (every part as threads of one process). They call :mod:`services.application` and the parts
:mod:`services.infrastructure.bootstrap` builds; nothing below imports them.
"""
