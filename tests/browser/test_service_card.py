"""An AI service's card in Settings: a long model id wraps inside its own cell, never over the
URL beside it, on a desktop and on a phone."""

import pytest
from playwright.sync_api import Page, expect

from aiservices.services import ai_service_create
from tests.browser.conftest import log_in

pytestmark = pytest.mark.browser

BOXES = """() => [...document.querySelectorAll('.service__facts > div')].map(cell => {
  const dd = cell.querySelector('dd');
  const r = dd.getBoundingClientRect();
  return {left: r.left, right: r.right, top: r.top, bottom: r.bottom,
          cellRight: cell.getBoundingClientRect().right,
          scroll: dd.scrollWidth, width: dd.clientWidth};
})"""


def _overlap(a, b) -> bool:
    return (
        a["left"] < b["right"] - 0.5
        and b["left"] < a["right"] - 0.5
        and a["top"] < b["bottom"] - 0.5
        and b["top"] < a["bottom"] - 0.5
    )


@pytest.mark.parametrize("width", [1280, 390])
def test_a_long_model_id_never_overlaps_the_url(page: Page, live_server, carol, settings, width):
    settings.SPARKY_ALLOW_PRIVATE_AI_URLS = True
    ai_service_create(
        user=carol,
        service_name="Local",
        service_type="ollama",
        api_key="",
        model_name="hf.co/someone/a-very-long-model-repository-name-GGUF:Q4_K_M_with_more",
        custom_url="http://127.0.0.1:11434/a/rather/long/path/to/the/server",
    )
    page.set_viewport_size({"width": width, "height": 900})
    log_in(page, live_server)
    page.goto(f"{live_server.url}/settings/ai/")
    expect(page.locator(".service")).to_contain_text("a-very-long-model")

    boxes = page.evaluate(BOXES)

    for i, box in enumerate(boxes):
        assert box["scroll"] <= box["width"] + 1, box  # its text fits its own cell
        assert box["right"] <= box["cellRight"] + 0.5, box
        for other in boxes[i + 1 :]:
            assert not _overlap(box, other), (box, other)
    assert page.evaluate("document.documentElement.scrollWidth") <= width
