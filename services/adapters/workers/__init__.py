"""rq job functions and the in-process worker used by the embedded service."""
