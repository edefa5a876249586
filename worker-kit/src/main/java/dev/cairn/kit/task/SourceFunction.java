package dev.cairn.kit.task;

import java.util.List;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * What a source task does with one input record: zero or more output key/value pairs (bytes), written in order to
 * the output topic, each to the partition of its key ({@link Partitioning#forKey}). It runs on the task's loop
 * thread; an exception thrown here stops the task (see {@link KafkaSourceTask#failure()}).
 */
@FunctionalInterface
public interface SourceFunction {

    /** The outputs of {@code input} (its topic, partition, offset, key, value and headers as read). */
    List<Output> apply(ConsumerRecord<byte[], byte[]> input);

    /** Passes every record through unchanged. */
    static SourceFunction identity() {
        return input -> List.of(new Output(input.key(), input.value()));
    }

    /**
     * One output record.
     *
     * @param key its key; {@code null} sends it to the partition of the writing subtask (see {@link Partitioning})
     * @param value its value
     */
    record Output(byte[] key, byte[] value) {}
}
