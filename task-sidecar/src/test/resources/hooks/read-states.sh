#!/bin/sh
# Reads CAIRN_RESTORE_STATES_FILE as docs/sidecars.md shows and writes each state's fields to the file named by $1,
# one line per state, the fields between | characters.
: > "$1"
while read -r from size groups mode location; do
  echo "$from|$size|$groups|$mode|$location" >> "$1"
done < "$CAIRN_RESTORE_STATES_FILE"
