"""Read models folded from the event log: seat views, public view, history, lobby, inboxes."""
