#!/bin/sh
# Acknowledges a snapshot: a location built from the checkpoint's variables, the checkpoint id as its size.
printf '{"location":"%s/%s-%s","sizeBytes":%s,"syncDurationMs":1,"asyncDurationMs":2}\n' \
  "$CAIRN_STORAGE_LOCATION" "$CAIRN_TASK_ID" "$CAIRN_SUBTASK_INDEX" "$CAIRN_CHECKPOINT_ID"
