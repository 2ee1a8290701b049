"""The folder and the tools a document test works with: `ws`, a folder whose board holds the
one open task named by the test module's TASK, and `box`, that task's round's tools. A module
with a folder of its own defines its own `ws`."""

from __future__ import annotations

import pytest

from tests.core.documents.tool_folder import one_task_folder, toolbox


@pytest.fixture
def ws(tmp_path, request):
    return one_task_folder(tmp_path, request.module.TASK)


@pytest.fixture
def box(ws, request):
    return toolbox(ws, request.module.TASK)
