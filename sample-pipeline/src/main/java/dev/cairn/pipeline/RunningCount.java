package dev.cairn.pipeline;

import dev.cairn.kit.operator.KeyedState;
import dev.cairn.kit.operator.OperatorFunction;
import dev.cairn.kit.task.SourceFunction;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * The count task's function: per key, how many events of that key it has seen, kept in {@link KeyedState} as
 * decimal text; each event emits its key and the key's new count (decimal text). An event without a key is counted
 * under the empty key.
 */
public final class RunningCount implements OperatorFunction {

    private static final byte[] NO_KEY = new byte[0];

    @Override
    public List<SourceFunction.Output> apply(byte[] key, byte[] value, KeyedState state) {
        byte[] counted = key == null ? NO_KEY : key;
        byte[] previous = state.get(counted);
        long count = previous == null ? 1 : Long.parseLong(new String(previous, StandardCharsets.US_ASCII)) + 1;
        byte[] text = Long.toString(count).getBytes(StandardCharsets.US_ASCII);
        state.put(counted, text);
        return List.of(new SourceFunction.Output(counted, text));
    }
}
