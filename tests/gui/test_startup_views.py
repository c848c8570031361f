"""The first-start progress view and the About dialog."""

from __future__ import annotations

from PySide6.QtWidgets import QWidget
from pytestqt.qtbot import QtBot

from explorer.chain.bundled import read_bytes
from explorer.diagnostics import versions
from explorer.startup import ICON_FILES, ICON_SIZES, first_frame_icon
from explorer.viewmodels.devnet_start import DevnetStartViewModel, StartState
from explorer.viewmodels.shell import ShellViewModel
from explorer.views.about_dialog import AboutDialog, licence_texts
from explorer.views.devnet_progress import DevnetProgressView
from explorer.views.icons import APP_ICON_SIZES, app_icon, app_icon_png
from explorer.views.main_window import MainWindow


def clock(*times: float) -> DevnetStartViewModel:
    """Return a start model whose clock gives these times in turn."""
    return DevnetStartViewModel("/cache/devnet", clock=iter(times).__next__)


def test_building_shows_stage_blocks_and_time_left() -> None:
    model = clock(100.0, 110.0)
    model.start()
    model.on_progress("testnet", "building block 100 of 12,000", 0.05)
    assert model.eta == "Estimating the time left…"
    model.on_progress("testnet", "building block 6,000 of 12,000", 0.55)
    assert model.state is StartState.BUILDING
    assert model.blocks == "6,000 of 12,000 blocks built"
    assert model.eta == "About 9 s left"  # 0.5 of the work in 10 s, 0.45 to go
    assert "first start only" in model.stage


def test_a_snapshot_load_is_not_a_build() -> None:
    model = clock()
    model.start()
    model.on_progress("testnet", "loaded the snapshot", 1.0)
    assert model.state is StartState.STARTING
    assert model.stage == "Loaded the snapshot…"
    assert model.blocks == ""


def test_the_view_covers_the_page_area_while_starting_only(qtbot: QtBot) -> None:
    area = QWidget()
    qtbot.addWidget(area)
    area.resize(800, 600)
    model = clock(0.0, 4.0)
    view = DevnetProgressView(model, area)
    area.show()
    model.start()
    assert view.isVisible()
    assert view.geometry() == area.rect()
    area.resize(900, 700)
    assert view.geometry() == area.rect()
    model.on_progress("testnet", "building block 100 of 12,000", 0.05)
    model.on_progress("testnet", "building block 2,100 of 12,000", 0.45)
    assert view.blocks.text() == "2,100 of 12,000 blocks built"
    assert view.eta.text() == "About 6 s left"
    assert view.bar.value() == 450
    assert "/cache/devnet" in view.explanation.text()
    model.finish()
    assert not view.isVisible()


def test_a_failed_start_hides_the_view(qtbot: QtBot) -> None:
    area = QWidget()
    qtbot.addWidget(area)
    model = clock()
    view = DevnetProgressView(model, area)
    area.show()
    model.start()
    model.fail("The local devnet did not start: exited")
    assert not view.isVisible()
    assert model.state is StartState.FAILED


def test_about_shows_versions_and_licences(qtbot: QtBot) -> None:
    dialog = AboutDialog(app_icon(), versions(), licence_texts())
    qtbot.addWidget(dialog)
    titles = [dialog.tabs.tabText(i) for i in range(dialog.tabs.count())]
    assert titles == ["About", "Licence", "Third-party", "LGPL-3.0", "GPL-3.0"]
    for name in ("Explorer", "Python", "Qt", "PySide6-Essentials", "httpx", "py-evm"):
        assert dialog.version_labels[name].text() not in ("", "not installed")
    texts = dict(licence_texts())
    assert texts["Licence"].startswith("MIT License")
    assert "how to replace" not in texts["LGPL-3.0"]
    assert "Replace those files" in texts["Third-party"]
    assert "GNU LESSER GENERAL PUBLIC LICENSE" in texts["LGPL-3.0"]


def test_the_help_menu_offers_the_guide_the_shortcuts_and_about(qtbot: QtBot) -> None:
    window = MainWindow(ShellViewModel())
    qtbot.addWidget(window)
    menus = [menu.text() for menu in window.menuBar().actions()]
    assert menus == ["&File", "&View", "&Go", "&Tools", "&Help"]
    items = [action.text() for action in window.help.menu.actions() if action.text()]
    assert items == ["&User guide", "&Keyboard shortcuts", "&About Rootstock Explorer"]


def test_the_first_frame_shows_the_app_icon_files() -> None:
    assert ICON_SIZES == APP_ICON_SIZES
    for size in ICON_SIZES:
        path = ICON_FILES / f"{size}x{size}" / "apps" / "explorer.png"
        assert path.read_bytes() == read_bytes(app_icon_png(size))
    assert len(first_frame_icon().availableSizes()) == len(ICON_SIZES)
