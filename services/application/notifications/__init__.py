"""Notifications: preferences, e-mail, Web Push and webhooks, and the notifier that picks the channels."""
