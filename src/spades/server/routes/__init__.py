"""The API's routers, one per resource: players (token, settings, stats), games, and meta."""
