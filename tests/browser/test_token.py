"""A page whose saved token the server does not know (its database was replaced) starts afresh."""

from __future__ import annotations

from browser.table import CURRENT_GAME, NewPage, open_table

FORGOTTEN = "A" * 32


def test_a_token_the_server_never_issued_is_replaced_and_the_table_opens(fresh_page: NewPage) -> None:
    page = fresh_page()
    page.add_init_script(f"""if (!sessionStorage.getItem("seeded")) {{
        sessionStorage.setItem("seeded", "1"); localStorage.setItem("spades.token", "{FORGOTTEN}"); }}""")
    open_table(page)
    token = page.evaluate("localStorage.getItem('spades.token')")
    assert token and token != FORGOTTEN
    assert page.evaluate(CURRENT_GAME)["phase"] == "bid"
