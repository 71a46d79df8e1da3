"""Importers: folders of notes from other memory tools become entries, through curate."""

from brv_vc.services.face import lazy

TYPE_CHECKING = False
if TYPE_CHECKING:
    from brv_vc.services.importers.notes import FLAVOURS
    from brv_vc.services.importers.run import ImportResult, import_notes

__all__ = ["FLAVOURS", "ImportResult", "import_notes"]
__getattr__ = lazy(__name__, {"FLAVOURS": "notes", "ImportResult": "run",
                              "import_notes": "run"})
