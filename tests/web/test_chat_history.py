"""The chat survives a reload: the lines said before come back."""

from __future__ import annotations

from tests.web.conftest import MakePage


def test_the_chat_comes_back_after_a_reload(new_page: MakePage) -> None:
    ann = new_page()
    ann.enter_lobby("Ann")
    ann.play_now("three-thirteen")
    ann.page.click(".side-tabs [data-tab=chat]")
    for text in ("hello", "good luck"):
        ann.page.fill(".chat-form input", text)
        ann.page.keyboard.press("Enter")
        ann.page.wait_for_selector(f".chat-lines li:has-text('{text}')")
    ann.page.reload()
    ann.wait_table()
    ann.page.click(".side-tabs [data-tab=chat]")
    ann.page.wait_for_selector(".chat-lines li:has-text('good luck')")
    lines = [line for line in ann.page.locator(".chat-lines li").all_inner_texts() if line]
    assert len(lines) == 2
    assert "hello" in lines[0] and "good luck" in lines[1]
    assert not ann.errors, ann.errors
