#!/bin/sh
# Writes the CAIRN_ variables it sees, sorted, to the file named by $1; acknowledges snapshots.
env | grep '^CAIRN_' | sort > "$1"
if [ "$CAIRN_HOOK_ACTION" = snapshot ]; then
  echo '{"location":"file:///dev/null","sizeBytes":0}'
fi
exit 0
