#!/bin/sh
# Writes the CAIRN_ variables it sees, sorted, to the file named by $1, and a restore's files (those
# CAIRN_RESTORE_SHARED_FILE, CAIRN_RESTORE_STATES_FILE and CAIRN_RESTORE_STATES_JSON_FILE name) to $1.shared,
# $1.states and $1.states.json; acknowledges snapshots.
env | grep '^CAIRN_' | sort > "$1"
if [ -n "$CAIRN_RESTORE_SHARED_FILE" ]; then
  cp "$CAIRN_RESTORE_SHARED_FILE" "$1.shared"
fi
if [ -n "$CAIRN_RESTORE_STATES_FILE" ]; then
  cp "$CAIRN_RESTORE_STATES_FILE" "$1.states"
fi
if [ -n "$CAIRN_RESTORE_STATES_JSON_FILE" ]; then
  cp "$CAIRN_RESTORE_STATES_JSON_FILE" "$1.states.json"
fi
if [ "$CAIRN_HOOK_ACTION" = snapshot ]; then
  echo '{"location":"file:///dev/null","sizeBytes":0}'
fi
exit 0
