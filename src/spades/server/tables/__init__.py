"""Friends' tables: the table (seats, host, bots, chat, one game after another), its log, its events.

``table`` holds the rules of a table and checks every command; ``log`` keeps tables as logs of
entries in the server's store (SQLite or PostgreSQL); ``events`` tells every server process when a
table changed (in the process, or through Redis); ``hub`` runs commands against the shared log;
``live`` serves WebSocket seats.
"""
