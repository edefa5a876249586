package dev.cairn.sidecar.hook;

/**
 * How a state that is not keyed is handed out when its task's parallelism changes (Flink:
 * {@code OperatorStateHandle.Mode}), as a worker declares it with {@link SnapshotResult#withOperatorStateMode}.
 */
public enum OperatorStateMode {
    /** Each state goes to exactly one new subtask: old subtask {@code i} to new subtask {@code i % parallelism}. */
    SPLIT_DISTRIBUTE,
    /** Every state goes to every new subtask, which keeps what it needs (a source's input positions, say). */
    UNION
}
