"""The settings: every SPADES_* variable is read and checked, and command-line flags win."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from spades.errors import SpadesError
from spades.server.settings import ENV_PREFIX, Settings


def test_every_field_has_a_variable_and_the_flags_win() -> None:
    env = {"SPADES_DB": "/tmp/a.db", "SPADES_HOST": "0.0.0.0", "SPADES_PORT": "8100",
           "SPADES_MAX_BODY_BYTES": "1000", "SPADES_RATE_PER_TOKEN": "2.5", "SPADES_BURST_PER_TOKEN": "7",
           "SPADES_RATE_PER_ADDRESS": "0", "SPADES_BURST_PER_ADDRESS": "9",
           "SPADES_TRUSTED_PROXIES": "127.0.0.1,10.1.0.0/16", "SPADES_ACCESS_LOG": "off",
           "SPADES_HSTS": "yes", "SPADES_REDIS_URL": "redis://127.0.0.1:6379/0",
           "SPADES_DATABASE_URL": "postgresql://u@h/d", "SPADES_WORKERS": "3", "SPADES_COACH_WORKERS": "0",
           "SPADES_COACH_SAMPLES": "40", "SPADES_QUICK_FILL": "12.5", "SPADES_BOTS": "mine=exec:ls -l",
           "SPADES_SIGN_INS_PER_MINUTE": "2", "SPADES_SIGN_IN_BURST": "4",
           "SPADES_PASSKEY_RP_ID": "cards.example.org", "SPADES_PASSKEY_ORIGIN": "https://cards.example.org"}
    s = Settings.from_env(env)
    assert s == Settings(db_path="/tmp/a.db", host="0.0.0.0", port=8100, max_body_bytes=1000,
                         rate_per_token=2.5, burst_per_token=7, rate_per_address=0, burst_per_address=9,
                         trusted_proxies=("127.0.0.1", "10.1.0.0/16"), access_log=False, hsts=True,
                         redis_url="redis://127.0.0.1:6379/0", database_url="postgresql://u@h/d", workers=3,
                         coach_workers=0, coach_samples=40, quick_fill=12.5, bots="mine=exec:ls -l",
                         sign_ins_per_minute=2, sign_in_burst=4, passkey_rp_id="cards.example.org",
                         passkey_origin="https://cards.example.org")
    assert Settings.from_env(s.to_env()) == s and s.database == "postgresql://u@h/d"
    names = {ENV_PREFIX + f.metadata.get("env", f.name.upper()) for f in dataclasses.fields(Settings)}
    assert names == set(env)
    flags = Settings.from_env(env, port=9000, db_path=Path("b.db"), host=None)
    assert (flags.port, flags.db_path, flags.host) == (9000, Path("b.db"), "0.0.0.0")


@pytest.mark.parametrize(("name", "value", "message"), [
    ("SPADES_PORT", "eighty", "SPADES_PORT must be an integer, not 'eighty'"),
    ("SPADES_PORT", "70000", "SPADES_PORT must be a port number"),
    ("SPADES_MAX_BODY_BYTES", "0", "SPADES_MAX_BODY_BYTES must be at least 1"),
    ("SPADES_WORKERS", "0", "SPADES_WORKERS must be at least 1"),
    ("SPADES_COACH_WORKERS", "9", "SPADES_COACH_WORKERS must be 0 (no coach) to 8"),
    ("SPADES_COACH_SAMPLES", "1", "SPADES_COACH_SAMPLES must be at least 2"),
    ("SPADES_QUICK_FILL", "0", "SPADES_QUICK_FILL must be 1 to 600 seconds"),
    ("SPADES_RATE_PER_TOKEN", "-1", "SPADES_RATE_PER_TOKEN must be 0 (off) or a positive number"),
    ("SPADES_RATE_PER_ADDRESS", "inf", "SPADES_RATE_PER_ADDRESS must be 0 (off)"),
    ("SPADES_ACCESS_LOG", "maybe", "SPADES_ACCESS_LOG must be 1 or 0, not 'maybe'"),
    ("SPADES_BOTS", "mine=exec:/no/such/bot", "SPADES_BOTS: The bot's program '/no/such/bot' is not found"),
    ("SPADES_TRUSTED_PROXIES", "10.0.0.1,proxy.local", "'proxy.local' is not an address or a network"),
])
def test_a_bad_value_is_refused_with_its_name(name: str, value: str, message: str) -> None:
    with pytest.raises(SpadesError, match=message.replace("(", r"\(").replace(")", r"\)")):
        Settings.from_env({name: value})
