"""Careful mode in the window: the approver the run thread waits on, the approval dialog,
the switch beside Run and the folder's protected paths."""
