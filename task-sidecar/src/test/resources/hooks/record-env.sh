#!/bin/sh
# Writes the CAIRN_ variables it sees, sorted, to the file named by $1, and a restore's shared objects (the file
# CAIRN_RESTORE_SHARED_FILE names) to $1.shared; acknowledges snapshots.
env | grep '^CAIRN_' | sort > "$1"
if [ -n "$CAIRN_RESTORE_SHARED_FILE" ]; then
  cp "$CAIRN_RESTORE_SHARED_FILE" "$1.shared"
fi
if [ "$CAIRN_HOOK_ACTION" = snapshot ]; then
  echo '{"location":"file:///dev/null","sizeBytes":0}'
fi
exit 0
