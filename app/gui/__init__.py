"""The Qt window. With app/export, the only part of the app that imports Qt."""
