"""Dispatch by format: which module renders or writes which document, and the error net.

Every library error becomes one DocumentError sentence here, so no traceback and no
library message ever reaches the model or the person.
"""

from __future__ import annotations

import logging
import warnings
from pathlib import Path

from app.core.documents.base import DocumentError, refused_write, writable_kind
from app.core.documents.guard import Full, Out, corrupt_sentence, open_package

# The libraries talk about the files they read (openpyxl warns of each extension it drops,
# pypdf logs each flaw of a PDF): a person never sees that on a terminal. What matters
# reaches them as the one sentence of a DocumentError, and keep.py decides what is dropped.
warnings.filterwarnings("ignore", module=r"(openpyxl|docx|pptx|pypdf)(\..*)?$")
logging.getLogger("pypdf").addHandler(logging.NullHandler())


def render(path: Path, seconds: float | None = None, looks: bool = False) -> str:
    """The Markdown of the document at `path`, within guard's budgets (or `seconds`);
    `looks`: a Word document's underline and colours marked for the change view."""
    suffix = path.suffix.lower()
    out = Out(seconds=seconds)
    try:
        if suffix == ".pdf":
            import app.core.documents.pdf as pdf  # noqa: PLC0415 - only the reader of the document's format loads its library (tests/test_architecture.py)
            pdf.render(path, out)
        else:
            with open_package(path) as zf:
                if suffix == ".docx":
                    import app.core.documents.word as word  # noqa: PLC0415 - only the reader of the document's format loads its library (tests/test_architecture.py)
                    word.render(path, out, looks)
                elif suffix in (".xlsx", ".xlsm"):
                    import app.core.documents.sheets as sheets  # noqa: PLC0415 - only the reader of the document's format loads its library (tests/test_architecture.py)
                    sheets.render(path, out)
                elif suffix == ".pptx":
                    import app.core.documents.slides as slides  # noqa: PLC0415 - only the reader of the document's format loads its library (tests/test_architecture.py)
                    slides.render(path, zf, out)
                elif suffix in (".odt", ".ods", ".odp"):
                    import app.core.documents.odf as odf  # noqa: PLC0415 - only the reader of the document's format loads its library (tests/test_architecture.py)
                    odf.render(path, zf, out)
                else:
                    raise DocumentError(f"'{path.name}' is not a document this app can read.")
    except Full as full:
        out.lines += ["", full.note] if out.lines and out.lines[-1] else [full.note]
    except DocumentError:
        raise
    except MemoryError:
        raise DocumentError(f"'{path.name}' is too large to be read.") from None
    except RecursionError:
        raise DocumentError(corrupt_sentence(path)) from None
    except Exception:  # the libraries raise many kinds of errors on damaged files
        raise DocumentError(corrupt_sentence(path)) from None
    text = out.text()
    return text or f"('{path.name}' holds no text.)\n"


def write(path: Path, markdown: str, existing: bool) -> bytes:
    sentence = refused_write(path)
    if sentence:
        raise DocumentError(sentence)
    kind = writable_kind(path)
    if existing and kind == "xlsx":   # the workbook's own XML, changed cell by cell
        from app.core.documents.xlsx_rewrite import rewrite  # noqa: PLC0415 - only the reader of the document's format loads its library (tests/test_architecture.py)
        return rewrite(path, markdown)
    data: bytes
    try:
        if kind == "docx" and existing:   # merged into the document's own XML
            from app.core.documents.word_merge import merge_docx  # noqa: PLC0415 - only the reader of the document's format loads its library (tests/test_architecture.py)
            data = merge_docx(path, markdown)
        elif kind == "docx":
            from app.core.documents.word_write import markdown_to_docx  # noqa: PLC0415 - only the reader of the document's format loads its library (tests/test_architecture.py)
            data = markdown_to_docx(markdown)
        elif kind == "xlsx":
            from app.core.documents.sheet_write import markdown_to_xlsx  # noqa: PLC0415 - only the reader of the document's format loads its library (tests/test_architecture.py)
            data = markdown_to_xlsx(markdown)
        else:
            raise DocumentError(f"'{path.name}' is not a document this app can write.")
    except DocumentError:
        raise
    except Exception as exc:
        raise DocumentError(f"'{path.name}' could not be made from that Markdown "
                            f"({type(exc).__name__}); nothing was written.") from None
    if existing and kind == "docx":
        from app.core.documents.word_loss import check_word_replacement  # noqa: PLC0415 - only the reader of the document's format loads its library (tests/test_architecture.py)
        check_word_replacement(path, data)
    elif existing:
        from app.core.documents.keep import check_replacement  # noqa: PLC0415 - only the reader of the document's format loads its library (tests/test_architecture.py)
        check_replacement(path, data)
    return data
