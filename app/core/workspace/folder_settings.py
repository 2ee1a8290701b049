"""The folder's own settings (.harness/folder.json): careful mode, the protected paths, and
whether its tasks may look things up on the web unless a task says otherwise.

They belong to the folder, not to the person's app settings, so the window and the command
line read the same ones, and the agent can neither read nor change them (.harness is off
limits to it).
"""

from __future__ import annotations

from pathlib import Path

from pydantic import Field, ValidationError, field_validator

from app.core.workspace.files import atomic_write_json, read_json
from app.core.policies.rules import DEFAULT_MANY_CHANGES
from app.core.records.model import Record

FILE_NAME = "folder.json"


class FolderSettings(Record):
    careful: bool = False                     # ask before changing the person's own files
    protected: list[str] = Field(default_factory=list)  # never changed, in any mode
    many_changes: int = Field(DEFAULT_MANY_CHANGES, ge=1, le=10_000)
    # Tasks without a "Web:" line may use the services' web search and fetch.
    web: bool = False

    @field_validator("protected", mode="before")
    @classmethod
    def _clean(cls, value: object) -> object:
        if not isinstance(value, list):
            return []
        out: list[str] = []
        for item in value:
            if isinstance(item, str):
                entry = normalise_entry(item)
                if entry and entry not in out:
                    out.append(entry)
        return out


def normalise_entry(path: str) -> str:
    """A protected entry as stored: workspace-relative, '/' between parts, no './'."""
    parts = [p for p in path.replace("\\", "/").split("/") if p not in ("", ".")]
    return "/".join(parts) or "."


def folder_settings_path(harness_dir: Path | str) -> Path:
    return Path(harness_dir) / FILE_NAME


def load_folder_settings(harness_dir: Path | str) -> FolderSettings:
    """The folder's settings; a missing or damaged file gives the defaults (protected
    entries that can be read are kept: losing one would silently unprotect a file)."""
    data = read_json(folder_settings_path(harness_dir))
    if not isinstance(data, dict):
        return FolderSettings()
    try:
        return FolderSettings.model_validate(data)
    except ValidationError:
        return FolderSettings(protected=data.get("protected") or [])


def save_folder_settings(harness_dir: Path | str, settings: FolderSettings) -> None:
    Path(harness_dir).mkdir(parents=True, exist_ok=True)
    atomic_write_json(folder_settings_path(harness_dir), settings.model_dump(mode="json"))
