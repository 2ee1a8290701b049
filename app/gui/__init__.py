"""The Qt window and document export. The only part of the app that imports Qt."""
