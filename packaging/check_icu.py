"""Check that the bundle's trimmed ICU data gives Qt the answers the whole data gives.

Asks Qt everything it asks ICU (decoding through every converter ICU offers, case mapping,
collation and time-zone names in every locale Qt knows, every zone's names in a few) twice
with this Python's PySide6: on the wheel's own libraries, then on the bundle's (LD_LIBRARY_PATH
comes before their RUNPATH), and compares. A few known answers guard against both runs failing
alike, and each run says which libicudata it loaded.

    check_icu.py QT_LIB_DIR    compare the wheel's answers with those of the bundle's Qt
    check_icu.py --answers     print the answers (what each run does)
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

from PySide6.QtCore import (
    QBuffer,
    QByteArray,
    QCollator,
    QIODevice,
    QLocale,
    QStringConverter,
    QTimeZone,
    QXmlStreamReader,
)

ENCODED = b"\x82\xa0\xc0\xe4\xa4\xa2"  # Shift_JIS "あ", then bytes each codec reads its way
WORDS = ("ä", "z", "ch", "h", "ı", "i", "阿", "不", "ё", "е", "a1", "a10", "a2", "Å", "ø")
CASED = "iıßǆﬁİΣσς"
ZONES = (b"Europe/Berlin", b"America/New_York", b"Asia/Kolkata", b"Etc/GMT-3", b"Asia/Tehran")
FEW = ("de_DE", "ar_EG", "ja_JP", "ru_RU", "fa_IR", "en_US")
KNOWN = (  # (question, answer) from ICU's data whatever the version
    ("decode Shift_JIS", "あ"),
    ("decode windows-1251", "А"),
    ("upper tr_TR", "İ"),
    ("collate sv_SE ä z", "1"),
    ("zone de_DE", "Mitteleuropäische Normalzeit"),
)


def decoded(codec: str, data: bytes) -> str:
    """Return data read through an XML document that declares the codec (Qt asks ICU)."""
    declared = b'<?xml version="1.0" encoding="' + codec.encode() + b'"?><a>' + data + b"</a>"
    buffer = QBuffer()
    buffer.setData(QByteArray(declared))
    buffer.open(QIODevice.OpenModeFlag.ReadOnly)
    reader = QXmlStreamReader(buffer)
    reader.readNextStartElement()
    return reader.readElementText() or reader.errorString()


def zone_names(zone: QTimeZone, locale: QLocale) -> str:
    """Return every name Qt gives a time zone in a locale."""
    kinds = QTimeZone.TimeType
    forms = QTimeZone.NameType
    return "|".join(
        zone.displayName(kind, form, locale)
        for kind in (kinds.StandardTime, kinds.DaylightTime, kinds.GenericTime)
        for form in (forms.LongName, forms.ShortName, forms.OffsetName)
    )


def answers() -> Iterator[tuple[str, str]]:
    """Yield (question, answer) for everything Qt asks ICU."""
    yield "decode Shift_JIS", decoded("Shift_JIS", b"\x82\xa0")
    yield "decode windows-1251", decoded("windows-1251", b"\xc0")
    for codec in QStringConverter.availableCodecs():
        yield f"decode {codec}", decoded(codec, ENCODED)
    yield "upper tr_TR", QLocale("tr_TR").toUpper("i")
    yield (
        "zone de_DE",
        QTimeZone(b"Europe/Berlin").displayName(
            QTimeZone.TimeType.StandardTime, QTimeZone.NameType.LongName, QLocale("de_DE")
        ),
    )
    yield "collate sv_SE ä z", str(QCollator(QLocale("sv_SE")).compare("ä", "z"))
    any_locale = (
        QLocale.Language.AnyLanguage,
        QLocale.Script.AnyScript,
        QLocale.Country.AnyTerritory,
    )
    for locale in QLocale.matchingLocales(*any_locale):
        name = locale.bcp47Name()
        yield f"case {name}", locale.toUpper(CASED) + locale.toLower(CASED)
        collator = QCollator(locale)
        for numeric in (False, True):
            collator.setNumericMode(numeric)
            compared = ",".join(str(collator.compare(a, b)) for a in WORDS for b in WORDS)
            yield f"collate {name} {numeric}", compared
        for zone in ZONES:
            yield f"zone {name} {zone.decode()}", zone_names(QTimeZone(zone), locale)
    for zone_id in QTimeZone.availableTimeZoneIds():
        for name in FEW:
            yield (
                f"zone {name} {zone_id.toStdString()}",
                zone_names(QTimeZone(zone_id), QLocale(name)),
            )


def loaded_icu_data() -> str:
    """Return the path of the libicudata this process has loaded."""
    maps = Path("/proc/self/maps").read_text().splitlines()
    return next((line.split()[-1] for line in maps if "libicudata" in line), "none")


def ask(environment: dict[str, str]) -> tuple[str, list[str]]:
    """Run the questions in a child; return the libicudata it loaded and its answer lines."""
    done = subprocess.run(
        [sys.executable, __file__, "--answers"], env=environment, capture_output=True, text=True
    )
    if done.returncode:
        raise SystemExit(f"the questions failed: {done.stderr[-2000:]}")
    lines = done.stdout.splitlines()
    return lines[0], lines[1:]


def compare(qt_lib: Path) -> str:
    """Compare the wheel's answers with the bundle's; return a summary or raise SystemExit."""
    clean = {k: v for k, v in os.environ.items() if k != "LD_LIBRARY_PATH"}
    wheel_data, wheel = ask(clean)
    bundle_data, bundle = ask({**clean, "LD_LIBRARY_PATH": str(qt_lib.resolve())})
    if not bundle_data.startswith(str(qt_lib.resolve())):
        raise SystemExit(f"the bundle's Qt loaded {bundle_data}, not its own libicudata")
    for question, answer in KNOWN:
        for run, said in (("wheel", wheel), ("bundle", bundle)):
            if f"{question}\t{answer}" not in said:
                raise SystemExit(f"{run}: {question} is not {answer}")
    differences = [f"{a!r} != {b!r}" for a, b in zip(wheel, bundle, strict=False) if a != b]
    if differences or len(wheel) != len(bundle):
        shown = "\n".join(differences[:5])
        raise SystemExit(f"{len(differences)} answers differ from the whole ICU data:\n{shown}")
    return f"{len(bundle)} answers of the bundle's ICU data ({bundle_data}) as with the whole data"


if __name__ == "__main__":
    if sys.argv[1:] == ["--answers"]:
        print(loaded_icu_data())
        for question, answer in answers():
            print(f"{question}\t{answer}")
    else:
        print(f"packaging: {compare(Path(sys.argv[1]))}")
