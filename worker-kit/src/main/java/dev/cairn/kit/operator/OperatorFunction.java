package dev.cairn.kit.operator;

import dev.cairn.kit.task.SourceFunction;
import java.util.List;

/**
 * What an operator subtask does with one data record: read and update its {@link KeyedState}, and answer the
 * records to write downstream (written in order, each to the partition of its key). It runs on the task's loop
 * thread, once per record in the order the aligner delivers them; after a restore or a rollback it sees again
 * exactly the records its restored state does not reflect. An exception thrown here stops the task.
 */
@FunctionalInterface
public interface OperatorFunction {

    /** The outputs of the record with {@code key} and {@code value} (either may be null, as read). */
    List<SourceFunction.Output> apply(byte[] key, byte[] value, KeyedState state);
}
