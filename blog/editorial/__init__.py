"""The editor's tools: the Posts list and the calendar, share-link and featuring screens, the
scheduler and rescheduling, the messages after a save, autosave, the content checks and the
dashboard panel. Everything here serves the admin and imports the content model, never the
other way round (the layers contract in pyproject.toml)."""
