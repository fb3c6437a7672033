"""Hosted tournaments: people register, each round opens friends' tables of the round's boards, and the
standings come from what the tables played (``model``: what a tournament is and its results; ``service``:
what the routes call)."""
