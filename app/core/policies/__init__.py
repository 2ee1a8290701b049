"""Safety policies checked before every change to a file (rules), the gate that applies
them and waits for the person (gate), the approver port (approver), and the changes kept
for an answer on the board (pending)."""
