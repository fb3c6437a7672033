"""The rule-option forms take every word from GET /api/rules: groups, labels, help, choices and bounds."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import expect

from browser.table import NewPage, open_table, tool

RULES = "async () => (await fetch('/api/rules')).json()"


def test_settings_shows_the_apis_groups_labels_help_and_choices(fresh_page: NewPage) -> None:
    page = fresh_page()
    open_table(page)
    meta: dict[str, Any] = page.evaluate(RULES)
    tool(page, "Settings").click()
    dialog = page.locator("#dlg-settings")
    expect(dialog.locator("details.rule-group summary")).to_have_text([g["label"] for g in meta["groups"]])
    for o in meta["options"]:
        field = dialog.locator(f"[data-option={o['name']}]")
        row = dialog.locator(f"label.opt:has([data-option={o['name']}])")
        group = dialog.locator(f"details.rule-group[data-group={o['group']}]")
        expect(group.locator(f"[data-option={o['name']}]")).to_have_count(1)
        expect(row.locator("span").first).to_have_text(o["label"])
        expect(row).to_have_attribute("title", o["help"])
        if o["kind"] == "choice":
            shown = field.evaluate("s => [...s.options].map((o) => o.textContent)")
            assert shown == [o["choice_labels"][c] for c in o["choices"]], o["name"]
        elif o["kind"] in ("int", "int_or_null"):
            for bound in ("min", "max"):
                if o[bound] is not None:
                    expect(field).to_have_attribute(bound, str(o[bound]))
