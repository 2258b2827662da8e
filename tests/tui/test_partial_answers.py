"""A query typed while the model is still loading is answered by words at once, marked
partial on the status line, and searched again as soon as the model is there."""

from __future__ import annotations

import threading
from pathlib import Path

from amem_tui.demo import seed_demo
from amem_tui.engine.embed import HashEmbedder
from amem_tui.engine.store.edge import EdgeStore
from tests.support.engines import make_engine
from tests.support.tui import demo_app, demo_engine, main_screen, search_status, until


class GatedModel(HashEmbedder):
    """The test embedder, loading until the test lets it finish."""

    def __init__(self) -> None:
        super().__init__()
        self.gate = threading.Event()
        self._loaded = False

    @property
    def loaded(self) -> bool:
        return self._loaded

    def load(self) -> None:
        self.gate.wait(30)
        self._loaded = True


async def test_typed_before_the_model_then_whole(tmp_path: Path) -> None:
    settings = demo_engine(seed=False).settings
    writer = make_engine(EdgeStore(tmp_path / "store"), settings=settings)
    seed_demo(writer)
    writer.agent("dev").warm_up()  # the note index is read and saved, as after an import
    writer.close()
    model = GatedModel()
    engine = make_engine(EdgeStore(tmp_path / "store"), settings=settings, embedder=model)
    app = demo_app(engine, agent="dev")
    async with app.run_test(size=(160, 40)) as pilot:
        await until(pilot, lambda: getattr(app.screen, "scope", None) is not None)
        await pilot.press("slash", *"deploy")
        await until(pilot, lambda: " · for 'deploy'" in search_status(app))
        assert "partial: the model is still loading: matched by words only" in search_status(app)
        assert "keyword search" in search_status(app)
        header = main_screen(app).header_bar
        assert "loading model" in str(header.render())  # the header says why, meanwhile
        model.gate.set()
        await until(pilot, lambda: "hybrid search" in search_status(app))
        assert "partial" not in search_status(app)
        assert "loading model" not in str(header.render())
    engine.close()
