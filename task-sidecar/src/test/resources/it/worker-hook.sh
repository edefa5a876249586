#!/bin/sh
# A worker reached through the command hook: snapshots write a file, notifications are logged.
# $1: a directory for its state and its log.
dir="$1"
case "$CAIRN_HOOK_ACTION" in
  snapshot)
    file="$dir/chk-$CAIRN_CHECKPOINT_ID"
    echo "state of $CAIRN_TASK_ID-$CAIRN_SUBTASK_INDEX at $CAIRN_CHECKPOINT_ID" > "$file"
    echo "{\"location\": \"file://$file\", \"sizeBytes\": $(wc -c < "$file")}"
    ;;
  complete)
    echo "complete $CAIRN_CHECKPOINT_ID $CAIRN_LAST_SUBSUMED_ID" >> "$dir/notifications.log"
    ;;
  abort)
    echo "abort $CAIRN_CHECKPOINT_ID $CAIRN_LATEST_COMPLETED_ID" >> "$dir/notifications.log"
    ;;
  restore)
    echo "restore ${CAIRN_RESTORE_CHECKPOINT_ID:-none} as attempt $CAIRN_ATTEMPT_NUMBER $CAIRN_ATTEMPT_ID" \
      >> "$dir/notifications.log"
    ;;
esac
